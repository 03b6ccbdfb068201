import { test } from "uvu";
import * as assert from "uvu/assert";
import { clockTexts, dateText, showsSeconds } from "../../firmware/apps/builtin/format";
import { defaultSettings } from "../../firmware/settings/schema";
import type { Settings } from "../../firmware/settings/types";
import { localTime } from "../harness/frame-fixture";

const settings = (patch: Partial<Settings>): Settings => Object.assign(defaultSettings(), patch);
// Thursday 31 December 2026 and Tuesday 10 March 2026
const newYearsEve = localTime(2026, 12, 31, 23, 59, 0);
const march = localTime(2026, 3, 10, 9, 5, 7);

/** The hours clockTexts shows at `hours` o'clock. */
const hourText = (hours: number, time24h: boolean, timeLeadingZero: boolean) =>
  clockTexts(localTime(2026, 3, 10, hours, 5, 7), settings({ time24h, timeLeadingZero }))[0];
/** Whether clockTexts shows AM/PM with these settings. */
const showsAmPm = (s: Settings) => {
  const texts = clockTexts(march, s);
  return texts[3] !== null;
};

test("hours: 24h, 12h with 12 at midnight and noon, leading zero", () => {
  assert.is(hourText(9, true, true), "09");
  assert.is(hourText(9, true, false), "9");
  assert.is(hourText(0, true, true), "00");
  assert.is(hourText(0, false, true), "12");
  assert.is(hourText(12, false, false), "12");
  assert.is(hourText(13, false, false), "1");
  assert.is(hourText(23, false, true), "11");
});

test("the clock's texts: minutes and seconds with two digits, AM before noon, PM from noon", () => {
  assert.equal(clockTexts(march, settings({ timeMode: 0, time24h: true, timeShowSeconds: true })), ["09", "05", "07", null]);
  assert.equal(clockTexts(march, settings({ timeMode: 0, time24h: true, timeShowSeconds: false })), ["09", "05", null, null]);
  assert.equal(clockTexts(march, settings({ timeMode: 0, time24h: false, timeLeadingZero: false, timeShowAmPm: true,
    timeShowSeconds: false })), ["9", "05", null, " AM"]);
  assert.equal(clockTexts(newYearsEve, settings({ timeMode: 0, time24h: false, timeLeadingZero: false, timeShowAmPm: true,
    timeShowSeconds: false })), ["11", "59", null, " PM"]);
});

test("seconds and AM/PM only on the plain clock, AM/PM dropped next to seconds", () => {
  assert.ok(showsSeconds(settings({ timeMode: 0, timeShowSeconds: true })));
  for (const mode of [1, 2, 3, 4, 5, 6]) {
    assert.not.ok(showsSeconds(settings({ timeMode: mode, timeShowSeconds: true })), "mode " + mode);
    assert.not.ok(showsAmPm(settings({ timeMode: mode, time24h: false, timeShowAmPm: true })), "mode " + mode);
  }
  assert.ok(showsAmPm(settings({ timeMode: 0, time24h: false, timeShowAmPm: true })));
  assert.not.ok(showsAmPm(settings({ timeMode: 0, time24h: true, timeShowAmPm: true })), "24h");
  assert.not.ok(showsAmPm(settings({ timeMode: 0, time24h: false, timeShowAmPm: true, timeShowSeconds: true })));
});

test("weekday names", () => {
  const weekdayName = (day: number) => dateText(localTime(2026, 3, 8 + day, 9, 0, 0), settings({ dateShowWeekday: true })).substr(0, 3);
  assert.is(weekdayName(0), "Sun");
  assert.is(weekdayName(2), "Tue");
  assert.is(weekdayName(6), "Sat");
  assert.is(newYearsEve.weekday, 4);
});

test("date: orders, separators, year modes", () => {
  assert.is(dateText(newYearsEve, defaultSettings()), "31.12.26");
  assert.is(dateText(march, defaultSettings()), "10.03.26", "two-digit day and month");
  assert.is(dateText(newYearsEve, settings({ dateOrder: "monthDayYear", dateSeparator: "slash" })), "12/31/26");
  assert.is(dateText(newYearsEve, settings({ dateOrder: "yearMonthDay", dateSeparator: "dash", dateYearMode: "fourDigit" })), "2026-12-31");
  assert.is(dateText(newYearsEve, settings({ dateOrder: "yearMonthDay", dateYearMode: "none" })), "12.31");
  assert.is(dateText(localTime(2005, 1, 2, 0, 0, 0), settings({ dateYearMode: "twoDigit" })), "02.01.05");
});

test("date: the trailing dot only for dayMonthYear + dot + no year", () => {
  assert.is(dateText(newYearsEve, settings({ dateYearMode: "none" })), "31.12.");
  assert.is(dateText(newYearsEve, settings({ dateYearMode: "none", dateSeparator: "slash" })), "31/12");
  assert.is(dateText(newYearsEve, settings({ dateYearMode: "none", dateOrder: "monthDayYear" })), "12.31");
  assert.is(dateText(newYearsEve, settings({ dateYearMode: "none", dateMonthNames: true })), "31 Dec");
});

test("date: month names (separator ignored) and weekday prefix", () => {
  assert.is(dateText(newYearsEve, settings({ dateMonthNames: true, dateSeparator: "slash" })), "31 Dec 26");
  assert.is(dateText(newYearsEve, settings({ dateMonthNames: true, dateOrder: "monthDayYear", dateYearMode: "fourDigit" })), "Dec 31 2026");
  assert.is(dateText(march, settings({ dateMonthNames: true, dateOrder: "yearMonthDay", dateYearMode: "fourDigit" })), "2026 Mar 10");
  assert.is(dateText(newYearsEve, settings({ dateShowWeekday: true, dateSeparator: "slash", dateYearMode: "fourDigit" })), "Thu 31/12/2026");
  assert.is(dateText(march, settings({ dateShowWeekday: true, dateYearMode: "none" })), "Tue 10.03.");
});

test.run();
