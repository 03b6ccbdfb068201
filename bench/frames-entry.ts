// Runs inside the interpreter (bundled by bench/frames.ts like the firmware): builds the display
// engine as the firmware does and times its frames, scene by scene, with a clock it controls.
// Prints one line per scene: "[frames] <name> <median ms> <max ms> <usage before> <usage after>
// <index of the slowest frame>". Transitions are timed held half-way ("transition-<name>"), and in
// changes of page one after another ("change-<name>": every frame, those that make the next
// transition ahead, set it up and land a change included; "first-<name>": the first frame of each
// change, which draws both pages).
import { chip } from "@board";
import { defaultConfig } from "../firmware/system/schema";
import { defaultSettings } from "../firmware/settings/schema";
import type { Settings } from "../firmware/settings/types";
import type { LoopApp } from "../firmware/apps/types";
import { AppLoop } from "../firmware/apps/loop";
import { stepLoop } from "../firmware/apps/moves";
import { builtinApps } from "../firmware/apps/builtin/index";
import { textKit } from "../firmware/apps/text-kit";
import type { Runtime } from "../firmware/device/runtime";
import makeTextPage from "../firmware/apps/text-page.mod";
import { DisplayEngine } from "../firmware/display/engine";
import { PanelOutput } from "../firmware/display/panel";
import { BrightnessControl } from "../firmware/display/brightness";
import { newIndicators } from "../firmware/display/indicators";
import { Moodlight } from "../firmware/display/moodlight";
import { LocalClock } from "../firmware/time/clock";
import { TRANSITIONS } from "../firmware/device/names";
import { findName } from "../firmware/core/text";
import { loadTransition } from "../firmware/display/transitions";
import { layoutText } from "../firmware/text/font";
import type { ScrollMode } from "../firmware/text/scroll-spec";
import { findText } from "../firmware/core/text";
import { PushedApp, payloadHost } from "../firmware/apps/payload-app";
import { checkPayloads } from "../firmware/payload/check";
import { makeLayer } from "../firmware/display/layer";

declare const FRAMES: number;
/** Only the scenes whose name contains this (all when empty). */
declare const ONLY: string;

const MARK = "[frames] ";
// 2026-11-22 11:58:30 local (10:58:30 UTC): the next minute change falls inside the measured frames.
const START_MS = 1795345110000;
const FRAME_MS = 25;
// Fonts read, text laid out, caches filled, the first fps window closed.
const WARM_UP = 200;
const TEXT_64 = "Pixloop shows a loop of apps; this line is sixty-four chars long!";

// The Linux build has no neopixel module; the stand-in (a global the bundle's require falls back
// to, see bench/frames.ts) takes the frame as the driver would.

let clockMs = START_MS;

interface Scene {
  name: string;
  apps: () => LoopApp[];
  tweak?: (s: Settings) => void;
  /** Index into TRANSITIONS: the frames are timed half-way through this transition. */
  transition?: number;
  /** A global overlay over the scene. */
  weather?: string;
}

/**
 * The app loop and the display engine of a scene, wired as the firmware wires them: the loop takes
 * the transition the engine made ahead, which plays the scene's.
 */
function display(scene: Scene, settings: Settings): { loop: AppLoop; engine: DisplayEngine } {
  const cfg = defaultConfig(chip);
  const made: { engine: DisplayEngine | null } = { engine: null };
  const layer = scene.weather ? makeLayer("overlays", scene.weather, null, true, 1, 32, 8) : null;
  const loop = new AppLoop(scene.apps(), () => settings, () => (made.engine as DisplayEngine).take(), () => false);
  const report = { fps: 0, brightness: 0, currentApp: "", matrixPower: true, lightRaw: -1 };
  made.engine = new DisplayEngine({
    panel: new PanelOutput(cfg),
    loop,
    indicators: newIndicators(),
    moodlight: new Moodlight(),
    clock: new LocalClock(() => clockMs),
    tz: () => cfg.tz,
    brightness: new BrightnessControl(() => cfg, () => settings),
    settings: () => settings,
    colorOrder: cfg.panelColorOrder,
    health: () => null,
    report,
    pick: () => scene.transition || 1,
    weather: () => layer,
  });
  return { loop, engine: made.engine };
}

