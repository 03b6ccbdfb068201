// Bundles the firmware into one Espruino script per board (dist/<board>.js) and collects the
// files that go into the device's Storage next to it (dist/storage/).
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { STORAGE_FILES } from "./storage-files.mjs";
import { writeFontFiles } from "./fonts.mjs";
import { writeTableFiles } from "./tables.mjs";
import { BOARD_IDS, writeChipFiles } from "./chips.mjs";
import { buildEspruinoBundle } from "./espruino-bundle.mjs";
import { buildModules, residentGuard } from "./modules.mjs";
import { writeRouteTable } from "./routes.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const quiet = process.argv.includes("--quiet");

const BOARDS = BOARD_IDS;

async function buildBoard(id) {
  const outfile = path.join(root, "dist", id + ".js");
  return buildEspruinoBundle(path.join(root, "firmware/main.ts"), id, outfile, {}, [residentGuard]);
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
await writeChipFiles();
copyStorageFiles();
// Modules serve every board (they may not import @board), so one build of them goes with all.
const modules = await buildModules(path.join(root, "dist", "storage"), BOARDS[0]);
await writeRouteTable(path.join(root, "dist", "storage"));
if (!quiet) {
  for (const f of outputs) console.log(path.relative(root, f) + ": " + fs.statSync(f).size + " bytes");
  const bytes = modules.reduce((n, m) => n + fs.statSync(path.join(root, "dist", "storage", m.file)).size, 0);
  console.log(modules.length + " modules in dist/storage: " + bytes + " bytes");
}
