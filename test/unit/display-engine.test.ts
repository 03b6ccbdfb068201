// The render loop with a controlled clock: cached still parts give the same frame as a full
// draw, transitions start from the page on screen and end on the next one, the screen capture is
// ungraded, the dots and the mood light, the measured frame rate; a transition's module is loaded
// between changes of page, once the next page is ready (the last LEAD_MS before its change), and
// dropped after its change, and one that fails plays as a cut.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { installGraphics } from "../harness/graphics";
import { frameOf, renderApp, localTime, type Frame } from "../harness/frame-fixture";
import { fontFiles, serveStorage, storageOf } from "./text-support";
import { dimTables } from "../../build/tables.mjs";
import { DisplayEngine, type EngineParts } from "../../firmware/display/engine";
import { AppLoop, LEAD_MS } from "../../firmware/apps/loop";
import { DateApp, TimeApp } from "./apps-support";
import { newIndicators } from "../../firmware/display/indicators";
import { Moodlight } from "../../firmware/display/moodlight";
import { LocalClock } from "../../firmware/time/clock";
import { defaultSettings } from "../../firmware/settings/schema";
import type { Settings } from "../../firmware/settings/types";
import type { LinkHealth } from "../../firmware/display/status-dots";
import type { LoopApp, Page } from "../../firmware/apps/types";
import type { Canvas } from "../../firmware/display/canvas";
import { builtinApp } from "./apps-support";
import { TRANSITIONS } from "../../firmware/device/names";
import { pickTransition, type MakeTransition, type Transition } from "../../firmware/display/transitions";
import { makeLayer, type Layer } from "../../firmware/display/layer";
import { checkPayloads } from "../../firmware/payload/check";
import type { StoredPayload } from "../../firmware/payload/stored";
import { PushedApp, payloadHost } from "../../firmware/apps/payload-app";
import { textKit } from "../../firmware/apps/text-kit";
import { ungradedCanvas } from "../harness/frame-fixture";
import { stepLoop } from "../../firmware/apps/moves";
import regrade from "../../firmware/display/regrade.mod";
import { screenJson } from "../../firmware/display/capture";

installGraphics();
const g = globalThis as unknown as { E?: object };
g.E = Object.assign({}, g.E, {
  mapInPlace: (from: Uint8Array, to: Uint8Array, map: Uint8Array) => {
    for (let i = 0; i < from.length; i++) to[i] = map[from[i]];
  },
  toArrayBuffer: (s: string) => Uint8Array.from(Buffer.from(s, "latin1")).buffer,
  toString: (x: unknown) => (x instanceof Uint8Array ? Buffer.from(x.buffer, x.byteOffset, x.length).toString("latin1") : String(x)),
});
// Served while this suite runs only: the suites share one process.
let restore = () => {};
test.before(() => {
  restore = serveStorage(storageOf(Object.assign({ "dim.lut": dimTables().toString("latin1") }, fontFiles())));
});

// 2026-03-10 09:05:07.250 in Berlin (CET, UTC+1).
const T0 = Date.UTC(2026, 2, 10, 8, 5, 7, 250);
const TZ = "CET-1CEST,M3.5.0,M10.5.0/3";

interface Rig {
  engine: DisplayEngine;
  loop: AppLoop;
  settings: Settings;
  pushed: Frame[];
  blanks: number;
  health: LinkHealth | null;
  moodlight: Moodlight;
  report: { fps: number; brightness: number; currentApp: string; matrixPower: boolean; lightRaw: number };
  clock: { ms: number };
  weather: Layer | null;
}

