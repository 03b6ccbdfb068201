import { test } from "uvu";
import * as assert from "uvu/assert";
import { separatorLevel } from "../../firmware/apps/builtin/time";
import { TimeApp } from "./apps-support";
import { defaultSettings } from "../../firmware/settings/schema";
import type { Settings } from "../../firmware/settings/types";
import { countColor, expectFrame, frameToText, localTime, renderApp } from "../harness/frame-fixture";
import type { Frame } from "../harness/frame-fixture";
import { fontFiles, serveStorage, storageOf } from "./text-support";

let restore = () => undefined as void;
test.before(() => {
  restore = serveStorage(storageOf(fontFiles()));
});
test.after(() => restore());

// Tuesday 10 March 2026, 09:05:07 (an odd second: blink is off) and 21:05:08.
const MORNING = localTime(2026, 3, 10, 9, 5, 7);
const EVENING = localTime(2026, 3, 10, 21, 5, 8);

const settings = (patch: Partial<Settings>): Settings =>
  Object.assign(defaultSettings(), { timeSeparatorMode: "steady" }, patch);

const render = (patch: Partial<Settings>, local = MORNING): Frame => renderApp(new TimeApp(), { local, settings: settings(patch) });

/** The frame with one column range blanked, to compare everything but the colon. */
function without(frame: Frame, x0: number, x1: number): string {
  const pixels = frame.pixels.map((p, i) => (i % frame.width >= x0 && i % frame.width <= x1 ? 0 : p));
  return frameToText({ width: frame.width, height: frame.height, pixels });
}

for (let mode = 0; mode <= 6; mode++) {
  test("timeMode " + mode + " at 09:05:07", () => expectFrame("time-mode" + mode, render({ timeMode: mode })));
}

test("12-hour clock with PM, no leading zero", () => {
  expectFrame("time-12h-pm", render({ timeMode: 0, time24h: false, timeLeadingZero: false, timeShowAmPm: true }, EVENING));
});

test("seconds on the plain clock", () => {
  expectFrame("time-seconds", render({ timeMode: 0, timeShowSeconds: true }));
});

test("AM/PM is dropped while seconds are shown", () => {
  const both = render({ timeMode: 0, time24h: false, timeShowSeconds: true, timeShowAmPm: true }, EVENING);
  const seconds = render({ timeMode: 0, time24h: false, timeShowSeconds: true }, EVENING);
  assert.equal(both, seconds);
});

test("12h shows 12 at midnight and noon", () => {
  const midnight = render({ timeMode: 0, time24h: false }, localTime(2026, 3, 10, 0, 30, 0));
  const noon = render({ timeMode: 0, time24h: false }, localTime(2026, 3, 10, 12, 30, 0));
  assert.equal(midnight, noon);
  assert.equal(midnight, render({ timeMode: 0 }, localTime(2026, 3, 10, 12, 30, 0)));
});

test("modes 1-4 show neither seconds nor AM/PM; 5 and 6 ignore both", () => {
  for (let mode = 1; mode <= 6; mode++) {
    const plain = render({ timeMode: mode, time24h: false }, EVENING);
    assert.equal(render({ timeMode: mode, time24h: false, timeShowSeconds: true }, EVENING), plain, "seconds, mode " + mode);
    assert.equal(render({ timeMode: mode, time24h: false, timeShowAmPm: true }, EVENING), plain, "AM/PM, mode " + mode);
  }
});

test("blink: the colon shows in even seconds, is gone in odd ones, and keeps its width", () => {
  const on = render({ timeMode: 0, timeSeparatorMode: "blink" }, localTime(2026, 3, 10, 9, 5, 8));
  const off = render({ timeMode: 0, timeSeparatorMode: "blink" });
  expectFrame("time-blink-on", on);
  expectFrame("time-blink-off", off);
  // "09:05" is 17 columns wide, centred from column 7: the colon is column 15; nothing else moves.
  assert.is(without(on, 15, 15), without(off, 15, 15));
  assert.is.not(frameToText(on), frameToText(off));
});

test("pulse: a breath every two seconds, through dimmed colours", () => {
  const at = (s: number, ms: number) => separatorLevel("pulse", localTime(2026, 3, 10, 9, 5, s, ms));
  assert.is(at(8, 0), 1);
  assert.ok(Math.abs(at(9, 0)) < 1e-9);
  assert.ok(Math.abs(at(8, 500) - 0.5) < 1e-9);
  assert.ok(Math.abs(at(9, 500) - 0.5) < 1e-9);
  assert.ok(at(8, 250) > at(8, 400) && at(9, 600) > at(9, 400), "fades down, then up");
  assert.is(separatorLevel("steady", MORNING), 1);
  const half = render({ timeMode: 0, timeSeparatorMode: "pulse" }, localTime(2026, 3, 10, 9, 5, 8, 500));
  expectFrame("time-pulse-half", half);
  assert.is(countColor(half, 0x808080), 2, "the two colon pixels at half level");
});

test("big clock: black digits in a field of timeColor; a hidden colon is field", () => {
  expectFrame("time-big-color", render({ timeMode: 5, timeColor: 0x00aaff }));
  const off = render({ timeMode: 5, timeSeparatorMode: "blink" });
  const steady = render({ timeMode: 5 });
  assert.is(countColor(off, 0), countColor(steady, 0) - 8, "the 2x2 colon dots are filled in");
});

test("colours: timeColor over textColor, calendar colours, weekend segment", () => {
  // Saturday 14 March 2026, a weekend day.
  const saturday = localTime(2026, 3, 14, 18, 45, 0);
  expectFrame("time-mode1-colors", render({
    timeMode: 1, textColor: 0xff00ff, timeColor: 0x00ff00, calendarHeaderColor: 0x0000ff,
    calendarBodyColor: 0xffff00, calendarTextColor: 0xff0000,
    weekdayBar: Object.assign(defaultSettings().weekdayBar, { weekendActiveColor: 0xffaa00 }),
  }, saturday));
  // null inherits textColor
  const inherit = render({ timeMode: 0, textColor: 0xff00ff });
  assert.ok(countColor(inherit, 0xff00ff) > 20);
  assert.is(countColor(inherit, 0xffffff), 3, "only today's bar segment stays white");
});

test("the weekday bar can be switched off", () => {
  const frame = render({ timeMode: 0, weekdayBar: Object.assign(defaultSettings().weekdayBar, { show: false }) });
  assert.is(frame.pixels.slice(7 * 32).filter((p) => p !== 0).length, 0);
});

test("text is laid out again only when it changes", () => {
  const app = new TimeApp() as unknown as { lines: unknown[] };
  const s = settings({ timeMode: 0 });
  const draw = (local = MORNING) => renderApp(app as unknown as TimeApp, { local, settings: s });
  draw();
  const hours = app.lines[0];
  const minutes = app.lines[2];
  draw(localTime(2026, 3, 10, 9, 5, 9, 400));
  assert.ok(app.lines[0] === hours && app.lines[2] === minutes, "same minute, no seconds shown");
  const before = JSON.stringify(app.lines[2]);
  const hoursBefore = JSON.stringify(app.lines[0]);
  draw(localTime(2026, 3, 10, 9, 6, 0));
  assert.ok(app.lines[2] === minutes, "laid out again in place");
  assert.is.not(JSON.stringify(app.lines[2]), before, "next minute");
  assert.is(JSON.stringify(app.lines[0]), hoursBefore);
});

test.run();
