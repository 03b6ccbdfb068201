import { test } from "uvu";
import * as assert from "uvu/assert";
import { localTime, newZone, utcOffsetMs } from "../../firmware/time/tz";
import type { Tz } from "../../firmware/time/tz";
import { newLocalTime, LocalTime } from "../../firmware/time/local";

const HOUR = 3600000;
const WEEKDAYS: { [k: string]: number } = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const formats: { [zone: string]: Intl.DateTimeFormat } = {};

/** What the host's time-zone database says, in LocalTime form. */
function intlLocal(zone: string, utcMs: number): LocalTime {
  const f = formats[zone] || (formats[zone] = new Intl.DateTimeFormat("en-US", {
    timeZone: zone, hourCycle: "h23", weekday: "short", year: "numeric", month: "numeric",
    day: "numeric", hour: "numeric", minute: "numeric", second: "numeric",
  }));
  const p: { [k: string]: string } = {};
  for (const part of f.formatToParts(new Date(utcMs))) p[part.type] = part.value;
  return {
    year: +p.year, month: +p.month, day: +p.day, hours: +p.hour, minutes: +p.minute,
    seconds: +p.second, ms: ((utcMs % 1000) + 1000) % 1000, weekday: WEEKDAYS[p.weekday],
  };
}

function intlOffsetMs(zone: string, utcMs: number): number {
  const l = intlLocal(zone, utcMs);
  return Date.UTC(l.year, l.month - 1, l.day, l.hours, l.minutes, l.seconds, l.ms) - utcMs;
}