/** An engine over `apps` whose grading changes nothing (gamma 1, full brightness, RGB order). */
function rig(apps: LoopApp[], tweak?: (s: Settings) => void, effect = "Slide"): Rig {
  const settings = defaultSettings();
  settings.gamma = 1;
  settings.brightness = 255;
  settings.autoTransition = false;
  if (tweak) tweak(settings);
  const clock = { ms: T0 };
  const r = { pushed: [] as Frame[], blanks: 0, health: null as LinkHealth | null } as Rig;
  r.settings = settings;
  r.clock = clock;
  r.moodlight = new Moodlight();
  r.report = { fps: 0, brightness: 0, currentApp: "", matrixPower: true, lightRaw: -1 };
  settings.transitionEffect = effect;
  // As the firmware wires them: the loop takes the transition the engine made ahead, which the
  // engine picks from the settings.
  let seed = 1;
  r.loop = new AppLoop(apps, () => settings, () => r.engine.take(), () => false);
  // The chain's bytes lent out between pushes: junk whenever a frame starts, as after a push.
  const scratch = new ArrayBuffer(32 * 8 * 3);
  const panel = {
    width: 32,
    scratch,
    push: (frame: Graphics) => {
      r.pushed.push(frameOf(frame));
      new Uint8Array(scratch).fill(0xa5);
    },
    blank: () => { r.blanks++; },
  };
  const parts: EngineParts = {
    panel: panel as unknown as EngineParts["panel"],
    loop: r.loop,
    indicators: newIndicators(),
    moodlight: r.moodlight,
    clock: new LocalClock(() => clock.ms),
    tz: () => TZ,
    brightness: { update: () => settings.brightness } as unknown as EngineParts["brightness"],
    settings: () => settings,
    colorOrder: "rgb",
    health: () => r.health,
    report: r.report,
    pick: () => pickTransition(settings.transitionEffect, seed++),
    weather: () => r.weather,
  };
  r.weather = null;
  r.engine = new DisplayEngine(parts);
  return r;
}

/** The app drawn whole, without any cache, at the rig's clock. */
function fullDraw(app: Page, r: Rig, shownMs: number): Frame {
  const ms = r.clock.ms + 3600000;
  const d = new Date(ms);
  const local = localTime(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(),
    d.getUTCSeconds(), d.getUTCMilliseconds());
  return renderApp(app, { local, settings: r.settings, now: r.clock.ms, shownMs });
}

/** `f` with overlay `name` drawn over it at `ms` (its stock colours, speed 1). */
function overlaid(f: Frame, name: string, ms: number): Frame {
  const g = Graphics.createArrayBuffer(32, 8, 24) as unknown as Graphics;
  for (let i = 0; i < 256; i++) g.setPixel(i % 32, i >> 5, f.pixels[i]);
  (makeLayer("overlays", name, null, true, 1, 32, 8) as Layer).draw(ungradedCanvas(g), ms);
  return frameOf(g);
}

function last(r: Rig): Frame {
  return r.pushed[r.pushed.length - 1];
}

function screen(r: Rig): Frame {
  const s = JSON.parse(screenJson(r.engine, r.clock.ms));
  return { width: s.width, height: s.height, pixels: s.pixels };
}

test("a page drawn from its cached still part equals the page drawn whole, frame after frame", () => {
  for (const mode of [0, 1, 3, 5, 6]) {
    const r = rig([builtinApp("Time")], (s) => { s.timeMode = mode; });
    for (let k = 0; k < 50; k++) {
      r.engine.tick(r.clock.ms);
      assert.equal(last(r), fullDraw(new TimeApp(), r, r.loop.shownMs(r.clock.ms)), "mode " + mode + " frame " + k);
      r.clock.ms += 137;
    }
  }
});

test("a settings change is seen at once, even by a cached page", () => {
  const r = rig([builtinApp("Time")], (s) => { s.timeMode = 1; });
  r.engine.tick(r.clock.ms);
  const before = last(r);
  r.settings.calendarHeaderColor = 0x00ff00;
  regrade(r.engine);
  r.engine.tick(r.clock.ms);
  assert.is.not(last(r).pixels.join(), before.pixels.join());
  assert.equal(last(r), fullDraw(new TimeApp(), r, 0));
});