/** Frames of a page, then of a change, in the change scenes: 500 ms each. */
const CYCLE_FRAMES = 20;

/** Espruino's global object, whose setTimeout every scene stands in for. */
declare const global: { setTimeout: (fn: () => void, ms?: number) => number };

/**
 * What the firmware queued with setTimeout to run after the frame in progress (the loop prepares
 * the next page so, the engine draws a change's snapshots so). The benchmark calls frame after
 * frame without returning to the event loop, so every scene runs the queue after each frame
 * itself, untimed, as the event loop would between frames.
 */
const afterFrame: (() => void)[] = [];

/** One frame at `now`, its time in ms, then what it queued (untimed). */
function frameAt(engine: DisplayEngine, now: number): number {
  const t0 = getTime();
  engine.tick(now);
  const ms = (getTime() - t0) * 1000;
  while (afterFrame.length) (afterFrame.shift() as () => void)();
  return ms;
}

function run(scene: Scene): void {
  const settings = defaultSettings();
  settings.transitionDurationMs = 1000;
  if (scene.tweak) scene.tweak(settings);
  const d = display(scene, settings);
  const loop = d.loop;
  const engine = d.engine;
  clockMs = START_MS;
  const moving = scene.transition === undefined;
  if (!moving) stepLoop(loop, 1, clockMs, false);
  const half = clockMs + 500;
  const times = new Float64Array(FRAMES);
  let i = 0;
  // Readings go into a typed array made beforehand: a variable made or changed in type between
  // two readings would itself count as growth.
  const usage = new Int32Array(3);
  let slowest = 0;
  // Warm-up: fonts read, text laid out, caches filled.
  for (i = 0; i < WARM_UP; i++) frameAt(engine, moving ? (clockMs += FRAME_MS) : half);
  for (i = 0; i < FRAMES; i++) times[i] = frameAt(engine, moving ? (clockMs += FRAME_MS) : half);
  // Memory: the same number of frames again, after the timed ones (whose bookkeeping is done).
  // Memory over the same number of frames again, once the timed ones have settled everything. The
  // first frames after a reading still settle what reading itself disturbed (one or two
  // variables, measured in steps of 100 frames), so the reading is taken after them.
  for (i = 0; i < 100; i++) frameAt(engine, moving ? (clockMs += FRAME_MS) : half);
  usage[0] = process.memory().usage;
  for (i = 0; i < FRAMES; i++) frameAt(engine, moving ? (clockMs += FRAME_MS) : half);
  usage[1] = process.memory().usage;
  for (i = 1; i < FRAMES; i++) if (times[i] > times[slowest]) slowest = i;
  const sorted = ([] as number[]).slice.call(times).sort((a: number, b: number) => a - b);
  print(MARK + scene.name + " " + sorted[FRAMES >> 1].toFixed(3) + " " + sorted[FRAMES - 1].toFixed(3) + " " + usage[0] + " " + usage[1] +
    " " + slowest);
}

/**
 * Changes of page one after another with the scene's transition, each started as a request
 * starts one (not timed; with autoTransition off the request also loads the next page and makes
 * its transition): the change's frames, then the new page's, every frame timed. Memory is read at
 * the start of a change, over as many changes as were timed.
 */
function changes(scene: Scene): void {
  const settings = defaultSettings();
  settings.autoTransition = false;
  settings.transitionDurationMs = CYCLE_FRAMES * FRAME_MS;
  const d = display(scene, settings);
  const loop = d.loop;
  const engine = d.engine;
  const cycles = Math.max(2, Math.floor(FRAMES / (2 * CYCLE_FRAMES)));
  const n = cycles * 2 * CYCLE_FRAMES;
  const times = new Float64Array(n);
  const firsts = new Float64Array(cycles);
  const usage = new Int32Array(2);
  let i = 0;
  let c = 0;
  let ms = 0;
  clockMs = START_MS;
  const cycle = (timed: boolean) => {
    stepLoop(loop, 1, clockMs, false);
    for (let f = 0; f < 2 * CYCLE_FRAMES; f++) {
      ms = frameAt(engine, clockMs);
      if (timed) times[i++] = ms;
      clockMs += FRAME_MS;
    }
  };
  // Warm-up: fonts read, pages laid out, the loader's first use.
  for (c = 0; c < 3; c++) cycle(false);
  for (c = 0; c < cycles; c++) {
    cycle(true);
    firsts[c] = times[i - 2 * CYCLE_FRAMES];
  }
  for (c = 0; c < 3; c++) cycle(false);
  usage[0] = process.memory().usage;
  // An even number of changes: the reading after is on the same page as the one before (only the
  // page on screen is loaded between changes, and the two pages differ).
  for (c = 0; c < cycles + (cycles % 2); c++) cycle(false);
  usage[1] = process.memory().usage;
  figures("change-" + scene.name, times, usage);
  figures("first-" + scene.name, firsts, usage);
}

