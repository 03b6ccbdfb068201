// npm run bench:frames: time per frame and variables per frame of the display engine in the real
// interpreter ($ESPRUINO, Espruino's Linux build with the ESP32's properties). Each scene (every
// time mode, the date app, a 64-character text in each scroll mode, every transition half-way)
// runs FRAMES frames after a warm-up; a frame includes colour grading and the push to a neopixel
// stand-in. Prints a table and keeps it in bench/out/frames-<board>.json.
//
// Budgets (issue: display engine): median <= 1.0 ms, no frame above 2.5 ms, and usage after the
// frames equal to usage before.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "../test/harness/root";
// @ts-expect-error: a build script without type declarations
import { buildEspruinoBundle } from "../build/espruino-bundle.mjs";
import { option } from "./options";

const MEDIAN_BUDGET_MS = 1.0;
const MAX_BUDGET_MS = 2.5;


const board = option("board", "esp32");
const frames = +option("frames", "1000");
const only = option("only", "");
const bin = process.env.ESPRUINO;
if (!bin) {
  console.log("frame benchmarks skipped: set ESPRUINO=/path/to/espruino (a Linux build of Espruino)");
  process.exit(0);
}

export interface SceneFigures {
  name: string; medianMs: number; maxMs: number; usageBefore: number; usageAfter: number; slowestFrame: number;
}

/**
 * A script for the interpreter that copies files into its Storage in chunks, as flashing would
 * (the Linux build reads them with E.openFile).
 */
function copyScript(files: { [name: string]: string }): string {
  let out = "var S=require('Storage');function copy(p,n){var z=require('fs').statSync(p).size,f=E.openFile(p,'r'),o=0,c;" +
    "while(o<z){c=f.read(2048);if(!c)break;S.write(n,c,o,z);o+=c.length;}f.close();}\n";
  for (const name of Object.keys(files)) out += "copy(" + JSON.stringify(files[name]) + "," + JSON.stringify(name) + ");\n";
  return out + "quit();\n";
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-frames-"));
const outfile = path.join(tmp, "bundle.js");
await buildEspruinoBundle(path.join(ROOT, "bench", "frames-entry.ts"), board, outfile, { FRAMES: String(frames), ONLY: JSON.stringify(only) });
// Two runs, as on the device: the files go into Storage first, then the bundle is evaluated from
// there (memory-mapped, so its functions' code stays in flash), from a timer once the starting
// script's own source is gone.
const files: { [name: string]: string } = { "bench.js": outfile };
const storageDir = path.join(ROOT, "dist", "storage");
for (const name of fs.readdirSync(storageDir)) files[name] = path.join(storageDir, name);
fs.writeFileSync(path.join(tmp, "files.js"), copyScript(files));
fs.writeFileSync(path.join(tmp, "run.js"),
  "var PUSHED=0;Modules.addCached('neopixel','exports.write=function(p,d){PUSHED+=d.length;};');\n" +
  "setTimeout(\"eval(require('Storage').read('bench.js'));print('[frames] pushed '+PUSHED);quit();\", 1);\n");
spawnSync(bin, ["files.js"], { cwd: tmp, encoding: "latin1", timeout: 60000, stdio: ["ignore", "pipe", "pipe"] });
const r = spawnSync(bin, ["run.js"], { cwd: tmp, encoding: "latin1", timeout: 600000, stdio: ["ignore", "pipe", "pipe"] });
fs.rmSync(tmp, { recursive: true, force: true });
const lines = (r.stdout + r.stderr).split("\n").map((l) => l.replace(/\r$/, ""));
const MARK = "[frames] ";
const scenes: SceneFigures[] = [];
let done = false;
let pushedBytes = 0;
let tableVars: { fonts: number; transitions: number } | null = null;
for (const l of lines) {
  const at = l.indexOf(MARK);
  if (at < 0) continue;
  const w = l.slice(at + MARK.length).split(" ");
  if (w[0] === "done") done = true;
  else if (w[0] === "pushed") pushedBytes = +w[1];
  else if (w[0] === "tables") tableVars = { fonts: +w[1], transitions: +w[2] };
  else if (w.length === 6) {
    scenes.push({ name: w[0], medianMs: +w[1], maxMs: +w[2], usageBefore: +w[3], usageAfter: +w[4], slowestFrame: +w[5] });
  }
}
if (!done) {
  console.error("the benchmark did not finish:\n" + lines.slice(-30).join("\n"));
  process.exit(1);
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
console.log("scene".padEnd(26) + pad("median ms", 10) + pad("max ms", 9) + pad("at frame", 9) + pad("vars before", 13) +
  pad("after", 7));
let worst = 0;
let worstMax = 0;
let leaks = 0;
for (const s of scenes) {
  // "first-<transition>" holds only first frames of changes: one frame each, held to the frame budget.
  const single = s.name.startsWith("first-");
  const flag = (!single && s.medianMs > MEDIAN_BUDGET_MS) || s.maxMs > MAX_BUDGET_MS || s.usageAfter !== s.usageBefore ?
    "  <-- over budget" : "";
  console.log(s.name.padEnd(26) + pad(s.medianMs.toFixed(3), 10) + pad(s.maxMs.toFixed(3), 9) + pad(s.slowestFrame, 9) +
    pad(s.usageBefore, 13) +
    pad(s.usageAfter, 7) + flag);
  if (!single) worst = Math.max(worst, s.medianMs);
  worstMax = Math.max(worstMax, s.maxMs);
  if (s.usageAfter !== s.usageBefore) leaks++;
}
console.log("\n" + scenes.length + " scenes, " + frames + " frames each: worst median " + worst.toFixed(3) + " ms (budget " +
  MEDIAN_BUDGET_MS + "), worst frame " + worstMax.toFixed(3) + " ms (budget " + MAX_BUDGET_MS + "), scenes whose usage changed: " + leaks);
console.log("bytes handed to the LED driver: " + pushedBytes);
if (tableVars) {
  console.log("fonts and tables once used, variables: fonts " + tableVars.fonts + " (at most; flash-mapped on the device), " +
    "transition tables " + tableVars.transitions + ", together " + (tableVars.fonts + tableVars.transitions) + " (budget 300)");
}
const outDir = path.join(ROOT, "bench", "out");
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, "frames-" + board + ".json"), JSON.stringify({ board, frames, scenes, tableVars }, null, 2) + "\n");