test("a transition starts on the page on screen and lands on the next one, timed by the clock", async () => {
  const timeApp = builtinApp("Time");
  const dateApp = builtinApp("Date");
  const timeDraws = drawsOf(timeApp);
  const dateDraws = drawsOf(dateApp);
  const r = rig([timeApp, dateApp], (s) => { s.transitionDurationMs = 1000; });
  r.engine.tick(r.clock.ms);
  await between();
  // A frame of Time alone, its still part cached: what it draws, and what it shows.
  let n = timeDraws.n;
  r.engine.tick(r.clock.ms);
  const alone = timeDraws.n - n;
  const time = last(r);
  await between();
  stepLoop(r.loop, 1, r.clock.ms, false);
  // The first frame of the change: the old page as a frame of it alone draws it, and no other page.
  n = timeDraws.n;
  dateDraws.n = 0;
  r.engine.tick(r.clock.ms);
  assert.equal(last(r), time, "t = 0 shows the old page");
  assert.is(timeDraws.n - n, alone, "the old page drawn in the first frame as in a frame of it alone");
  assert.is(dateDraws.n, 0, "the new page drawn in the first frame");
  // Both snapshots are drawn after that frame, and the frames after it only compose them.
  await between();
  assert.ok(dateDraws.n > 0, "the new page's snapshot drawn after the first frame");
  const snapped = timeDraws.n + dateDraws.n;
  r.clock.ms += 500;
  r.engine.tick(r.clock.ms);
  const half = last(r);
  // Slide half-way: on every row, the old page's right half on the left, then the new page's left half.
  const date = fullDraw(new DateApp(), r, 0);
  for (let y = 0; y < 8; y++) {
    assert.equal(half.pixels.slice(y * 32, y * 32 + 16), time.pixels.slice(y * 32 + 16, y * 32 + 32), "row " + y + ": the old page");
    assert.equal(half.pixels.slice(y * 32 + 16, y * 32 + 32), date.pixels.slice(y * 32, y * 32 + 16), "row " + y + ": the new page");
  }
  assert.is(timeDraws.n + dateDraws.n, snapped, "a page drawn in a frame of the change");
  await between();
  r.clock.ms += 500;
  r.engine.tick(r.clock.ms);
  assert.is(r.report.currentApp, "Date");
  assert.equal(last(r), fullDraw(new DateApp(), r, 0));
});

test("every transition runs start to end without leaving the frame on a stale page", () => {
  for (let e = 1; e < TRANSITIONS.length; e++) {
    const r = rig([builtinApp("Time"), builtinApp("Date")], (s) => { s.transitionDurationMs = 400; }, TRANSITIONS[e]);
    r.engine.tick(r.clock.ms);
    stepLoop(r.loop, 1, r.clock.ms, false);
    for (let k = 0; k <= 20; k++) {
      r.engine.tick(r.clock.ms);
      r.clock.ms += 25;
    }
    assert.equal(last(r), fullDraw(new DateApp(), r, r.loop.shownMs(r.clock.ms - 25)), TRANSITIONS[e]);
  }
});

test("the screen capture is the logical picture, whatever the grading", () => {
  const r = rig([builtinApp("Time")], (s) => { s.timeMode = 1; s.brightness = 10; s.gamma = 2.2; s.saturation = 40; });
  r.engine.tick(r.clock.ms);
  const leds = last(r);
  const logical = screen(r);
  assert.equal(logical, fullDraw(new TimeApp(), r, 0));
  assert.is.not(leds.pixels.join(), logical.pixels.join());
  // The capture leaves no trace: the next frame is graded as before.
  r.engine.tick(r.clock.ms);
  assert.equal(last(r), leds);
});

test("connection dots: red top left without Wi-Fi, yellow bottom left without the broker, pulsing", () => {
  const r = rig([]);
  r.health = { wifiUp: false, brokerDown: true };
  r.engine.tick(r.clock.ms);
  const red = last(r).pixels[0];
  assert.ok(red > 0 && (red & 0xffff) === 0, "red " + red.toString(16));
  assert.is(last(r).pixels[7 * 32], 0, "only one dot at a time");
  r.health = { wifiUp: true, brokerDown: true };
  r.engine.tick(r.clock.ms);
  const yellow = last(r).pixels[7 * 32];
  assert.ok(yellow >> 16 > 0 && ((yellow >> 8) & 255) === yellow >> 16 && (yellow & 255) === 0, "yellow " + yellow.toString(16));
  r.clock.ms += 1000;
  r.engine.tick(r.clock.ms);
  assert.is.not(last(r).pixels[7 * 32], yellow, "it pulses");
  r.health = { wifiUp: true, brokerDown: false };
  r.engine.tick(r.clock.ms);
  assert.ok(last(r).pixels.every((p) => p === 0));
  r.health = null;
  r.engine.tick(r.clock.ms);
  assert.ok(last(r).pixels.every((p) => p === 0), "no dots on the setup screen");
});