/** Prints one scene's line from its frame times. */
function figures(name: string, times: Float64Array, usage: Int32Array): void {
  let slowest = 0;
  for (let i = 1; i < times.length; i++) if (times[i] > times[slowest]) slowest = i;
  const sorted = ([] as number[]).slice.call(times).sort((a: number, b: number) => a - b);
  print(MARK + name + " " + sorted[times.length >> 1].toFixed(3) + " " + sorted[times.length - 1].toFixed(3) + " " + usage[0] + " " +
    usage[1] + " " + slowest);
}

/** The built-in app `name` as the firmware makes it: its page comes from its module in Storage. */
function builtin(name: string): LoopApp {
  const apps = builtinApps({ runtime: { env: null, battery: null } as unknown as Runtime, config: () => defaultConfig(chip), text: textKit() });
  return apps.filter((a) => a.name === name)[0];
}

function textScene(mode: ScrollMode): Scene {
  return {
    name: "text-" + mode,
    apps: () => [makeTextPage(textKit(), "text", TEXT_64, "small", 0xffffff, true, { mode: mode, holdMs: 0 })],
  };
}

/** A pushed app made from `body` as PUT /api/v1/apps/pushed does it. */
function pushed(name: string, body: object): LoopApp {
  payloadHost.text = textKit();
  const checked = checkPayloads([body], false);
  if (!Array.isArray(checked)) throw new Error(name + " refused: " + checked.message);
  return new PushedApp(name, checked[0]);
}

/** A full-screen draw list of 300 commands: shapes, lines and pixels in many colours. */
function drawList(): unknown[] {
  const out: unknown[] = [["rectFill", 0, 0, 32, 8, "#101010"]];
  for (let i = 1; i < 300; i++) {
    const x = i % 32;
    const y = i % 8;
    const c = [(i * 37) & 255, (i * 91) & 255, (i * 53) & 255];
    const kind = i % 5;
    if (kind === 0) out.push(["line", x, 0, 31 - x, 7, c]);
    else if (kind === 1) out.push(["rect", x, y, 4, 3, c]);
    else if (kind === 2) out.push(["circle", x, 4, 2, c]);
    else if (kind === 3) out.push(["pixels", c, x, y, (x + 5) % 32, (y + 3) % 8]);
    else out.push(["pixel", x, y, c]);
  }
  return out;
}

const PAYLOAD_APPS: { [name: string]: () => LoopApp } = {
  "draw-300": () => pushed("draw-300", { draw: drawList() }),
  "chart-32": () => {
    const values: number[] = [];
    for (let i = 0; i < 32; i++) values.push((i * 7) % 11);
    return pushed("chart-32", { text: "LOAD", barChart: values, lineChart: values, chartColor: "#00FF88" });
  },
  "fragments-8": () => {
    const colors = ["#FF0000", "#FF8800", "#FFFF00", "#00FF00", "#00FFFF", "#0000FF", "#8800FF", "#FF00FF"];
    const text = colors.map((c, i) => ({ text: "Part" + i + " ", color: c }));
    return pushed("fragments-8", { text: text, scroll: { holdMs: 0 } });
  },
  // The heaviest layering a payload asks for: a field effect under scrolling text, an overlay over it.
  "plasma-storm-scroll": () => pushed("plasma-storm-scroll", { text: TEXT_64, effect: "Plasma", overlay: "storm", scroll: { holdMs: 0 } }),
  "pacifica-text": () => pushed("pacifica-text", { text: "21C", effect: "Pacifica" }),
  "palette-text-moving": () => pushed("palette-text-moving", { text: TEXT_64, palette: "Rainbow", textColor: "palette", paletteSpan: 16,
    paletteSpeed: 1, scroll: { holdMs: 0 } }),
};

