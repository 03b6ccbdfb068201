// Runs inside the interpreter (bundled by bench/effects.ts like the firmware): every background
// effect and weather overlay module named in IDS, loaded from Storage as the page loads it, made
// for a 32 x 8 page and drawn FRAMES times at effect times 0, 25, 50 ... ms with an ink of its
// stock colours graded once before (as the page grades it when the grading changes), then one
// combined scene: the slowest effect and the slowest overlay by median, the overlay over the
// effect and a scrolling line of text over both, one frame being all three.
//
// Prints per module "[fx] module <id> <median ms> <max ms> <slowest frame> <load ms> <make ms>
// <usage before> <loaded> <made> <drawing> <dropped>" (the last four as variables over `usage
// before`; made is loaded and made;
// drawing is the most seen after any frame), then "[fx] scene <effect> <overlay> <median ms> <max
// ms> <slowest frame> <usage before> <drawing> <dropped>", then "[fx] done".
import { chip } from "@board";
import type { EffectModule, Effect } from "../firmware/effects/types";
import { loadModule } from "../firmware/platform/modules";
import { PaletteInk } from "../firmware/palette/ink";
import { entriesFromStops, parseStops } from "../firmware/palette/compile";
import { FrameCanvas, Grade } from "../firmware/display/grade";
import { defaultSettings } from "../firmware/settings/schema";
import { defaultConfig } from "../firmware/system/schema";
import makeTextPage from "../firmware/apps/text-page.mod";
import { textKit } from "../firmware/apps/text-kit";
import type { FrameContext } from "../firmware/apps/types";
import type { LocalTime } from "../firmware/time/local";

/** Module ids ("effects/matrix"), effects first. */
declare const IDS: string[];
declare const FRAMES: number;

const MARK = "[fx] ";
const W = 32;
const H = 8;
/** Effect time between frames: 40 frames a second at effectSpeed 1. */
const STEP_MS = 25;
const TEXT = "Pixloop shows a loop of apps; this line is sixty-four chars long!";

const settings = defaultSettings();
const g = Graphics.createArrayBuffer(W, H, 24);
// Graded as on the clock (gamma, the panel's channel order), so that ink.rgb costs what it costs there.
const grade = new Grade();
grade.configure(settings, settings.brightness, defaultConfig(chip).panelColorOrder);
const canvas = new FrameCanvas(g, grade);

/** The page under an overlay: a background and a block of "text" (painted untimed). */
function page(): void {
  g.setColor(0x203040);
  g.fillRect(0, 0, W - 1, H - 1);
  g.setColor(0xffffff);
  g.fillRect(3, 2, 12, 5);
}

/** An ink of the module's stock colours, graded, its palette map made (the page's, not the module's). */
function inkOf(id: string): PaletteInk {
  const mod = loadModule<EffectModule>(id);
  const ink = new PaletteInk(entriesFromStops(parseStops(mod.stock) as number[][]), true, false);
  ink.grade(canvas);
  ink.map(0);
  return ink;
}

/**
 * Fills `times` (ms) with frames 0 .. FRAMES-1 drawn by `frame` (which returns the seconds it
 * took) at effect times STEP_MS apart. The frames are drawn in order PASSES times over and each
 * takes its quickest pass: what another process takes of the machine is not the frame's, and a
 * frame that brings something kept between frames up to date does so in every pass alike.
 */
function timeFrames(frame: (t: number) => number): void {
  for (let n = 0; n < FRAMES; n++) times[n] = 1e9;
  for (let pass = 0; pass < PASSES; pass++) {
    for (let n = 0; n < FRAMES; n++) {
      const ms = frame(n * STEP_MS) * 1000;
      if (ms < times[n]) times[n] = ms;
    }
  }
}

/** Median and max of `times`, and the index of the slowest: "<median> <max> <index>". */
function summary(times: Float64Array): string {
  let slowest = 0;
  for (let i = 1; i < times.length; i++) if (times[i] > times[slowest]) slowest = i;
  const sorted = ([] as number[]).slice.call(times).sort((a: number, b: number) => a - b);
  return sorted[times.length >> 1].toFixed(3) + " " + sorted[times.length - 1].toFixed(3) + " " + slowest;
}

/** Frames drawn in turn before a module is measured, at times far apart. */
const WARM_UP = 50;
/** Passes over the frames: each frame's time is its quickest pass. */
const PASSES = 3;

const times = new Float64Array(FRAMES);
/** Readings, made beforehand: a variable made between two readings would count as growth. */
const usage = new Int32Array(5);
const medians = new Float64Array(IDS.length);
let t0 = 0;
let i = 0;
let k = 0;
let u = 0;
let loadMs = 0.5;
let makeMs = 0.5;
let mod: EffectModule | null = null;
let fx: Effect | null = null;
let ink: PaletteInk | null = null;

