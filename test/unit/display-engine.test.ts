// The render loop with a controlled clock: cached still parts give the same frame as a full
// draw, transitions start from the page on screen and end on the next one, the screen capture is
// ungraded, the dots and the mood light, the measured frame rate.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { installGraphics } from "../harness/graphics";
import { frameOf, renderApp, localTime, type Frame } from "../harness/frame-fixture";
import { fontFiles, serveStorage, storageOf } from "./text-support";
import { dimTables } from "../../build/tables.mjs";
import { DisplayEngine, type EngineParts } from "../../firmware/display/engine";
import { AppLoop } from "../../firmware/apps/loop";
import { TimeApp } from "../../firmware/apps/builtin/time";
import { DateApp } from "../../firmware/apps/builtin/date";
import { Indicators } from "../../firmware/display/indicators";
import { Moodlight } from "../../firmware/display/moodlight";
import { LocalClock } from "../../firmware/time/clock";
import { defaultSettings } from "../../firmware/settings/schema";
import type { Settings } from "../../firmware/settings/types";
import type { LinkHealth } from "../../firmware/display/status-dots";
import type { LoopApp } from "../../firmware/apps/types";
import { TRANSITIONS } from "../../firmware/device/names";
import { findName } from "../../firmware/core/text";

installGraphics();
const g = globalThis as unknown as { E?: object };
g.E = Object.assign({}, g.E, {
  mapInPlace: (from: Uint8Array, to: Uint8Array, map: Uint8Array) => {
    for (let i = 0; i < from.length; i++) to[i] = map[from[i]];
  },
  toArrayBuffer: (s: string) => Uint8Array.from(Buffer.from(s, "latin1")).buffer,
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
  report: { fps: number; brightness: number; currentApp: string; matrixPower: boolean };
  clock: { ms: number };
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
  r.report = { fps: 0, brightness: 0, currentApp: "", matrixPower: true };
  r.loop = new AppLoop(apps, () => settings, () => findName(TRANSITIONS, effect), () => false);
  const panel = {
    width: 32,
    push: (frame: Graphics) => { r.pushed.push(frameOf(frame)); },
    blank: () => { r.blanks++; },
  };
  const parts: EngineParts = {
    panel: panel as unknown as EngineParts["panel"],
    loop: r.loop,
    indicators: new Indicators(),
    moodlight: r.moodlight,
    clock: new LocalClock(() => clock.ms),
    tz: () => TZ,
    brightness: { update: () => settings.brightness } as unknown as EngineParts["brightness"],
    settings: () => settings,
    colorOrder: "rgb",
    health: () => r.health,
    lightRaw: () => -1,
    report: r.report,
  };
  r.engine = new DisplayEngine(parts);
  return r;
}

/** The app drawn whole, without any cache, at the rig's clock. */
function fullDraw(app: LoopApp, r: Rig, shownMs: number): Frame {
  const ms = r.clock.ms + 3600000;
  const d = new Date(ms);
  const local = localTime(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(),
    d.getUTCSeconds(), d.getUTCMilliseconds());
  return renderApp(app, { local, settings: r.settings, now: r.clock.ms, shownMs });
}

function last(r: Rig): Frame {
  return r.pushed[r.pushed.length - 1];
}

function screen(r: Rig): Frame {
  const s = JSON.parse(r.engine.screenJson(r.clock.ms));
  return { width: s.width, height: s.height, pixels: s.pixels };
}

test("a page drawn from its cached still part equals the page drawn whole, frame after frame", () => {
  for (const mode of [0, 1, 3, 5, 6]) {
    const r = rig([new TimeApp()], (s) => { s.timeMode = mode; });
    for (let k = 0; k < 50; k++) {
      r.engine.tick(r.clock.ms);
      assert.equal(last(r), fullDraw(new TimeApp(), r, r.loop.shownMs(r.clock.ms)), "mode " + mode + " frame " + k);
      r.clock.ms += 137;
    }
  }
});

test("a settings change is seen at once, even by a cached page", () => {
  const r = rig([new TimeApp()], (s) => { s.timeMode = 1; });
  r.engine.tick(r.clock.ms);
  const before = last(r);
  r.settings.calendarHeaderColor = 0x00ff00;
  r.engine.regrade();
  r.engine.tick(r.clock.ms);
  assert.is.not(last(r).pixels.join(), before.pixels.join());
  assert.equal(last(r), fullDraw(new TimeApp(), r, 0));
});

test("a transition starts on the page on screen and lands on the next one, timed by the clock", () => {
  const r = rig([new TimeApp(), new DateApp()], (s) => { s.transitionDurationMs = 1000; });
  r.engine.tick(r.clock.ms);
  const time = last(r);
  r.loop.next(r.clock.ms, false);
  r.engine.tick(r.clock.ms);
  assert.equal(last(r), time, "t = 0 shows the old page");
  r.clock.ms += 500;
  r.engine.tick(r.clock.ms);
  const half = last(r);
  // Slide half-way: the old page's right half on the left, then the new page's left half.
  assert.equal(half.pixels.slice(0, 16), time.pixels.slice(16, 32));
  r.clock.ms += 500;
  r.engine.tick(r.clock.ms);
  assert.is(r.report.currentApp, "Date");
  assert.equal(last(r), fullDraw(new DateApp(), r, 0));
});

test("every transition runs start to end without leaving the frame on a stale page", () => {
  for (let e = 1; e < TRANSITIONS.length; e++) {
    const r = rig([new TimeApp(), new DateApp()], (s) => { s.transitionDurationMs = 400; }, TRANSITIONS[e]);
    r.engine.tick(r.clock.ms);
    r.loop.next(r.clock.ms, false);
    for (let k = 0; k <= 20; k++) {
      r.engine.tick(r.clock.ms);
      r.clock.ms += 25;
    }
    assert.equal(last(r), fullDraw(new DateApp(), r, r.loop.shownMs(r.clock.ms - 25)), TRANSITIONS[e]);
  }
});

test("the screen capture is the logical picture, whatever the grading", () => {
  const r = rig([new TimeApp()], (s) => { s.timeMode = 1; s.brightness = 10; s.gamma = 2.2; s.saturation = 40; });
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
  const r = rig([new TimeApp()]);
  r.health = { wifiUp: false, brokerDown: false };
  r.moodlight.apply({ color: "#112233", brightness: 77 });
  r.engine.tick(r.clock.ms);
  // At its own brightness on the LEDs, dots and page gone; its colour in the capture.
  const lit = last(r).pixels[0];
  assert.ok(lit !== 0 && lit !== 0x112233 && last(r).pixels.every((p) => p === lit), lit.toString(16));
  assert.ok(screen(r).pixels.every((p) => p === 0x112233));
  assert.is(r.report.brightness, 77);
  r.moodlight.off();
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

test.after(() => restore());
test.run();
