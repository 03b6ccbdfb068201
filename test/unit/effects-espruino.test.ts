// Every background effect (firmware/effects/*.mod.ts) and weather overlay (firmware/overlays/
// *.mod.ts) in the real interpreter ($ESPRUINO), from its module built as the build builds it and
// loaded from Storage as the page loads it: the pixels of three moments, with its stock colours
// and with a given palette (blended, and in hard bands), are the host's; what it holds loaded and
// made stays within its budget and is all given back once dropped; and how long its frames take.
// The modules are listed when the suite runs, so an effect or overlay added later is covered too.
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as esbuild from "esbuild";
import { runInEspruino } from "../espruino/script";
import { ROOT } from "../harness/root";
import { drawAt, installEngineHost } from "./effects-support";
import { loadModule } from "../../firmware/platform/modules";
import type { EffectModule } from "../../firmware/effects/types";
// @ts-expect-error: a build script without type declarations
import { asExpression, moduleFile, moduleGuard } from "../../build/modules.mjs";
// @ts-expect-error: a build script without type declarations
import { espruinoBundle, renameOf } from "../../build/espruino-bundle.mjs";

const bin = process.env.ESPRUINO;
const MARK = "[fx] ";
const W = 32;
const H = 8;
/** Effect times drawn (ms): the start, a moment within the first seconds, one much later. */
const MOMENTS = [0, 1230, 46350];
/** The given palette: four colours far apart, so that a wrong position shows. */
const PALETTE = [0xff2000, 0x20ff40, 0x2040ff, 0xf0f0f0];
/** Stock colours; the palette blended; the palette in 16 hard bands. */
const INKS: { name: string; palette?: number[]; blend: boolean }[] = [
  { name: "stock", blend: true },
  { name: "palette", palette: PALETTE, blend: true },
  { name: "bands", palette: PALETTE, blend: false },
];
/** Frames timed per module, each drawn three times (the quickest of the three counts). */
const TIMED = 64;
/** Budgets per module: variables while loaded, made and drawing; ms per frame (median, worst). */
const MAX_VARIABLES = 150;
const MAX_MEDIAN_MS = 1.0;
const MAX_FRAME_MS = 2.5;
/** make() runs outside frames, but on the clock ten times slower: a third of a second at most. */
const MAX_MAKE_MS = 30;

/** The page an overlay is drawn over (an effect paints the whole frame and gets black). */
const UNDER = `(g) => { g.setColor(0x203040); g.fillRect(0, 0, g.getWidth() - 1, g.getHeight() - 1);
  g.setColor(0xffffff); g.fillRect(3, 2, 12, 5); g.setColor(0xff8000); g.drawLine(16, 0, 28, 7); }`;
const under = new Function("return " + UNDER)() as (g: Graphics) => void;

/** Module ids of the effects and overlays, as they are on disk now. */
function moduleIds(): string[] {
  const ids: string[] = [];
  for (const dir of ["effects", "overlays"]) {
    const full = path.join(ROOT, "firmware", dir);
    if (!fs.existsSync(full)) continue;
    for (const f of fs.readdirSync(full).sort()) if (f.endsWith(".mod.ts")) ids.push(dir + "/" + f.slice(0, -".mod.ts".length));
  }
  return ids;
}

/** The Storage file of module `id`, built as build/modules.mjs builds it. */
async function builtModule(id: string): Promise<string> {
  const options = espruinoBundle(path.join(ROOT, "firmware", id + ".mod.ts"), "esp32", path.join(ROOT, "dist", "unused"));
  options.format = "esm";
  options.write = false;
  options.banner = undefined;
  options.plugins = [moduleGuard(id)];
  const result = await esbuild.build(options);
  return renameOf(asExpression(result.outputFiles[0].text, id));
}