function ours(tzString: string, utcMs: number): LocalTime {
  const out = newLocalTime();
  localTime(parseTz(tzString), utcMs, out);
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A zone as the clock holds it: compiled (by the module time/zone) when it is first used. */
function parseTz(tzString: string): Tz {
  return newZone(tzString);
}

// Real zones whose current rules the POSIX string states, from the year they took effect.
const ZONES: [string, string, number][] = [
  ["CET-1CEST,M3.5.0,M10.5.0/3", "Europe/Berlin", 1997],
  ["EST5EDT,M3.2.0,M11.1.0", "America/New_York", 2008],
  ["AEST-10AEDT,M10.1.0,M4.1.0/3", "Australia/Sydney", 2009],
  ["NZST-12NZDT,M9.5.0,M4.1.0/3", "Pacific/Auckland", 2009],
  ["<+0330>-3:30", "Asia/Tehran", 2023],
  ["IST-5:30", "Asia/Kolkata", 1990],
  ["UTC0", "UTC", 1970],
  // Winter is the "daylight" period here: the rules run from October to March.
  ["IST-1GMT0,M10.5.0,M3.5.0/1", "Europe/Dublin", 1997],
  // Extended rule times: negative, and past 24 hours.
  ["<-02>2<-01>,M3.5.0/-1,M10.5.0/0", "America/Nuuk", 2025],
  ["IST-2IDT,M3.4.4/26,M10.5.0", "Asia/Jerusalem", 2014],
  ["<-04>4<-03>,M9.1.6/24,M4.1.6/24", "America/Santiago", 2024],
  // Minutes in offsets and rule times; a daylight offset other than one hour.
  ["<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45", "Pacific/Chatham", 2009],
  ["<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "Australia/Lord_Howe", 2009],
  ["NST3:30NDT,M3.2.0,M11.1.0", "America/St_Johns", 2012],
];

for (const entry of ZONES) {
  const tzString = entry[0];
  const zone = entry[1];
  const fromYear = entry[2];
  test(`${zone} (${tzString}) matches the host's zone database`, () => {
    const tz = parseTz(tzString);
    const out = newLocalTime();
    // Every 3 hours through one year, then every 31 h 7 min 13.5 s out to 2037 (all hours of
    // the day over time), with the year cache reused.
    const samples: number[] = [];
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 3 * HOUR) samples.push(t);
    for (let t = Date.UTC(fromYear, 0, 1); t < Date.UTC(2037, 11, 31); t += 112033500) samples.push(t);
    for (const t of samples) {
      localTime(tz, t, out);
      const want = intlLocal(zone, t);
      if (JSON.stringify(out) !== JSON.stringify(want)) assert.equal(out, want, iso(t));
    }
  });

  test(`${zone}: switches at the exact millisecond`, () => {
    const tz = parseTz(tzString);
    let switches = 0;
    for (let year = Math.max(fromYear, 2024); year <= 2031; year++) {
      let prev = Date.UTC(year, 0, 1);
      for (let t = prev + 24 * HOUR; t <= Date.UTC(year + 1, 0, 1); t += 24 * HOUR) {
        if (intlOffsetMs(zone, t) !== intlOffsetMs(zone, prev)) {
          let lo = prev;
          let hi = t;
          while (hi - lo > 1) {
            const mid = Math.floor((lo + hi) / 2);
            if (intlOffsetMs(zone, mid) === intlOffsetMs(zone, prev)) lo = mid;
            else hi = mid;
          }
          assert.is(utcOffsetMs(tz, hi - 1), intlOffsetMs(zone, hi - 1), iso(hi - 1));
          assert.is(utcOffsetMs(tz, hi), intlOffsetMs(zone, hi), iso(hi));
          assert.equal(ours(tzString, hi - 1), intlLocal(zone, hi - 1), iso(hi - 1));
          assert.equal(ours(tzString, hi), intlLocal(zone, hi), iso(hi));
          switches++;
        }
        prev = t;
      }
    }
    const hasDst = tzString.indexOf(",") >= 0;
    assert.is(switches > 0, hasDst, "switches found: " + switches);
  });
}

test("Berlin: the boundary minutes, by hand", () => {
  const berlin = "CET-1CEST,M3.5.0,M10.5.0/3";
  const start = Date.UTC(2025, 2, 30, 1, 0, 0);
  assert.equal(ours(berlin, start - 1),
    { year: 2025, month: 3, day: 30, hours: 1, minutes: 59, seconds: 59, ms: 999, weekday: 0 });
  assert.equal(ours(berlin, start),
    { year: 2025, month: 3, day: 30, hours: 3, minutes: 0, seconds: 0, ms: 0, weekday: 0 });
  const end = Date.UTC(2025, 9, 26, 1, 0, 0);
  assert.equal(ours(berlin, end - 60000),
    { year: 2025, month: 10, day: 26, hours: 2, minutes: 59, seconds: 0, ms: 0, weekday: 0 });
  assert.equal(ours(berlin, end),
    { year: 2025, month: 10, day: 26, hours: 2, minutes: 0, seconds: 0, ms: 0, weekday: 0 });
});

test("Sydney: daylight time spans the new year", () => {
  const sydney = "AEST-10AEDT,M10.1.0,M4.1.0/3";
  const tz = parseTz(sydney);
  assert.is(utcOffsetMs(tz, Date.UTC(2025, 0, 1)), 11 * HOUR);
  assert.is(utcOffsetMs(tz, Date.UTC(2025, 3, 5, 15, 59, 59, 999)), 11 * HOUR);
  assert.is(utcOffsetMs(tz, Date.UTC(2025, 3, 5, 16)), 10 * HOUR);
  assert.is(utcOffsetMs(tz, Date.UTC(2025, 6, 1)), 10 * HOUR);
  assert.is(utcOffsetMs(tz, Date.UTC(2025, 9, 4, 15, 59, 59, 999)), 10 * HOUR);
  assert.is(utcOffsetMs(tz, Date.UTC(2025, 9, 4, 16)), 11 * HOUR);
  assert.is(utcOffsetMs(tz, Date.UTC(2025, 11, 31, 23)), 11 * HOUR);
  // New Year's Eve in UTC is already the next year locally.
  assert.equal(ours(sydney, Date.UTC(2025, 11, 31, 13)),
    { year: 2026, month: 1, day: 1, hours: 0, minutes: 0, seconds: 0, ms: 0, weekday: 4 });
});

test("Jn counts 1-365 and never Feb 29", () => {
  // J60 is March 1 in every year; J300 is October 27 in every year.
  const tz = parseTz("AAA0BBB,J60,J300");
  for (const year of [2023, 2024]) {
    assert.is(utcOffsetMs(tz, Date.UTC(year, 2, 1, 1, 59, 59, 999)), 0, `${year} before start`);
    assert.is(utcOffsetMs(tz, Date.UTC(year, 2, 1, 2)), HOUR, `${year} start`);
    // The end is 02:00 daylight time, 01:00 UTC.
    assert.is(utcOffsetMs(tz, Date.UTC(year, 9, 27, 0, 59, 59, 999)), HOUR, `${year} before end`);
    assert.is(utcOffsetMs(tz, Date.UTC(year, 9, 27, 1)), 0, `${year} end`);
  }
  assert.is(utcOffsetMs(tz, Date.UTC(2024, 1, 29, 12)), 0, "Feb 29 is before J60");
});

test("n counts 0-365 including Feb 29", () => {
  // Day 59 is Feb 29 in a leap year, March 1 otherwise; day 299 is Oct 26 or Oct 27.
  const tz = parseTz("AAA0BBB,59/0,299/0");
  assert.is(utcOffsetMs(tz, Date.UTC(2024, 1, 28, 23, 59)), 0);
  assert.is(utcOffsetMs(tz, Date.UTC(2024, 1, 29, 0)), HOUR);
  assert.is(utcOffsetMs(tz, Date.UTC(2024, 9, 25, 22, 59)), HOUR);
  assert.is(utcOffsetMs(tz, Date.UTC(2024, 9, 25, 23)), 0, "00:00 daylight on Oct 26 is 23:00 UTC the day before");
  assert.is(utcOffsetMs(tz, Date.UTC(2023, 1, 28, 23, 59)), 0);
  assert.is(utcOffsetMs(tz, Date.UTC(2023, 2, 1, 0)), HOUR);
  assert.is(utcOffsetMs(tz, Date.UTC(2023, 9, 26, 22, 59)), HOUR);
  assert.is(utcOffsetMs(tz, Date.UTC(2023, 9, 26, 23)), 0);
  // n0 is January 1.
  const jan1 = parseTz("AAA0BBB,0/0,J365/0");
  assert.is(utcOffsetMs(jan1, Date.UTC(2025, 0, 1)), HOUR);
  assert.is(utcOffsetMs(jan1, Date.UTC(2024, 11, 31, 12)), 0, "J365 is Dec 31 also in a leap year");
});

test("extended rule times: negative, past a day, with minutes and seconds", () => {
  // Last Sunday of March 2025 is the 30th; -1 puts the switch at 23:00 on the 29th.
  const neg = parseTz("AAA0BBB,M3.5.0/-1,M10.5.0/0");
  assert.is(utcOffsetMs(neg, Date.UTC(2025, 2, 29, 22, 59, 59, 999)), 0);
  assert.is(utcOffsetMs(neg, Date.UTC(2025, 2, 29, 23)), HOUR);
  // Daylight time all year: from Jan 1 00:00 to Dec 31 25:00 daylight time.
  const always = parseTz("EST5EDT,0/0,J365/25");
  for (const t of [Date.UTC(2025, 0, 1, 5), Date.UTC(2025, 6, 1), Date.UTC(2025, 11, 31, 23), Date.UTC(2026, 0, 1, 4, 59)]) {
    assert.is(utcOffsetMs(always, t), -4 * HOUR, iso(t));
  }
  const hms = parseTz("AAA0BBB,M3.5.0/1:30:15,M10.5.0/+2:05");
  assert.is(utcOffsetMs(hms, Date.UTC(2025, 2, 30, 1, 30, 14, 999)), 0);
  assert.is(utcOffsetMs(hms, Date.UTC(2025, 2, 30, 1, 30, 15)), HOUR);
  assert.is(utcOffsetMs(hms, Date.UTC(2025, 9, 26, 1, 4, 59, 999)), HOUR);
  assert.is(utcOffsetMs(hms, Date.UTC(2025, 9, 26, 1, 5)), 0);
});

test("offsets: sign, minutes, seconds, quoted names, default daylight offset", () => {
  const at = Date.UTC(2025, 0, 15);
  assert.is(utcOffsetMs(parseTz("<+0330>-3:30"), at), 3.5 * HOUR);
  assert.is(utcOffsetMs(parseTz("<-03>3"), at), -3 * HOUR);
  assert.is(utcOffsetMs(parseTz("<+03>-03"), at), 3 * HOUR);
  assert.is(utcOffsetMs(parseTz("IST-5:30"), at), 5.5 * HOUR);
  assert.is(utcOffsetMs(parseTz("LMT+0:17:30"), at), -(17 * 60 + 30) * 1000);
  assert.is(utcOffsetMs(parseTz("ABC+5"), at), -5 * HOUR);
  const summer = Date.UTC(2025, 6, 15);
  assert.is(utcOffsetMs(parseTz("CET-1CEST,M3.5.0,M10.5.0/3"), summer), 2 * HOUR, "one hour ahead by default");
  assert.is(utcOffsetMs(parseTz("AAA-1BBB-3,M3.5.0,M10.5.0/3"), summer), 3 * HOUR, "explicit daylight offset");
});

test("a daylight name without rules follows the US rules", () => {
  const tz = parseTz("EST5EDT");
  for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2026, 0, 1); t += 7 * HOUR) {
    assert.is(utcOffsetMs(tz, t), intlOffsetMs("America/New_York", t), iso(t));
  }
});

