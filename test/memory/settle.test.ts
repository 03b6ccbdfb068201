// What the first requests after a boot leave behind, in the real interpreter ($ESPRUINO): one round
// of every route (each write followed by its undoing, the Wi-Fi scan left uncollected as a client
// that goes away leaves it) and the firmware holds what it held right after boot. The soak suite
// checks the same over ten minutes; this is its quick form, for npm test. Each of these once kept
// something for good: the SyntaxError of a body cut short (the interpreter makes its constructor
// on first use), the copies of the time zone and time server names a saved system configuration
// brings (the clock and the time server tick held on to the ones from boot), the results of a scan
// nobody came for, and the setup-mode timer of the boot, pending for wifiConnectTimeout.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startEspruino, type EspruinoTarget } from "../espruino/launch";
import { NUMBER_JITTER, loopCycleMs, sleep, stillUsage } from "./probe";
import { ROUTE_CASES, SCAN_KEEP_MS, send } from "./requests";

const bin = process.env.ESPRUINO;

test("one round of every route after boot: the firmware settles back to what it held before", async () => {
  if (!bin) return console.log("  skipped: set ESPRUINO to measure memory in the real interpreter");
  const t: EspruinoTarget = await startEspruino("esp32", { debug: true });
  try {
    // After the first change of page: what it sets up for good (the second page buffer's font,
    // as a page first draws text there) is what the clock holds from then on.
    await sleep(await loopCycleMs(t));
    const before = await stillUsage(t);
    for (const c of ROUTE_CASES) {
      assert.is(await send(t, c), null, c.method + " " + c.path);
      // A scan's results are not fetched: they must go by themselves.
      if (c.then && c.method !== "GET") assert.is(await send(t, c.then), null, c.then.method + " " + c.then.path);
    }
    await sleep(SCAN_KEEP_MS);
    const after = await stillUsage(t);
    console.log("  firmware " + before + " variables right after boot, " + after + " after one round");
    // What was kept for good was 5 to 13 each. Fewer after is no growth (seen once: 2 fewer,
    // something boot held and a request let go).
    assert.ok(after - before <= NUMBER_JITTER, "before " + before + ", after " + after);
  } finally {
    await t.stop();
  }
});

test.run();