test("the mood light replaces everything; power off blanks once and pushes nothing", () => {
  const r = rig([builtinApp("Time")]);
  r.health = { wifiUp: false, brokerDown: false };
  Object.assign(r.moodlight, { on: true, color: 0x112233, brightness: 77 });
  r.engine.tick(r.clock.ms);
  // At its own brightness on the LEDs, dots and page gone; its colour in the capture.
  const lit = last(r).pixels[0];
  assert.ok(lit !== 0 && lit !== 0x112233 && last(r).pixels.every((p) => p === lit), lit.toString(16));
  assert.ok(screen(r).pixels.every((p) => p === 0x112233));
  assert.is(r.report.brightness, 77);
  r.moodlight.on = false;
  r.report.matrixPower = false;
  const pushed = r.pushed.length;
  r.engine.tick(r.clock.ms);
  r.engine.tick(r.clock.ms + 25);
  assert.is(r.blanks, 1);
  assert.is(r.pushed.length, pushed);
});

test("fps is the rate frames came at, measured by the clock", () => {
  const r = rig([]);

  for (let k = 0; k < 90; k++) {
    r.clock.ms += 25;
    r.engine.tick(r.clock.ms);
  }
  assert.is(r.report.fps, 40);
  for (let k = 0; k < 60; k++) {
    r.clock.ms += 50;
    r.engine.tick(r.clock.ms);
  }
  assert.is(r.report.fps, 20);
});

// ---- transitions: made ahead, dropped after ---------------------------------------------------------

/** Every module id loaded until stop(); the ids in `missing` are missing, those in `swapped` others. */
function watchModules(missing: string[] = [], swapped: { [id: string]: unknown } = {}): { ids: string[]; stop: () => void } {
  const g = globalThis as unknown as { PIXLOOP_HOST_MODULES: (id: string) => unknown };
  const host = g.PIXLOOP_HOST_MODULES;
  const ids: string[] = [];
  g.PIXLOOP_HOST_MODULES = (id: string) => {
    ids.push(id);
    if (missing.indexOf(id) >= 0) throw new Error("module " + id + " is missing");
    return id in swapped ? swapped[id] : host(id);
  };
  return { ids, stop: () => { g.PIXLOOP_HOST_MODULES = host; } };
}

const transitionIds = (ids: string[]) => ids.filter((id) => id.startsWith("display/trans/"));
/** All but the loop's preparation, which runs after a frame that landed a change (apps/prepare.ts). */
const framesLoaded = (ids: string[]) => ids.filter((id) => id !== "apps/prepare");

/** What the engine holds of transitions: none without what a change needs (engine.change). */
function held(r: Rig): { next: Transition | null; running: Transition | null } {
  return r.engine.change || { next: null, running: null };
}

/** Frames every 25 ms for `ms`, from the rig's clock on. */
function frames(r: Rig, ms: number): void {
  for (let k = 0; k < ms / 25; k++) {
    r.engine.tick(r.clock.ms);
    r.clock.ms += 25;
  }
}

/** The event loop between frames: what a frame queued (the loop's preparation, a predraw) runs. */
const between = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Frames every 25 ms for `ms`, from the rig's clock on, each followed by what it queued, as the render loop runs them. */
async function liveFrames(r: Rig, ms: number): Promise<void> {
  for (let k = 0; k < ms / 25; k++) {
    r.engine.tick(r.clock.ms);
    r.clock.ms += 25;
    await between();
  }
}

/** As liveFrames, until `done` holds after a frame; how many frames that took. */
async function liveFramesUntil(r: Rig, done: () => boolean): Promise<number> {
  let n = 0;
  while (!done()) {
    assert.ok(n < 1000, "never came");
    await liveFrames(r, 25);
    n++;
  }
  return n;
}

