// Bundles the firmware into one Espruino script per board (dist/<board>.js) and collects the
// files that go into the device's Storage next to it (dist/storage/).
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { STORAGE_FILES } from "./storage-files.mjs";
import { writeFontFiles } from "./fonts.mjs";
import { writeTableFiles } from "./tables.mjs";
import { buildEspruinoBundle } from "./espruino-bundle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const quiet = process.argv.includes("--quiet");

const BOARDS = fs.readdirSync(path.join(root, "boards"))
  .filter((f) => f.endsWith(".ts") && f !== "board.ts")
  .map((f) => f.slice(0, -3));

async function buildBoard(id) {
  const outfile = path.join(root, "dist", id + ".js");
  return buildEspruinoBundle(path.join(root, "firmware/main.ts"), id, outfile);
}

function copyStorageFiles() {
  const dir = path.join(root, "dist", "storage");
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, src] of Object.entries(STORAGE_FILES)) {
    fs.copyFileSync(path.join(root, src), path.join(dir, name));
  }
}

const outputs = [];
for (const id of BOARDS) outputs.push(await buildBoard(id));
writeFontFiles();
writeTableFiles();
copyStorageFiles();
if (!quiet) for (const f of outputs) console.log(path.relative(root, f) + ": " + fs.statSync(f).size + " bytes");
