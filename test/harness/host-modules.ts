// Unit tests run the firmware's TypeScript directly, not the bundle: there a module
// (firmware/<id>.mod.ts) is handed to loadModule() straight from its source file, the way the
// clock would evaluate it from Storage. Preloaded by the unit suites (test/run.mjs).
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./root";

(globalThis as { PIXLOOP_HOST_MODULES?: (id: string) => unknown }).PIXLOOP_HOST_MODULES = (id: string) => {
  const file = path.join(ROOT, "firmware", id + ".mod.ts");
  if (!fs.existsSync(file)) throw new Error("module " + id + " is missing");
  return require(file).default;
};