/** Counts the calls of `app`'s drawing methods (draw, drawStill, drawMoving), whoever makes them. */
function drawsOf(app: LoopApp): { n: number } {
  const count = { n: 0 };
  const a = app as unknown as { [m: string]: (...x: unknown[]) => unknown };
  for (const m of ["draw", "drawStill", "drawMoving"]) {
    const f = a[m];
    if (f) a[m] = function (this: unknown, ...x: unknown[]) { count.n++; return f.apply(this, x); };
  }
  return count;
}

/** Rotating by itself: pages of `appMs` (longer than LEAD_MS, so that each stands alone a while), changes of 400 ms. */
function rotating(s: Settings, appMs = 2000): void {
  s.autoTransition = true;
  s.appDurationMs = appMs;
  s.transitionDurationMs = 400;
}

/** The page on screen stands alone: no next page and no next transition in memory. */
function assertAlone(r: Rig, ids: string[], what: string): void {
  assert.is(r.loop.upcoming(), null, what + ": no next page");
  assert.is(held(r).next, null, what + ": no next transition");
  assert.equal(transitionIds(ids), [], what + ": no transition loaded");
}

test("the next transition is made between changes, in the last LEAD_MS before its change, none in a change's frames, and dropped when the change lands", async () => {
  const watch = watchModules();
  try {
    const r = rig([builtinApp("Time"), builtinApp("Date")], rotating, "Rain");
    // More than LEAD_MS before the change, the page stands alone: nothing is made.
    await liveFrames(r, 2000 - LEAD_MS);
    assertAlone(r, watch.ids, "Time alone");
    // The frame after the next page is ready chooses the transition and makes it; the next ones set it up, a slice each.
    await liveFramesUntil(r, () => r.loop.upcoming() !== null);
    assert.equal(transitionIds(watch.ids), []);
    await liveFrames(r, 25);
    assert.equal(transitionIds(watch.ids), ["display/trans/rain"]);
    const rain = held(r).next!;
    assert.ok(rain && rain.prepare, "Rain made, its set-up to come");
    await liveFrames(r, 500);
    assert.is(rain.prepare!(), true, "set up before the change");
    // A change takes what was made; no frame of it loads or makes anything.
    watch.ids.length = 0;
    stepLoop(r.loop, 1, r.clock.ms, false);
    assert.is(held(r).running, rain);
    assert.is(held(r).next, null);
    await liveFrames(r, 400);
    assert.ok(r.loop.incoming(), "the last frame of the change is still to come");
    assert.equal(watch.ids, [], "loaded during the change");
    // The frame that lands it drops it; the page that came stands alone until its change is LEAD_MS
    // away, then the next is made: a fading one.
    r.settings.transitionEffect = "Fade";
    await liveFrames(r, 25);
    assert.is(r.loop.incoming(), null);
    assert.is(held(r).running, null);
    assert.equal(framesLoaded(watch.ids), [], "loaded in the frame that landed the change");
    await liveFrames(r, 2000 - LEAD_MS - 50);
    assertAlone(r, watch.ids, "Date alone");
    await liveFramesUntil(r, () => r.loop.upcoming() !== null);
    await liveFrames(r, 25);
    assert.equal(transitionIds(watch.ids), ["display/trans/fade"]);
    const fade = held(r).next;
    assert.ok(fade && fade !== rain, "Fade made next");
    // Fade plays (the loop starts it as Date's time is up), lands, and is dropped;
    // Slide is made only for the change after, LEAD_MS before it.
    watch.ids.length = 0;
    r.settings.transitionEffect = "Slide";
    await liveFramesUntil(r, () => r.loop.incoming() !== null);
    assert.is(held(r).running, fade, "Fade plays");
    await liveFramesUntil(r, () => r.loop.incoming() === null);
    assert.equal(framesLoaded(watch.ids), []);
    // The frame that lands the change shows the change's last picture; the page is live from the next.
    r.engine.tick(r.clock.ms);
    assert.equal(last(r), fullDraw(new TimeApp(), r, r.loop.shownMs(r.clock.ms)), "back on the first page");
    r.clock.ms += 25;
    await between();
    assert.is(held(r).running, null);
    assertAlone(r, watch.ids, "Time alone again");
    await liveFramesUntil(r, () => held(r).next !== null);
    assert.equal(transitionIds(watch.ids), ["display/trans/slide"]);
    assert.ok(r.loop.shownMs(r.clock.ms) + LEAD_MS >= 2000, "made within the last LEAD_MS");
  } finally {
    watch.stop();
  }
});

