// Each board's chip rules (the `chip` export of boards/<id>.ts) as a Storage file `chip.<id>`
// in JSON: pin validation and the capabilities read them when they run, so the clock does not
// hold the tables between requests.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHIP_DIR = "dist/tables";

export const BOARD_IDS = fs.readdirSync(path.join(root, "boards"))
  .filter((f) => f.endsWith(".ts") && f !== "board.ts")
  .map((f) => f.slice(0, -3));

export const CHIP_FILES = Object.fromEntries(BOARD_IDS.map((id) => ["chip." + id, CHIP_DIR + "/chip." + id]));

async function chipOf(id) {
  const out = await esbuild.build({
    entryPoints: [path.join(root, "boards", id + ".ts")], bundle: true, format: "esm", write: false, logLevel: "error",
  });
  const mod = await import("data:text/javascript;base64," + Buffer.from(out.outputFiles[0].text).toString("base64"));
  if (!mod.chip) throw new Error("boards/" + id + ".ts exports no chip rules");
  return mod.chip;
}

export async function writeChipFiles() {
  fs.mkdirSync(path.join(root, CHIP_DIR), { recursive: true });
  for (const id of BOARD_IDS) {
    fs.writeFileSync(path.join(root, CHIP_DIR, "chip." + id), JSON.stringify(await chipOf(id)));
  }
}
