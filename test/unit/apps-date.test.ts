import { test } from "uvu";
import * as assert from "uvu/assert";
import { DateApp } from "./apps-support";
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

const TUESDAY = localTime(2026, 3, 10, 9, 5, 7);

const settings = (patch: Partial<Settings>): Settings => Object.assign(defaultSettings(), patch);

function render(patch: Partial<Settings>, shownMs = 0, app = new DateApp()): Frame {
  return renderApp(app, { local: TUESDAY, settings: settings(patch), shownMs });
}

/** Lit pixels per row 1-5 (the text rows) as one string, to compare text positions. */
const textRows = (f: Frame) => frameToText({ width: f.width, height: 6, pixels: f.pixels.slice(0, 6 * f.width) });

test("default: 10.03.26 centred over the weekday bar", () => {
  expectFrame("date-default", render({}));
});

test("German short form with its trailing dot", () => {
  expectFrame("date-trailing-dot", render({ dateYearMode: "none" }));
});

test("month names, dateColor, bar off", () => {
  expectFrame("date-month-names", render({
    dateMonthNames: true, dateYearMode: "none", dateColor: 0x00ff00,
    weekdayBar: Object.assign(defaultSettings().weekdayBar, { show: false }),
  }));
});

test("year first with dashes and four digits: too wide, it starts at the left edge", () => {
  expectFrame("date-iso-start", render({ dateOrder: "yearMonthDay", dateSeparator: "dash", dateYearMode: "fourDigit" }));
});

test("a date too wide for the panel scrolls with the device-wide scroll settings", () => {
  const long = { dateShowWeekday: true, dateMonthNames: true, dateYearMode: "fourDigit" as const };
  const app = new DateApp();
  const start = render(long, 0, app);
  expectFrame("date-long-start", start);
  // Held for holdMs (1000), then 21 px/s: 1 s later it has moved 21 columns to the left.
  assert.is(textRows(render(long, 999, app)), textRows(start));
  const later = render(long, 2000, app);
  expectFrame("date-long-2s", later);
  // The bar never moves.
  assert.equal(later.pixels.slice(7 * 32), start.pixels.slice(7 * 32));
});

test("a static scroll mode still lets a long date run by; a fitting one never moves", () => {
  const long = { dateShowWeekday: true, dateMonthNames: true, dateYearMode: "fourDigit" as const };
  const still = Object.assign({}, defaultSettings().scroll, { mode: "static" as const, whenFits: "scroll" as const, holdMs: 0 });
  const app = new DateApp();
  assert.is.not(textRows(render(Object.assign({ scroll: still }, long), 0, app)), textRows(render(Object.assign({ scroll: still }, long), 500, app)));
  const fits = new DateApp();
  assert.is(textRows(render({ scroll: still }, 0, fits)), textRows(render({ scroll: still }, 5000, fits)));
});

test("dateColor null inherits textColor", () => {
  const f = render({ textColor: 0xff00ff });
  assert.ok(countColor(f, 0xff00ff) > 20);
});

test.run();
