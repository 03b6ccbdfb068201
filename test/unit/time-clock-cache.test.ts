import { test } from "uvu";
import * as assert from "uvu/assert";
import { LocalClock } from "../../firmware/time/clock";
import { newLocalTime } from "../../firmware/time/local";

test("within one second only the milliseconds move; the next second and a new zone recompute", () => {
  let now = Date.UTC(2026, 2, 10, 8, 5, 7, 100);
  const clock = new LocalClock(() => now);
  clock.setZone("CET-1CEST,M3.5.0,M10.5.0/3");
  const t = newLocalTime();
  clock.fill(t);
  assert.equal([t.hours, t.minutes, t.seconds, t.ms], [9, 5, 7, 100]);
  now += 850;
  clock.fill(t);
  assert.equal([t.hours, t.minutes, t.seconds, t.ms], [9, 5, 7, 950]);
  now += 100;
  clock.fill(t);
  assert.equal([t.hours, t.minutes, t.seconds, t.ms], [9, 5, 8, 50]);
  clock.setZone("EST5EDT,M3.2.0,M11.1.0");
  clock.fill(t);
  assert.equal([t.day, t.hours, t.minutes, t.seconds], [10, 4, 5, 8]);
  // A second LocalTime gets a full computation of its own.
  const other = newLocalTime();
  clock.fill(other);
  assert.equal([other.hours, other.minutes], [4, 5]);
});

test.run();
