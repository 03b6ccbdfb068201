// npm run bench:effects: time per frame and variables of every background effect
// (firmware/effects/*.mod.ts) and weather overlay (firmware/overlays/*.mod.ts) in the real
// interpreter ($ESPRUINO, Espruino's Linux build with the ESP32's properties). Each module is
// loaded from Storage as the page loads it (its built file from dist/storage), made for 32 x 8 and
// drawn 1,000 frames at effect times 25 ms apart (a frame's time is the quickest of three passes
// over them all, so that other processes on the machine do not count); then the slowest effect and
// the slowest overlay by median, the overlay over the effect and a scrolling text line over both,
// are drawn as one frame, within one frame's budget. The modules are listed from
// the sources when it runs, so effects and overlays added later are measured too. Prints a table,
// flags what is over budget and keeps the figures in bench/out/effects-<board>.json.
//
// Options: --board <id> (default esp32), --frames <n> (default 1000), --only <text> (modules whose
// id contains it).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "../test/harness/root";
// @ts-expect-error: a build script without type declarations
import { buildEspruinoBundle } from "../build/espruino-bundle.mjs";
import { option } from "./options";

/** Budgets of one effect or overlay on the esp32 board: ms per frame, variables while drawing. */
const MEDIAN_BUDGET_MS = 1.0;
const MAX_BUDGET_MS = 2.5;
const VARIABLES_BUDGET = 150;
/** make() may do bounded work per pixel: at most this long. */
const MAKE_BUDGET_MS = 30;
/**
 * The combined scene (the slowest effect under the slowest overlay and a scrolling text line) has
 * one frame's budget: what a page with an effect, an overlay and text costs is what the render
 * loop must fit, not the sum of three budgets.
 */
const SCENE_MEDIAN_BUDGET_MS = MEDIAN_BUDGET_MS;
const SCENE_MAX_BUDGET_MS = MAX_BUDGET_MS;


const board = option("board", "esp32");
const frames = +option("frames", "1000");
const only = option("only", "");
const bin = process.env.ESPRUINO;
if (!bin) {
  console.log("effect benchmarks skipped: set ESPRUINO=/path/to/espruino (a Linux build of Espruino)");
  process.exit(0);
}

export interface ModuleFigures {
  id: string;
  medianMs: number;
  maxMs: number;
  slowestFrame: number;
  loadMs: number;
  makeMs: number;
  /** process.memory().usage before loading, and over it: loaded, loaded and made, the most while drawing, after dropping. */
  usageBefore: number;
  loaded: number;
  made: number;
  drawing: number;
  dropped: number;
  over: string[];
}

export interface SceneFigures {
  effect: string;
  overlay: string;
  medianMs: number;
  maxMs: number;
  slowestFrame: number;
  usageBefore: number;
  drawing: number;
  dropped: number;
  over: string[];
}

