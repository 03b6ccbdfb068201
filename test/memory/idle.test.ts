// The idle budget of the esp32 firmware in the real interpreter ($ESPRUINO), where variable counts
// are exact (bench/README.md, "Budgets"): the most it holds with a page alone on screen, every page
// of the rotation read; and, printed beside it, the most over a whole loop cycle.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { EspruinoTarget } from "../espruino/launch";
import { clockFor, idleUsage, loopCycleMs, restingMax, sleep } from "./probe";

const bin = process.env.ESPRUINO;
const IDLE_BUDGET = 3000;

let t: EspruinoTarget;

clockFor(test, (c) => { t = c; });

test("idle after boot: each page alone on screen", async () => {
  if (!bin) return console.log("  skipped: set ESPRUINO to measure memory in the real interpreter");
  const cycle = await loopCycleMs(t);
  // Two cycles first: what the first page changes allocate for good counts as idle.
  await sleep(2 * cycle);
  const turn = await restingMax(t, cycle + 500);
  const idle = await idleUsage(t);
  console.log("  firmware idle: " + idle.most + " variables (budget " + IDLE_BUDGET + "); by page " + JSON.stringify(idle.pages) +
    "; most over a loop cycle, a change of page included: " + turn);
  assert.ok(idle.most <= IDLE_BUDGET, "idle " + idle.most + " > " + IDLE_BUDGET);
});

test.run();
