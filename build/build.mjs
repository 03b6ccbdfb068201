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
import { writeBootStage, writeManifest, writePackages } from "./package.mjs";

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
// The two-slot layout and updates (firmware/update/README.md): the slot's manifest, the boot stage
// (.bootcde) and one update package per board, named as the board says.
writeManifest();
const bootStage = writeBootStage();
const version = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
const packages = await writePackages(BOARDS, version);
if (!quiet) {
  for (const f of outputs) console.log(path.relative(root, f) + ": " + fs.statSync(f).size + " bytes");
  const bytes = modules.reduce((n, m) => n + fs.statSync(path.join(root, "dist", "storage", m.file)).size, 0);
  console.log(modules.length + " modules in dist/storage: " + bytes + " bytes");
  console.log(path.relative(root, bootStage) + " (the boot stage): " + fs.statSync(bootStage).size + " bytes");
  for (const f of packages) console.log(path.relative(root, f) + " (update package): " + fs.statSync(f).size + " bytes");
}
