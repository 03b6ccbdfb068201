// npm run flash -- --port /dev/ttyUSB0 [--board esp32|esp32s3]
// Writes the built bundle into the clock's Storage as .bootcde (which Espruino runs at every
// start) and the Storage files beside it, through the espruino command-line tool.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { STORAGE_FILES } from "../build/storage-files.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const option = (name, fallback) => {
  const i = process.argv.indexOf("--" + name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const port = option("port");
const board = option("board", "esp32");
if (!port) {
  console.error("usage: npm run flash -- --port /dev/ttyUSB0 [--board esp32|esp32s3]");
  process.exit(2);
}
const bundle = path.join(root, "dist", board + ".js");
if (!fs.existsSync(bundle)) {
  console.error(bundle + " is missing: run `npm run build` first");
  process.exit(1);
}
const args = ["--yes", "espruino", "-p", port, "-b", "115200"];
for (const name of Object.keys(STORAGE_FILES)) args.push("--storage", name + ":" + path.join(root, "dist", "storage", name));
args.push("--storage", ".bootcde:-", bundle);
console.log("npx " + args.join(" "));
const r = spawnSync("npx", args, { stdio: "inherit" });
process.exit(r.status === null ? 1 : r.status);
