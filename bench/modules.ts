// npm run bench (its module table): what each firmware module costs in the real interpreter.
// Every module file of dist/storage is written into a fresh interpreter's Storage and loaded
// there with the firmware's own loadModule, one at a time: the variables its value holds while it is
// referenced, what is left once it is dropped, and the time an evaluation takes (median of 20).
import * as fs from "node:fs";
import * as path from "node:path";
import { runInEspruino } from "../test/espruino/script";
import { ROOT } from "../test/harness/root";

export interface ModuleFigures { file: string; bytes: number; loadedVars: number; leftVars: number; loadMs: number }

const MARK = "[module] ";

/** The module table, measured in `bin`. */
export function measureModules(bin: string): ModuleFigures[] {
  const dir = path.join(ROOT, "dist", "storage");
  const names = fs.readdirSync(dir).filter((n) => n.startsWith("m.")).sort();
  const files: { [name: string]: string } = {};
  for (const n of names) files[n] = fs.readFileSync(path.join(dir, n), "latin1");
  // A module's top level may reach Espruino modules the Linux build lacks; plain stand-ins do.
  const ids = names.map((n) => n.slice(2).split(".").join("/"));
  const program = `
    import { loadModule } from "./firmware/platform/modules";
    declare const Modules: { addCached(name: string, src: string): void };
    Modules.addCached("Wifi", "module.exports={};");
    const names = ${JSON.stringify(names)};
    const ids = ${JSON.stringify(ids)};
    const load = (k: number) => loadModule<unknown>(ids[k]);
    const times = new Float32Array(20);
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      let value: unknown;
      try {
        value = load(i);
      } catch (e) {
        print("${MARK}" + name + " failed " + e);
        continue;
      }
      value = null;
      const base = process.memory().usage;
      value = load(i);
      const loaded = process.memory().usage - base;
      value = null;
      const left = process.memory().usage - base;
      for (let k = 0; k < times.length; k++) {
        const t0 = getTime();
        value = load(i);
        times[k] = (getTime() - t0) * 1000;
        value = null;
      }
      times.sort();
      print("${MARK}" + name + " " + loaded + " " + left + " " + times[times.length >> 1]);
    }
  `;
  const lines = runInEspruino(bin, program, files).filter((l) => l.startsWith(MARK));
  const failed = lines.filter((l) => l.split(" ")[1] === "failed");
  if (failed.length) throw new Error("modules that do not load: " + failed.map((l) => l.slice(MARK.length)).join("; "));
  return lines.map((l) => {
    const [file, loaded, left, ms] = l.slice(MARK.length).split(" ");
    return { file, bytes: files[file].length, loadedVars: +loaded, leftVars: +left, loadMs: +ms };
  });
}

/** The table as printed by the benchmark. */
export function moduleTable(rows: ModuleFigures[]): string {
  const pad = (s: string, w: number) => (s.length >= w ? s : s + " ".repeat(w - s.length));
  const lpad = (s: string, w: number) => (s.length >= w ? s : " ".repeat(w - s.length) + s);
  const w = Math.max(...rows.map((r) => r.file.length), 6) + 2;
  let out = pad("module", w) + lpad("bytes", 8) + lpad("loaded", 9) + lpad("left", 6) + lpad("load ms", 9) + "\n";
  for (const r of rows) {
    out += pad(r.file, w) + lpad(String(r.bytes), 8) + lpad(String(r.loadedVars), 9) + lpad(String(r.leftVars), 6) +
      lpad(r.loadMs.toFixed(3), 9) + "\n";
  }
  return out;
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(ROOT, "bench", "modules.ts");
if (invokedDirectly) {
  const bin = process.env.ESPRUINO;
  if (!bin) console.log("module table skipped: set ESPRUINO=/path/to/espruino");
  else process.stdout.write(moduleTable(measureModules(bin)));
}