test("the second slot and what a change needs are held from the last LEAD_MS before a change until it has landed, not while a page stands alone", async () => {
  const watch = watchModules();
  try {
    const r = rig([builtinApp("Time"), builtinApp("Date")], rotating, "Slide");
    const alone = (what: string) => {
      assert.is(r.engine.slotG.length, 1, what + ": one page slot");
      assert.is(r.engine.change, null, what + ": nothing of a change");
    };
    await liveFrames(r, 2000 - LEAD_MS);
    alone("Time alone");
    assert.ok(!watch.ids.includes("display/change"), "loaded while Time stands alone");
    // Made after the frame that finds the next page ready, not in it.
    await liveFramesUntil(r, () => r.loop.upcoming() !== null);
    r.engine.tick(r.clock.ms);
    alone("in the frame that finds the next page");
    r.clock.ms += 25;
    await between();
    assert.is(r.engine.slotG.length, 2, "two slots in the last LEAD_MS");
    assert.ok(r.engine.change, "what a change needs, made ahead");
    await liveFramesUntil(r, () => r.loop.incoming() !== null);
    const made = r.engine.change;
    const slot = r.engine.slotG[1];
    // Through the change, the same ones; a capture half-way shows the change.
    await liveFrames(r, 200);
    assert.ok(r.loop.incoming(), "changing");
    assert.is(r.engine.change, made);
    assert.is(r.engine.slotG[1], slot);
    const half = screen(r);
    assert.ok(half.pixels.some((p, i) => p !== fullDraw(new DateApp(), r, 0).pixels[i]), "the capture is not the new page alone");
    await liveFramesUntil(r, () => r.loop.incoming() === null);
    // The frame that landed it still shows its snapshot; the next one gives both back.
    await liveFrames(r, 25);
    alone("Date alone");
    r.engine.tick(r.clock.ms);
    assert.equal(last(r), fullDraw(new DateApp(), r, r.loop.shownMs(r.clock.ms)), "Date live from its own slot");
    // A capture of a page alone makes no second slot.
    screen(r);
    alone("after a capture");
  } finally {
    watch.stop();
  }
});

test("a change a request starts makes the second slot in the request, and gives it back after", async () => {
  const r = rig([builtinApp("Time"), builtinApp("Date")], (s) => { s.transitionDurationMs = 400; }, "Fade");
  await liveFrames(r, 100);
  assert.is(r.engine.slotG.length, 1);
  stepLoop(r.loop, 1, r.clock.ms, false);
  assert.is(r.engine.slotG.length, 2, "made in the request");
  assert.ok(r.engine.change && r.engine.change.running, "the transition taken");
  await liveFrames(r, 425);
  assert.is(r.loop.incoming(), null, "landed");
  await liveFrames(r, 25);
  assert.is(r.engine.slotG.length, 1, "given back");
  assert.is(r.engine.change, null);
  // And again for the next change, which plays as the first did.
  stepLoop(r.loop, 1, r.clock.ms, false);
  assert.is(r.engine.slotG.length, 2);
  await liveFrames(r, 450);
  assert.is(r.engine.slotG.length, 1);
  r.engine.tick(r.clock.ms);
  assert.equal(last(r), fullDraw(new TimeApp(), r, r.loop.shownMs(r.clock.ms)), "Time live from its own slot");
});

test("a change the loop starts by itself, in a frame, plays the transition made ahead", async () => {
  const watch = watchModules();
  try {
    const r = rig([builtinApp("Time"), builtinApp("Date")], rotating, "Pixelate");
    await liveFrames(r, 2000 - LEAD_MS);
    assertAlone(r, watch.ids, "more than LEAD_MS before the change");
    await liveFrames(r, LEAD_MS - 25);
    assert.is(r.loop.incoming(), null, "not yet changing");
    const made = held(r).next;
    assert.equal(transitionIds(watch.ids), ["display/trans/pixelate"]);
    assert.is(made!.prepare!(), true, "set up in the frames before the change");
    watch.ids.length = 0;
    await liveFrames(r, 400);
    assert.ok(r.loop.incoming(), "changing");
    assert.is(held(r).running, made);
    assert.equal(watch.ids, [], "loaded during the change");
  } finally {
    watch.stop();
  }
});