test("unparseable strings fall back to UTC without throwing", () => {
  const bad: unknown[] = [
    "", "garbage", "CET", "UTC", "123", "AB-3", "<AB>-3", "<+03-3", "CET-", "CET-25", "CET-1:60",
    "CET-1:30:60", "CET-1 ", " CET-1", "CET-1CEST,M3.5.0", "CET-1CEST,M3.5.0,", "CET-1CEST,",
    "CET-1CEST,M13.5.0,M10.5.0/3", "CET-1CEST,M0.5.0,M10.5.0/3", "CET-1CEST,M3.6.0,M10.5.0/3",
    "CET-1CEST,M3.0.0,M10.5.0/3", "CET-1CEST,M3.5.7,M10.5.0/3", "CET-1CEST,M3.5,M10.5.0/3",
    "CET-1CEST,J0,J365", "CET-1CEST,J1,J366", "CET-1CEST,0,366", "CET-1CEST,M3.5.0/168,M10.5.0",
    "CET-1CEST,M3.5.0/,M10.5.0", "CET-1CEST,M3.5.0,M10.5.0/3x", "CET-1CEST;M3.5.0,M10.5.0/3",
    "CET-1CEST-x", "CET-1CE", "-1", "\u00e9\u00e9\u00e9-1",
    null, undefined, 5, {},
  ];
  const samples = [Date.UTC(2025, 0, 15, 12), Date.UTC(2025, 6, 15, 12)];
  for (const s of bad) {
    const tz = parseTz(s as string);
    for (const t of samples) {
      assert.is(utcOffsetMs(tz, t), 0, JSON.stringify(s));
      assert.equal(ours(s as string, t), intlLocal("UTC", t), JSON.stringify(s));
    }
  }
});