for (k = 0; k < IDS.length; k++) {
  const overlay = IDS[k].indexOf("overlays/") === 0;
  ink = inkOf(IDS[k]);
  // A round before the measured one: the interpreter makes some built-in objects (a typed
  // array's constructor and prototype, say) the first time a program uses them and keeps them,
  // which would count against the first module to use them. It takes the same steps as the
  // measured round (readings of the time and memory too), and times loading and making as the
  // quickest of PASSES, as the frames are.
  loadMs = 1e9;
  makeMs = 1e9;
  for (i = 0; i < PASSES; i++) {
    t0 = getTime();
    mod = loadModule<EffectModule>(IDS[k]);
    t0 = (getTime() - t0) * 1000;
    if (t0 < loadMs) loadMs = t0;
    t0 = getTime();
    fx = mod.make(W, H);
    t0 = (getTime() - t0) * 1000;
    if (t0 < makeMs) makeMs = t0;
    u = process.memory(false).usage;
  }
  for (i = 0; i < WARM_UP; i++) {
    t0 = getTime();
    (fx as Effect).draw(g, i * 997, ink);
    u = process.memory(false).usage;
  }
  fx = null;
  mod = null;
  usage[0] = process.memory().usage;
  mod = loadModule<EffectModule>(IDS[k]);
  usage[4] = process.memory().usage;
  fx = mod.make(W, H);
  usage[1] = process.memory().usage;
  timeFrames((t) => {
    if (overlay) page();
    t0 = getTime();
    (fx as Effect).draw(g, t, ink as PaletteInk);
    return getTime() - t0;
  });
  // Memory over the same frames again, read after each without a collection (Espruino frees
  // what nothing holds at once; only cycles wait for one).
  usage[2] = 0;
  for (i = 0; i < FRAMES; i++) {
    fx.draw(g, i * STEP_MS, ink);
    u = process.memory(false).usage;
    if (u > usage[2]) usage[2] = u;
  }
  fx = null;
  mod = null;
  usage[3] = process.memory().usage;
  ink = null;
  medians[k] = +summary(times).split(" ")[0];
  print(MARK + "module " + IDS[k] + " " + summary(times) + " " + loadMs.toFixed(2) + " " + makeMs.toFixed(2) + " " + usage[0] + " " +
    (usage[4] - usage[0]) + " " + (usage[1] - usage[0]) + " " + (usage[2] - usage[0]) + " " + (usage[3] - usage[0]));
}

/** The slowest module of one kind ("effects/" or "overlays/") by median, or "" for none. */
function slowest(kind: string): string {
  let best = -1;
  for (let j = 0; j < IDS.length; j++) if (IDS[j].indexOf(kind) === 0 && (best < 0 || medians[j] > medians[best])) best = j;
  return best < 0 ? "" : IDS[best];
}

const effectId = slowest("effects/");
const overlayId = slowest("overlays/");
if (effectId) {
  const effectInk = inkOf(effectId);
  const overlayInk = overlayId ? inkOf(overlayId) : null;
  const text = makeTextPage(textKit(), "text", TEXT, "small", 0xffffff, true, { holdMs: 0 });
  const frame: FrameContext = { now: 0, shownMs: 0, local: null as unknown as LocalTime, settings: settings };
  let effect: Effect | null = null;
  let over: Effect | null = null;
  const scene = (t: number) => {
    (effect as Effect).draw(g, t, effectInk);
    if (over) over.draw(g, t, overlayInk as PaletteInk);
    frame.now = t;
    frame.shownMs = t;
    text.draw(canvas, frame);
  };
  // A round before the measured one, as for the modules, over all the frames: it also lays the
  // text out for the page's width, reads its font and takes the text through its whole scroll
  // (the text page stays, so what it keeps must be there before the first reading).
  effect = loadModule<EffectModule>(effectId).make(W, H);
  over = overlayId ? loadModule<EffectModule>(overlayId).make(W, H) : null;
  for (i = 0; i < FRAMES; i++) {
    t0 = getTime();
    scene(i * STEP_MS);
    u = process.memory(false).usage;
  }
  effect = null;
  over = null;
  usage[0] = process.memory().usage;
  effect = loadModule<EffectModule>(effectId).make(W, H);
  over = overlayId ? loadModule<EffectModule>(overlayId).make(W, H) : null;
  timeFrames((t) => {
    t0 = getTime();
    scene(t);
    return getTime() - t0;
  });
  usage[2] = 0;
  for (i = 0; i < FRAMES; i++) {
    scene(i * STEP_MS);
    u = process.memory(false).usage;
    if (u > usage[2]) usage[2] = u;
  }
  effect = null;
  over = null;
  usage[3] = process.memory().usage;
  print(MARK + "scene " + effectId + " " + (overlayId || "-") + " " + summary(times) + " " + usage[0] + " " + (usage[2] - usage[0]) + " " +
    (usage[3] - usage[0]));
}
print(MARK + "done");