test("a change that follows another at once has its transition made in the request that asks for it", () => {
  const watch = watchModules();
  try {
    const r = rig([builtinApp("Time"), builtinApp("Date")], (s) => { s.transitionDurationMs = 400; }, "Pixelate");
    frames(r, 500);
    stepLoop(r.loop, 1, r.clock.ms, false);
    frames(r, 100);
    watch.ids.length = 0;
    // A second step lands the first change and starts another: its transition is made here.
    stepLoop(r.loop, 1, r.clock.ms, false);
    assert.equal(transitionIds(watch.ids), ["display/trans/pixelate"]);
    assert.is(held(r).running!.prepare!(), true, "set up before its first frame");
    watch.ids.length = 0;
    frames(r, 400);
    assert.equal(watch.ids, [], "loaded during the change");
  } finally {
    watch.stop();
  }
});

test("a settings change makes the transition it asks for, for the next change", async () => {
  const watch = watchModules();
  try {
    const r = rig([builtinApp("Time"), builtinApp("Date")], rotating, "Slide");
    // While the page stands alone, a change of settings makes nothing: the transition it asks for
    // is made once the next page is ready.
    await liveFrames(r, 500);
    r.settings.transitionEffect = "Fade";
    regrade(r.engine);
    assertAlone(r, watch.ids, "alone");
    await liveFramesUntil(r, () => held(r).next !== null);
    const fade = held(r).next;
    assert.equal(transitionIds(watch.ids), ["display/trans/fade"]);
    r.settings.transitionEffect = "Blink";
    regrade(r.engine);
    assert.equal(transitionIds(watch.ids), ["display/trans/fade", "display/trans/blink"]);
    assert.ok(held(r).next !== fade);
    stepLoop(r.loop, 1, r.clock.ms, false);
    assert.is(TRANSITIONS[r.loop.effect], "Blink");
    // Another change of settings that leaves the pick as it was keeps what was made.
    await liveFramesUntil(r, () => r.loop.incoming() === null);
    await liveFramesUntil(r, () => held(r).next !== null);
    const blink = held(r).next;
    r.settings.brightness = 200;
    regrade(r.engine);
    assert.is(held(r).next, blink);
  } finally {
    watch.stop();
  }
});

test("a transition whose module is missing plays as a cut, reported once, and the loop goes on", async () => {
  const watch = watchModules(["display/trans/slide"]);
  const g = globalThis as unknown as { print?: (...a: unknown[]) => void };
  const print = g.print;
  const printed: string[] = [];
  g.print = (...a: unknown[]) => { printed.push(a.join(" ")); };
  try {
    const r = rig([builtinApp("Time"), builtinApp("Date")], (s) => { s.transitionDurationMs = 400; }, "Slide");
    for (const [from, to] of [[TimeApp, DateApp], [DateApp, TimeApp]]) {
      await liveFrames(r, 50);
      stepLoop(r.loop, 1, r.clock.ms, false);
      const old = fullDraw(new from(), r, r.loop.shownMs(r.clock.ms));
      await liveFrames(r, 200);
      // Half-way: still the old page as it was when the change started, then the new one.
      assert.equal(last(r), old, "the old page until the change lands");
      await liveFrames(r, 200);
      r.engine.tick(r.clock.ms);
      assert.is(r.loop.incoming(), null);
      // Landed: the new page as the change drew it, then live.
      await between();
      r.clock.ms += 25;
      r.engine.tick(r.clock.ms);
      assert.equal(last(r), fullDraw(new to(), r, 0));
    }
    assert.is(printed.length, 1, printed.join("\n"));
    assert.match(printed[0], "transition Slide plays as a cut: ");
  } finally {
    g.print = print;
    watch.stop();
  }
});