const SCENES: Scene[] = [{ name: "empty-loop", apps: () => [] }];
for (let m = 0; m <= 6; m++) {
  const mode = m;
  SCENES.push({ name: "time-mode-" + mode, apps: () => [builtin("Time")], tweak: (s) => { s.timeMode = mode; } });
}
SCENES.push({ name: "date", apps: () => [builtin("Date")] });
SCENES.push({ name: "date-long", apps: () => [builtin("Date")], tweak: (s) => { s.dateShowWeekday = true; s.dateYearMode = "fourDigit"; } });
for (const w of ["rain", "thunder", "frost"]) SCENES.push({ name: "time-overlay-" + w, apps: () => [builtin("Time")], weather: w });
const MODES: ScrollMode[] = ["static", "wrap", "loop", "bounce"];
for (let k = 0; k < MODES.length; k++) SCENES.push(textScene(MODES[k]));
const CHANGES: Scene[] = [];
for (let e = 1; e < TRANSITIONS.length; e++) {
  const effect = e;
  SCENES.push({ name: "transition-" + TRANSITIONS[effect], apps: () => [builtin("Time"), builtin("Date")], transition: effect });
  CHANGES.push({ name: TRANSITIONS[effect], apps: () => [builtin("Time"), builtin("Date")], transition: effect });
}

// Pushed apps on screen, and changes of page to and from them with Fade (their first frame draws
// both pages, the pushed one's decorations included).
for (const name in PAYLOAD_APPS) {
  const make = PAYLOAD_APPS[name];
  SCENES.push({ name: "payload-" + name, apps: () => [make()] });
  CHANGES.push({ name: "payload-" + name, apps: () => [builtin("Time"), make()], transition: findName(TRANSITIONS, "Fade") });
}

/** Transition i made, set up, drawn once half-way and dropped. */
function useOnce(i: number, out: Graphics, from: GraphicsImage, to: GraphicsImage, scratch: ArrayBuffer): void {
  const made = loadTransition(i, 32, 8, scratch, { failed: 0 });
  if (!made) return;
  while (made.prepare && !made.prepare()) { /* all slices */ }
  made.draw(out, from, to, 0.5, false);
}

/**
 * What the fonts and the transitions hold once used. The font pages are strings read from
 * Storage, which the ESP32 maps onto flash (a variable each) and this build may copy: the fonts'
 * figure is at most what they take on the device. The transitions with tables (the dissolves and
 * Rain) are each made, set up, drawn and dropped: what stays is what the module loader keeps.
 * Prints "[frames] tables <fonts> <transitions>".
 */
function tables(): void {
  const out = Graphics.createArrayBuffer(32, 8, 24);
  const from: GraphicsImage = { width: 32, height: 8, bpp: 24, buffer: Graphics.createArrayBuffer(32, 8, 24).buffer };
  const to: GraphicsImage = { width: 32, height: 8, bpp: 24, buffer: Graphics.createArrayBuffer(32, 8, 24).buffer };
  const scratch = Graphics.createArrayBuffer(32, 8, 24).buffer;
  const dissolves = ["Pixelate", "Blocks", "Rain"];
  const usage = new Int32Array(3);
  let k = 0;
  usage[0] = process.memory().usage;
  // One character of each code page, in both fonts: every page is read.
  layoutText("A\xc5\x81\xd0\x96", "small", false);
  layoutText("A\xc5\x81\xd0\x96", "large", false);
  usage[1] = process.memory().usage;
  for (k = 0; k < dissolves.length; k++) useOnce(findName(TRANSITIONS, dissolves[k]), out, from, to, scratch);
  usage[2] = process.memory().usage;
  print(MARK + "tables " + (usage[1] - usage[0]) + " " + (usage[2] - usage[1]));
}

global.setTimeout = (fn: () => void) => {
  afterFrame.push(fn);
  return 0;
};
if (!ONLY || findText("tables", ONLY) >= 0) tables();
for (let k = 0; k < SCENES.length; k++) if (findText(SCENES[k].name, ONLY) >= 0) run(SCENES[k]);
for (let k = 0; k < CHANGES.length; k++) if (findText("change-" + CHANGES[k].name, ONLY) >= 0) changes(CHANGES[k]);
print(MARK + "done");
