// 10,000 mixed requests spread over more than ten minutes of uptime, in the real interpreter
// ($ESPRUINO): not one wrong answer, and the firmware holds the same memory after as before, the
// before reading taken right after boot so that what a clock allocates only after its first
// minutes is not hidden in a warm-up. SOAK_REQUESTS and SOAK_MINUTES shorten it for a try.
//
// Both readings are taken with the loop held on the Date app (probe.ts stillUsage): over a moving
// loop the most held depends on which moments of which page changes the samples fall on (20
// variables apart from one cycle to the next), while a still page reads the same to within one
// variable (a frame's own passing state), so the smallest of several readings compares exactly.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startEspruino, type EspruinoTarget } from "../espruino/launch";
import { NUMBER_JITTER, sleep, stillUsage } from "./probe";
import { ROUTE_CASES, SCAN_KEEP_MS, send, type RequestCase } from "./requests";

const bin = process.env.ESPRUINO;
const REQUESTS = +(process.env.SOAK_REQUESTS || 10000);
const MINUTES = +(process.env.SOAK_MINUTES || 10.5);

/** The mix: every route of the budgets suite, in turn, each followed by its undoing. */
const MIX: RequestCase[] = [];
for (const c of ROUTE_CASES) {
  MIX.push(c);
  if (c.then && c.method !== "GET") MIX.push(c.then);
}

function mix(i: number): RequestCase {
  return MIX[i % MIX.length];
}

test("10,000 mixed requests over ten minutes: no wrong answer, no growth", async () => {
  if (!bin) return console.log("  skipped: set ESPRUINO to run the soak in the real interpreter");
  const t: EspruinoTarget = await startEspruino("esp32", { debug: true });
  try {
    const before = await stillUsage(t);
    const start = Date.now();
    const spacing = (MINUTES * 60000) / REQUESTS;
    const wrong: string[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const c = mix(i);
      const got = await send(t, c);
      // A scan's results wait for the next scan request, which the mix sends a cycle later.
      if (got && !(c.then && /status 200/.test(got))) wrong.push(c.method + " " + c.path + ": " + got);
      const due = start + (i + 1) * spacing;
      if (due > Date.now()) await sleep(due - Date.now());
    }
    // The mix's last scan may have ended just before its last request, its results held.
    await sleep(SCAN_KEEP_MS);
    const after = await stillUsage(t);
    const minutes = ((Date.now() - start) / 60000).toFixed(1);
    console.log("  " + REQUESTS + " requests in " + minutes + " min: " + wrong.length + " wrong; firmware " + before +
      " variables before, " + after + " after");
    assert.equal(wrong.slice(0, 5), []);
    // Fewer after is no growth: something boot held and a request let go.
    assert.ok(after - before <= NUMBER_JITTER, "before " + before + ", after " + after);
  } finally {
    await t.stop();
  }
});

test.run();