/** The program the interpreter runs: per module its pixels, its memory and its frame times. */
function script(ids: string[]): string {
  return `
    import { loadModule } from "./firmware/platform/modules";
    import { PaletteInk } from "./firmware/palette/ink";
    import { entriesFromColors, entriesFromStops, parseStops } from "./firmware/palette/compile";
    import { FrameCanvas, Grade } from "./firmware/display/grade";
    const IDS = ${JSON.stringify(ids)};
    const MOMENTS = ${JSON.stringify(MOMENTS)};
    const INKS = ${JSON.stringify(INKS)};
    const under = ${UNDER};
    const say = (s) => print("${MARK}" + s);
    const used = () => process.memory().usage;
    const g = Graphics.createArrayBuffer(${W}, ${H}, 24);
    const grade = new Grade();
    function inkOf(mod, spec) {
      const entries = spec.palette ? entriesFromColors(spec.palette) : entriesFromStops(parseStops(mod.stock));
      const ink = new PaletteInk(entries, spec.blend, !!spec.palette);
      ink.grade(new FrameCanvas(g, grade));
      return ink;
    }
    /** What is under a frame: the page for an overlay; for an effect, black before its first. */
    function paint(overlay, first) {
      if (overlay) under(g);
      else if (first) {
        g.setColor(0);
        g.fillRect(0, 0, ${W - 1}, ${H - 1});
      }
    }
    function dump() {
      let row = "";
      for (let y = 0; y < ${H}; y++) for (let x = 0; x < ${W}; x++) row += (0x1000000 + g.getPixel(x, y)).toString(16).substr(1);
      return row;
    }
    // Everything measuring uses is made before the first reading, so that a reading holds only
    // what the module and its effect hold.
    let mod = null;
    let fx = null;
    let ink = null;
    let base = 0;
    let loaded = 0;
    let made = 0;
    let drawing = 0;
    let after = 0;
    let mapCost = 0;
    let k = 0;
    let r = 0;
    let start = 0.5;
    let makeMs = 0.5;
    let i = 0;
    let j = 0;
    let best = new Float32Array(${TIMED});
    for (i = 0; i < IDS.length; i++) {
      const id = IDS[i];
      const overlay = id.indexOf("overlays/") === 0;
      // A module that throws is reported, and the others still run.
      try {
      // Pixels: one effect made per ink, drawn at each moment in turn on the same frame (an
      // effect over the one before: it paints the whole background, the host draws each fresh).
      for (j = 0; j < INKS.length; j++) {
        mod = loadModule(id);
        ink = inkOf(mod, INKS[j]);
        fx = mod.make(${W}, ${H});
        for (k = 0; k < MOMENTS.length; k++) {
          paint(overlay, k === 0);
          fx.draw(g, MOMENTS[k], ink);
          say("px " + id + " " + INKS[j].name + " " + MOMENTS[k] + " " + dump());
        }
        fx = null;
        mod = null;
      }
      // Memory: the ink (the page's, made before the effect) with its palette map made.
      mod = loadModule(id);
      ink = inkOf(mod, INKS[1]);
      mod = null;
      base = used();
      ink.map(0);
      mapCost = used() - base;
      base = used();
      mod = loadModule(id);
      loaded = used() - base;
      fx = mod.make(${W}, ${H});
      made = used() - base;
      for (k = 0; k < 20; k++) fx.draw(g, k * 97, ink);
      drawing = used() - base;
      fx = null;
      mod = null;
      after = used() - base;
      // Time: the quickest of three makes, and of three draws of each of the moments 0, 331, 662 ... ms.
      mod = loadModule(id);
      makeMs = 1e9;
      for (r = 0; r < 3; r++) {
        fx = null;
        start = getTime();
        fx = mod.make(${W}, ${H});
        start = (getTime() - start) * 1000;
        if (start < makeMs) makeMs = start;
      }
      for (k = 0; k < ${TIMED}; k++) best[k] = 1e9;
      for (r = 0; r < 3; r++) {
        for (k = 0; k < ${TIMED}; k++) {
          if (overlay) under(g);
          start = getTime();
          fx.draw(g, k * 331, ink);
          start = (getTime() - start) * 1000;
          if (start < best[k]) best[k] = start;
        }
      }
      best.sort();
      fx = null;
      mod = null;
      say("mem " + id + " " + loaded + " " + made + " " + drawing + " " + after + " " + mapCost);
      say("time " + id + " " + best[${TIMED >> 1}].toFixed(3) + " " + best[${TIMED - 1}].toFixed(3) + " " + makeMs.toFixed(2));
      } catch (e) {
        say("error " + id + " " + e);
        fx = null;
        mod = null;
      }
      ink = null;
    }
    say("done");
  `;
}

/** Rows of hex pixels of `mod` at `t` on the host, as the interpreter prints them. */
function hostPixels(mod: EffectModule, overlay: boolean, t: number, ink: (typeof INKS)[number]): string {
  const rows = drawAt(mod, t, { palette: ink.palette, blend: ink.blend, w: W, h: H, under: overlay ? under : undefined });
  return rows.map((row) => row.map((c) => c.toString(16).padStart(6, "0")).join("")).join("");
}

