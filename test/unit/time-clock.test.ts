import Module from "node:module";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { LocalClock } from "../../firmware/time/clock";
import { newLocalTime } from "../../firmware/time/local";
import { startNtp } from "../../firmware/platform/clock";

test("LocalClock reads the wall clock through the zone in force", () => {
  let now = Date.UTC(2025, 6, 1, 10, 30, 15, 250);
  const clock = new LocalClock(() => now);
  const out = newLocalTime();
  clock.fill(out);
  assert.equal(out, { year: 2025, month: 7, day: 1, hours: 10, minutes: 30, seconds: 15, ms: 250, weekday: 2 }, "UTC until set");
  clock.setZone("CET-1CEST,M3.5.0,M10.5.0/3");
  clock.fill(out);
  assert.equal(out, { year: 2025, month: 7, day: 1, hours: 12, minutes: 30, seconds: 15, ms: 250, weekday: 2 });
  now = Date.UTC(2025, 11, 31, 23, 0, 0, 0);
  clock.fill(out);
  assert.equal(out, { year: 2026, month: 1, day: 1, hours: 0, minutes: 0, seconds: 0, ms: 0, weekday: 4 });
  clock.setZone("EST5EDT,M3.2.0,M11.1.0");
  clock.fill(out);
  assert.equal(out, { year: 2025, month: 12, day: 31, hours: 18, minutes: 0, seconds: 0, ms: 0, weekday: 3 }, "applied at once");
  clock.setZone("not a zone");
  clock.fill(out);
  assert.is(out.hours, 23, "unreadable zones show UTC");
});

test("LocalClock compiles a zone only when the string changes, at once and for the year in force", () => {
  const now = Date.UTC(2025, 6, 1);
  const clock = new LocalClock(() => now);
  clock.setZone("AEST-10AEDT,M10.1.0,M4.1.0/3");
  assert.is(clock.tz.std, 10 * 3600000);
  assert.is(clock.tz.dst, 11 * 3600000);
  assert.ok(clock.tz.from <= now && now < clock.tz.to, "compiled for the year that holds now");
  // A marker the same string leaves alone: it is not compiled again.
  clock.tz.std = 1;
  clock.setZone("AEST-10AEDT,M10.1.0,M4.1.0/3");
  assert.is(clock.tz.std, 1);
  clock.setZone("IST-5:30");
  assert.is(clock.tz.std, 5.5 * 3600000);
  assert.is(clock.tz.from, -Infinity, "no daylight time: never compiled again");
});

test("startNtp asks the Wi-Fi module for SNTP with no clock offset, and survives its absence", () => {
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const nodeLoad = loader._load;
  const calls: unknown[][] = [];
  let wifi: unknown = { setSNTP: (...a: unknown[]) => calls.push(a) };
  loader._load = function (request: string, ...rest: unknown[]) {
    if (request !== "Wifi") return nodeLoad.call(this, request, ...rest);
    if (!wifi) throw new Error("Module Wifi not found");
    return wifi;
  };
  try {
    startNtp("pool.ntp.org");
    assert.equal(calls, [["pool.ntp.org", 0]]);
    wifi = {};
    startNtp("time.example");
    wifi = null;
    startNtp("time.example");
  } finally {
    loader._load = nodeLoad;
  }
  assert.is(calls.length, 1);
});

test.run();