test("the cached year follows the clock backwards and forwards", () => {
  const tz = parseTz("CET-1CEST,M3.5.0,M10.5.0/3");
  const times = [
    Date.UTC(2025, 6, 1), Date.UTC(2019, 0, 1), Date.UTC(2031, 6, 1), Date.UTC(2025, 0, 1),
    Date.UTC(2024, 11, 31, 22, 59, 59, 999), Date.UTC(2024, 11, 31, 23), Date.UTC(2025, 6, 1),
    Date.UTC(1999, 7, 11), Date.UTC(2100, 5, 1),
  ];
  const out = newLocalTime();
  for (const t of times) {
    localTime(tz, t, out);
    assert.equal(out, intlLocal("Europe/Berlin", t), iso(t));
  }
});

test("civil dates and weekdays across the epoch, leap days and far years", () => {
  const out = newLocalTime();
  const utc = parseTz("UTC0");
  const times = [
    0, -1, -86400000, Date.UTC(1900, 1, 28, 23, 59, 59, 999), Date.UTC(2000, 1, 29, 12),
    Date.UTC(2100, 2, 1), Date.UTC(2400, 1, 29), Date.UTC(1969, 11, 31, 23, 59, 59, 999),
    Date.UTC(2038, 0, 19, 3, 14, 8), Date.UTC(2024, 11, 31, 23, 59, 59, 999),
  ];
  for (const t of times) {
    localTime(utc, t, out);
    assert.equal(out, intlLocal("UTC", t), String(t));
  }
});

test.run();