/** Where two dumps first differ, as x,y and both colours. */
function firstDifference(a: string, b: string): string {
  for (let p = 0; p < W * H; p++) {
    const ca = a.substr(6 * p, 6);
    const cb = b.substr(6 * p, 6);
    if (ca !== cb) return "first at " + (p % W) + "," + Math.floor(p / W) + ": interpreter " + ca + ", host " + cb;
  }
  return "";
}

if (!bin) {
  test.skip("effects and overlays in the real interpreter (set ESPRUINO=/path/to/espruino)", () => {});
} else {
  test("every effect and overlay: the host's pixels in the real interpreter, its memory given back, its frame times", async () => {
    const found = moduleIds();
    assert.ok(found.length > 0, "no effect or overlay modules");
    const files: { [name: string]: string } = {};
    // A module the build refuses is reported with the rest, and the others still run.
    const refused: string[] = [];
    const ids: string[] = [];
    for (const id of found) {
      try {
        files[moduleFile(id)] = await builtModule(id);
        ids.push(id);
      } catch (e) {
        refused.push(id + " does not build: " + String((e as Error).message).split("\n").slice(0, 2).join(" "));
      }
    }
    const lines = runInEspruino(bin, script(ids), files);
    const px: { [key: string]: string } = {};
    const mem: { [id: string]: number[] } = {};
    const time: { [id: string]: number[] } = {};
    const errors: string[] = [];
    for (const l of lines) {
      const at = l.indexOf(MARK);
      if (at < 0) continue;
      const w = l.slice(at + MARK.length).split(" ");
      if (w[0] === "px") px[w[1] + " " + w[2] + " " + w[3]] = w[4];
      else if (w[0] === "mem") mem[w[1]] = w.slice(2).map(Number);
      else if (w[0] === "time") time[w[1]] = w.slice(2).map(Number);
      else if (w[0] === "error") errors.push(w.slice(1).join(" "));
    }
    const tail = "\n" + lines.filter((l) => l.indexOf(MARK) < 0).slice(-15).join("\n");
    const restore = installEngineHost();
    const report: string[] = [];
    // Every module is checked before the test fails, so one run names every module over budget.
    const problems: string[] = refused.concat(errors.map((e) => "threw there: " + e));
    try {
      for (const id of ids) {
        const mod = loadModule<EffectModule>(id);
        const overlay = id.startsWith("overlays/");
        for (const ink of INKS) {
          for (const t of MOMENTS) {
            const key = id + " " + ink.name + " " + t;
            const host = hostPixels(mod, overlay, t, ink);
            if (!px[key]) problems.push(key + " was not drawn there");
            else if (px[key] !== host) problems.push(key + ": the interpreter's pixels differ from the host's, " + firstDifference(px[key], host));
          }
        }
        if (!mem[id] || !time[id]) {
          problems.push(id + " was not measured");
          continue;
        }
        const [loaded, made, drawing, after, mapCost] = mem[id];
        const [median, worst, makeMs] = time[id];
        report.push(id.padEnd(26) + " loaded " + String(loaded).padStart(3) + ", made " + String(made).padStart(3) + ", drawing " +
          String(drawing).padStart(3) + ", dropped " + after + " (ink map " + mapCost + "); ms median " + median.toFixed(3) + ", worst " +
          worst.toFixed(3) + "; make " + makeMs.toFixed(2) + " ms");
        if (made > MAX_VARIABLES || drawing > MAX_VARIABLES) problems.push(id + " holds " + made + " variables made, " + drawing + " drawing");
        if (after !== 0) problems.push(id + " leaves " + after + " variables once dropped");
        if (median > MAX_MEDIAN_MS) problems.push(id + ": median frame " + median + " ms");
        if (worst > MAX_FRAME_MS) problems.push(id + ": slowest frame " + worst + " ms");
        if (makeMs > MAX_MAKE_MS) problems.push(id + ": make takes " + makeMs + " ms");
      }
    } finally {
      restore();
      console.log("  variables over the page's ink, frame times on " + W + " x " + H + ":\n  " + report.join("\n  "));
    }
    assert.ok(problems.length === 0, problems.join("\n") + (lines.some((l) => l.indexOf(MARK + "done") >= 0) ? "" : tail));
  });
}

test.run();
