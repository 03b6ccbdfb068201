// Runs inside the interpreter (bundled by bench/frames.ts like the firmware): builds the display
// engine as the firmware does and times its frames, scene by scene, with a clock it controls.
// Prints one line per scene: "[frames] <name> <median ms> <max ms> <usage before> <usage after>
// <index of the slowest frame>".
import board from "@board";
import { defaultConfig } from "../firmware/system/schema";
import { defaultSettings } from "../firmware/settings/schema";
import type { Settings } from "../firmware/settings/types";
import type { LoopApp } from "../firmware/apps/types";
import { AppLoop } from "../firmware/apps/loop";
import { TimeApp } from "../firmware/apps/builtin/time";
import { DateApp } from "../firmware/apps/builtin/date";
import { TextPage } from "../firmware/apps/text-page";
import { DisplayEngine } from "../firmware/display/engine";
import { PanelOutput } from "../firmware/display/panel";
import { BrightnessControl } from "../firmware/display/brightness";
import { Indicators } from "../firmware/display/indicators";
import { Moodlight } from "../firmware/display/moodlight";
import { LocalClock } from "../firmware/time/clock";
import { TRANSITIONS } from "../firmware/device/names";
import { findName } from "../firmware/core/text";
import { TRANSITION_DRAWS, endTransition } from "../firmware/display/transitions";
import { layoutText } from "../firmware/text/font";
import type { ScrollMode } from "../firmware/text/scroll-spec";
import { findText } from "../firmware/core/text";

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
}

function run(scene: Scene): void {
  const cfg = defaultConfig(board);
  const settings = defaultSettings();
  settings.transitionDurationMs = 1000;
  if (scene.tweak) scene.tweak(settings);
  const loop = new AppLoop(scene.apps(), () => settings, () => scene.transition || 1, () => false);
  const report = { fps: 0, brightness: 0, currentApp: "", matrixPower: true };
  const engine = new DisplayEngine({
    panel: new PanelOutput(cfg),
    loop,
    indicators: new Indicators(),
    moodlight: new Moodlight(),
    clock: new LocalClock(() => clockMs),
    tz: () => cfg.tz,
    brightness: new BrightnessControl(() => cfg, () => settings),
    settings: () => settings,
    colorOrder: cfg.panelColorOrder,
    health: () => null,
    lightRaw: () => -1,
    report,
  });
  clockMs = START_MS;
  const moving = scene.transition === undefined;
  if (!moving) loop.next(clockMs, false);
  const half = clockMs + 500;
  const times = new Float64Array(FRAMES);
  let i = 0;
  let now = 0;
  let t0 = 0;
  // Readings go into a typed array made beforehand: a variable made or changed in type between
  // two readings would itself count as growth.
  const usage = new Int32Array(3);
  let slowest = 0;
  // Warm-up: fonts read, text laid out, caches filled.
  for (i = 0; i < WARM_UP; i++) engine.tick(moving ? (clockMs += FRAME_MS) : half);
  for (i = 0; i < FRAMES; i++) {
    now = moving ? (clockMs += FRAME_MS) : half;
    t0 = getTime();
    engine.tick(now);
    times[i] = (getTime() - t0) * 1000;
  }
  // Memory: the same number of frames again, after the timed ones (whose bookkeeping is done).
  // Memory over the same number of frames again, once the timed ones have settled everything. The
  // first frames after a reading still settle what reading itself disturbed (one or two
  // variables, measured in steps of 100 frames), so the reading is taken after them.
  for (i = 0; i < 100; i++) engine.tick(moving ? (clockMs += FRAME_MS) : half);
  usage[0] = process.memory().usage;
  for (i = 0; i < FRAMES; i++) engine.tick(moving ? (clockMs += FRAME_MS) : half);
  usage[1] = process.memory().usage;
  for (i = 1; i < FRAMES; i++) if (times[i] > times[slowest]) slowest = i;
  const sorted = ([] as number[]).slice.call(times).sort((a: number, b: number) => a - b);
  print(MARK + scene.name + " " + sorted[FRAMES >> 1].toFixed(3) + " " + sorted[FRAMES - 1].toFixed(3) + " " + usage[0] + " " + usage[1] +
    " " + slowest);
}

function textScene(mode: ScrollMode): Scene {
  return {
    name: "text-" + mode,
    apps: () => [new TextPage("text", TEXT_64, "small", 0xffffff, true, { mode: mode, holdMs: 0 })],
  };
}

const SCENES: Scene[] = [{ name: "empty-loop", apps: () => [] }];
for (let m = 0; m <= 6; m++) {
  const mode = m;
  SCENES.push({ name: "time-mode-" + mode, apps: () => [new TimeApp()], tweak: (s) => { s.timeMode = mode; } });
}
SCENES.push({ name: "date", apps: () => [new DateApp()] });
SCENES.push({ name: "date-long", apps: () => [new DateApp()], tweak: (s) => { s.dateShowWeekday = true; s.dateYearMode = "fourDigit"; } });
const MODES: ScrollMode[] = ["static", "wrap", "loop", "bounce"];
for (let k = 0; k < MODES.length; k++) SCENES.push(textScene(MODES[k]));
for (let e = 1; e < TRANSITIONS.length; e++) {
  const effect = e;
  SCENES.push({ name: "transition-" + TRANSITIONS[effect], apps: () => [new TimeApp(), new DateApp()], transition: effect });
}

/**
 * What the fonts and the transitions' tables hold once used. The font pages are strings read from
 * Storage, which the ESP32 maps onto flash (a variable each) and this build may copy: the fonts'
 * figure is at most what they take on the device. Prints "[frames] tables <fonts> <transitions>".
 */
function tables(): void {
  const out = Graphics.createArrayBuffer(32, 8, 24);
  const from: GraphicsImage = { width: 32, height: 8, bpp: 24, buffer: Graphics.createArrayBuffer(32, 8, 24).buffer };
  const to: GraphicsImage = { width: 32, height: 8, bpp: 24, buffer: Graphics.createArrayBuffer(32, 8, 24).buffer };
  const dissolves = ["Pixelate", "Blocks", "Rain"];
  const usage = new Int32Array(3);
  let k = 0;
  usage[0] = process.memory().usage;
  // One character of each code page, in both fonts: every page is read.
  layoutText("A\xc5\x81\xd0\x96", "small", false);
  layoutText("A\xc5\x81\xd0\x96", "large", false);
  usage[1] = process.memory().usage;
  for (k = 0; k < dissolves.length; k++) TRANSITION_DRAWS[findName(TRANSITIONS, dissolves[k])](out, from, to, 0.5, false);
  endTransition();
  usage[2] = process.memory().usage;
  print(MARK + "tables " + (usage[1] - usage[0]) + " " + (usage[2] - usage[1]));
}

if (!ONLY || findText("tables", ONLY) >= 0) tables();
for (let k = 0; k < SCENES.length; k++) if (findText(SCENES[k].name, ONLY) >= 0) run(SCENES[k]);
print(MARK + "done");
