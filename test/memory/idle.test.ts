// The idle budget of the esp32 firmware in the real interpreter ($ESPRUINO), where variable counts
// are exact (bench/README.md, "Budgets"): the most it holds over a whole loop cycle after boot.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { EspruinoTarget } from "../espruino/launch";
import { clockFor, loopCycleMs, restingMax, sleep } from "./probe";

const bin = process.env.ESPRUINO;
const IDLE_BUDGET = 3000;

let t: EspruinoTarget;

clockFor(test, (c) => { t = c; });

test("idle after boot, over a whole loop cycle", async () => {
  if (!bin) return console.log("  skipped: set ESPRUINO to measure memory in the real interpreter");
  const cycle = await loopCycleMs(t);
  // Two cycles first: what the first page changes allocate for good counts as idle.
  await sleep(2 * cycle);
  const idle = await restingMax(t, cycle + 500);
  console.log("  firmware idle: " + idle + " variables (budget " + IDLE_BUDGET + ")");
  assert.ok(idle <= IDLE_BUDGET, "idle " + idle + " > " + IDLE_BUDGET);
});

test.run();
