// npm run test:espruino: the HTTP suites against the firmware running in the real interpreter
// (PIXLOOP_TARGET=espruino, see test/http/target.ts). Without $ESPRUINO there is nothing to run
// them in, which is not a failure.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "../harness/root";

const bin = process.env.ESPRUINO;
if (!bin) {
  console.log("real-interpreter tests skipped: set ESPRUINO=/path/to/espruino");
  process.exit(0);
}
if (!fs.existsSync(bin)) {
  console.error("ESPRUINO names " + bin + ", which does not exist");
  process.exit(1);
}
if (!fs.existsSync(path.join(ROOT, "dist", "esp32.js"))) {
  console.error("dist/esp32.js is missing: run `npm run build` first");
  process.exit(1);
}

console.log("HTTP suites in " + bin + " (the tests that need the simulator's controls are skipped)");
const uvu = path.join(ROOT, "node_modules", ".bin", "uvu");
const r = spawnSync(uvu, ["-r", "tsx", "test/http", "\\.test\\.ts$"], {
  cwd: ROOT,
  stdio: "inherit",
  env: Object.assign({}, process.env, { PIXLOOP_TARGET: "espruino" }),
});
if (r.error) {
  console.error(String(r.error));
  process.exit(1);
}
process.exit(r.status === null ? 1 : r.status);