test("a transition that throws as it draws, or as it is made, plays as a cut", async () => {
  const failing: MakeTransition = () => ({ draw: () => { throw new Error("no frame"); } });
  const g = globalThis as unknown as { print?: (...a: unknown[]) => void };
  const print = g.print;
  const printed: string[] = [];
  g.print = (...a: unknown[]) => { printed.push(a.join(" ")); };
  const watch = watchModules([], {
    "display/trans/blink": failing,
    "display/trans/zoom": () => { throw new Error("cannot make"); },
  });
  try {
    for (const effect of ["Blink", "Zoom"]) {
      const r = rig([builtinApp("Time"), builtinApp("Date")], (s) => { s.transitionDurationMs = 400; }, effect);
      await liveFrames(r, 50);
      stepLoop(r.loop, 1, r.clock.ms, false);
      const old = fullDraw(new TimeApp(), r, r.loop.shownMs(r.clock.ms));
      await liveFrames(r, 200);
      assert.equal(last(r), old, effect + ": the old page until the change lands");
      await liveFrames(r, 200);
      r.engine.tick(r.clock.ms);
      assert.equal(last(r), fullDraw(new DateApp(), r, 0), effect);
    }
    assert.is(printed.length, 2, printed.join("\n"));
    assert.match(printed[0], "transition Blink plays as a cut: ");
    assert.match(printed[1], "transition Zoom plays as a cut: ");
  } finally {
    g.print = print;
    watch.stop();
  }
});

test.after(() => restore());
/** A page with a still part only, counting how often it is drawn. */
class StillPage implements LoopApp {
  name = "Still";
  origin = "pushed" as const;
  stills = 0;
  stillKey(): number { return 7; }
  draw(c: Canvas): void { this.drawStill(c); }
  drawStill(c: Canvas): void {
    this.stills++;
    c.color(0xff0000);
    c.g.fillRect(0, 0, c.width - 1, c.height - 1);
  }
  drawMoving(): void {}
}

test("the page to come has its still part drawn after frames, never in a frame of the change that brings it", async () => {
  const page = new StillPage();
  const r = rig([builtinApp("Time"), page], rotating, "Slide");
  // Not while the page on screen stands alone: the page to come is not known yet.
  await liveFrames(r, 2000 - LEAD_MS);
  assert.is(r.loop.upcoming(), null);
  assert.is(page.stills, 0, "not drawn while Time stands alone");
  // Then after a frame, not in it, while Time's time runs out and the change plays.
  let inFrames = 0;
  for (let k = 0; k < LEAD_MS / 25 + 30; k++) {
    if (k === 10) assert.is(page.stills, 1, "drawn ahead, once");
    const n = page.stills;
    r.engine.tick(r.clock.ms);
    inFrames += page.stills - n;
    r.clock.ms += 25;
    await between();
  }
  assert.is(r.loop.current(), page, "the loop changed page by itself");
  assert.is(r.loop.incoming(), null, "landed");
  assert.is(inFrames, 0, "still parts drawn in frames");
  assert.is(last(r).pixels.filter((p) => p === 0xff0000).length, 256);
});


test("the global overlay goes over built-in pages on the clock's time, and not over a page with its own", () => {
  const r = rig([builtinApp("Time")], (s) => { s.timeMode = 1; });
  r.weather = makeLayer("overlays", "snow", null, true, 1, 32, 8);
  assert.ok(r.weather, "made");
  let snowed = 0;
  for (let k = 0; k < 5; k++) {
    r.engine.tick(r.clock.ms);
    const plain = fullDraw(new TimeApp(), r, r.loop.shownMs(r.clock.ms));
    assert.equal(last(r), overlaid(plain, "snow", r.clock.ms), "frame " + k);
    if (JSON.stringify(last(r)) !== JSON.stringify(plain)) snowed++;
    r.clock.ms += 400;
  }
  assert.ok(snowed >= 3, "flakes on most frames: " + snowed);
  const own = checkPayloads([{ text: "HI", overlay: "rain" }], false) as StoredPayload[];
  payloadHost.text = textKit();
  const app = new PushedApp("wet", own[0]);
  const r2 = rig([app]);
  r2.weather = makeLayer("overlays", "snow", null, true, 1, 32, 8);
  assert.ok(app.load());
  r2.engine.tick(r2.clock.ms);
  assert.equal(last(r2), fullDraw(app, r2, r2.loop.shownMs(r2.clock.ms)), "its own rain only");
});

test.run();
