// Each route's memory budget in the real interpreter ($ESPRUINO), where variable counts are exact
// (bench/README.md, "Budgets"): the peak while one request is answered at most 1,500 variables over
// what the firmware held before it, and back to that (within 10) after.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { EspruinoTarget } from "../espruino/launch";
import { clockFor, leastUsage, peaks, recordPeaks, sleep } from "./probe";
import { ROUTE_CASES, send } from "./requests";

const bin = process.env.ESPRUINO;
const REQUEST_BUDGET = 1500;
const SETTLE_TOLERANCE = 10;

let t: EspruinoTarget;

clockFor(test, (c) => { t = c; });

test("every route: peak at most idle + 1,500, and back to where it was after", async () => {
  if (!bin) return console.log("  skipped: set ESPRUINO to measure memory in the real interpreter");
  // A still display, so that what a request leaves behind is not hidden in a page change. A
  // write and its undoing count as one case (see RequestCase.then).
  assert.is((await send(t, { method: "PATCH", path: "/api/v1/settings", body: { autoTransition: false }, expect: 200 })), null);
  // One round first: the first write of a store replaces what boot built with what the route
  // builds, once (the same reading the soak suite checks over ten minutes).
  for (const c of ROUTE_CASES) {
    await send(t, c);
    if (c.then) {
      await sleep(500);
      await send(t, c.then);
    }
  }
  await sleep(1500);
  const rows: string[] = [];
  const over: string[] = [];
  for (const c of ROUTE_CASES) {
    const before = await leastUsage(t, 4);
    await recordPeaks(t, 4);
    const wrong = await send(t, c);
    if (c.then) {
      await sleep(500);
      assert.is(await send(t, c.then), null, c.then.method + " " + c.then.path);
    }
    const peak = Math.max(...(await peaks(t)));
    // Past any page change a request started (next, previous, a new setting on screen).
    await sleep(1500);
    const after = await leastUsage(t, 4);
    rows.push(c.method + " " + c.path + ": peak +" + (peak - before) + ", after " + (after - before >= 0 ? "+" : "") +
      (after - before));
    assert.is(wrong, null, c.method + " " + c.path);
    if (peak - before > REQUEST_BUDGET || Math.abs(after - before) > SETTLE_TOLERANCE) over.push(rows[rows.length - 1]);
  }
  console.log(rows.map((r) => "  " + r).join("\n"));
  assert.equal(over, []);
  await send(t, { method: "PATCH", path: "/api/v1/settings", body: { autoTransition: true }, expect: 200 });
});

test.run();