/** Module ids of the effects and overlays in the sources, effects first. */
function moduleIds(): string[] {
  const ids: string[] = [];
  for (const dir of ["effects", "overlays"]) {
    const full = path.join(ROOT, "firmware", dir);
    if (!fs.existsSync(full)) continue;
    for (const f of fs.readdirSync(full).sort()) if (f.endsWith(".mod.ts")) ids.push(dir + "/" + f.slice(0, -".mod.ts".length));
  }
  return ids.filter((id) => id.indexOf(only) >= 0);
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

const storageDir = path.join(ROOT, "dist", "storage");
const ids = moduleIds().filter((id) => {
  const built = fs.existsSync(path.join(storageDir, "m." + id.split("/").join(".")));
  if (!built) console.log(id + ": not in dist/storage (run npm run build), skipped");
  return built;
});
if (!ids.length) {
  console.log("no effect or overlay modules to measure");
  process.exit(0);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-effects-"));
const outfile = path.join(tmp, "bundle.js");
await buildEspruinoBundle(path.join(ROOT, "bench", "effects-entry.ts"), board, outfile, {
  FRAMES: String(frames),
  IDS: JSON.stringify(ids),
});
// Two runs, as on the device: the files go into Storage first, then the bundle is evaluated from
// there (memory-mapped, so its functions' code stays in flash), from a timer once the starting
// script's own source is gone.
const files: { [name: string]: string } = { "bench.js": outfile };
for (const name of fs.readdirSync(storageDir)) files[name] = path.join(storageDir, name);
fs.writeFileSync(path.join(tmp, "files.js"), copyScript(files));
fs.writeFileSync(path.join(tmp, "run.js"), "setTimeout(\"eval(require('Storage').read('bench.js'));quit();\", 1);\n");
spawnSync(bin, ["files.js"], { cwd: tmp, encoding: "latin1", timeout: 60000, stdio: ["ignore", "pipe", "pipe"] });
const r = spawnSync(bin, ["run.js"], { cwd: tmp, encoding: "latin1", timeout: 600000, stdio: ["ignore", "pipe", "pipe"] });
fs.rmSync(tmp, { recursive: true, force: true });
const lines = (r.stdout + r.stderr).split("\n").map((l) => l.replace(/\r$/, ""));
const MARK = "[fx] ";
const modules: ModuleFigures[] = [];
let scene: SceneFigures | null = null;
let done = false;
for (const l of lines) {
  const at = l.indexOf(MARK);
  if (at < 0) continue;
  const w = l.slice(at + MARK.length).split(" ");
  if (w[0] === "done") done = true;
  else if (w[0] === "module" && w.length === 12) {
    const m: ModuleFigures = {
      id: w[1], medianMs: +w[2], maxMs: +w[3], slowestFrame: +w[4], loadMs: +w[5], makeMs: +w[6],
      usageBefore: +w[7], loaded: +w[8], made: +w[9], drawing: +w[10], dropped: +w[11], over: [],
    };
    if (m.medianMs > MEDIAN_BUDGET_MS) m.over.push("median");
    if (m.maxMs > MAX_BUDGET_MS) m.over.push("max");
    if (m.makeMs > MAKE_BUDGET_MS) m.over.push("make");
    if (m.made > VARIABLES_BUDGET || m.drawing > VARIABLES_BUDGET) m.over.push("variables");
    if (m.dropped !== 0) m.over.push("not given back");
    modules.push(m);
  } else if (w[0] === "scene" && w.length === 9) {
    scene = {
      effect: w[1], overlay: w[2] === "-" ? "" : w[2], medianMs: +w[3], maxMs: +w[4], slowestFrame: +w[5], usageBefore: +w[6],
      drawing: +w[7], dropped: +w[8], over: [],
    };
    if (scene.medianMs > SCENE_MEDIAN_BUDGET_MS) scene.over.push("median");
    if (scene.maxMs > SCENE_MAX_BUDGET_MS) scene.over.push("max");
    if (scene.dropped !== 0) scene.over.push("not given back");
  }
}
if (!done) {
  console.error("the benchmark did not finish:\n" + lines.slice(-30).join("\n"));
  process.exit(1);
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
console.log("module".padEnd(26) + pad("median ms", 10) + pad("max ms", 8) + pad("at", 6) + pad("load ms", 9) + pad("make ms", 9) +
  pad("vars before", 12) + pad("loaded", 7) + pad("made", 6) + pad("drawing", 9) + pad("dropped", 9));
for (const m of modules) {
  console.log(m.id.padEnd(26) + pad(m.medianMs.toFixed(3), 10) + pad(m.maxMs.toFixed(3), 8) + pad(m.slowestFrame, 6) +
    pad(m.loadMs.toFixed(2), 9) + pad(m.makeMs.toFixed(2), 9) + pad(m.usageBefore, 12) + pad("+" + m.loaded, 7) + pad("+" + m.made, 6) + pad("+" + m.drawing, 9) +
    pad((m.dropped >= 0 ? "+" : "") + m.dropped, 9) + (m.over.length ? "  <-- over budget: " + m.over.join(", ") : ""));
}
if (scene) {
  console.log("\ncombined scene, one frame = " + scene.effect + (scene.overlay ? " + " + scene.overlay : "") + " + scrolling text: median " +
    scene.medianMs.toFixed(3) + " ms, max " + scene.maxMs.toFixed(3) + " ms (frame " + scene.slowestFrame + "); variables drawing +" +
    scene.drawing + ", dropped " + (scene.dropped >= 0 ? "+" : "") + scene.dropped +
    (scene.over.length ? "  <-- over budget: " + scene.over.join(", ") : ""));
}
const overCount = modules.filter((m) => m.over.length).length;
console.log("\n" + modules.length + " modules, " + frames + " frames each, on " + board + ". Budgets: median " + MEDIAN_BUDGET_MS +
  " ms, max " + MAX_BUDGET_MS + " ms, " + VARIABLES_BUDGET + " variables made or drawing, all given back once dropped, make " +
  MAKE_BUDGET_MS + " ms; scene median " + SCENE_MEDIAN_BUDGET_MS + " ms, max " + SCENE_MAX_BUDGET_MS + " ms. Over budget: " +
  overCount + (scene && scene.over.length ? " and the scene" : ""));
const outDir = path.join(ROOT, "bench", "out");
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, "effects-" + board + ".json"), JSON.stringify({
  board, frames,
  budgets: { medianMs: MEDIAN_BUDGET_MS, maxMs: MAX_BUDGET_MS, variables: VARIABLES_BUDGET, makeMs: MAKE_BUDGET_MS,
    sceneMedianMs: SCENE_MEDIAN_BUDGET_MS, sceneMaxMs: SCENE_MAX_BUDGET_MS },
  modules, scene,
}, null, 2) + "\n");
