// Memory budgets of pushed apps and notifications in the real interpreter ($ESPRUINO), over HTTP
// as a user pushes them (bench/README.md, "Budgets"): 50 typical apps and a full queue of 32
// notifications at most 2,500 variables over idle; one app carrying an 8 KB draw list held in at
// most 200, its request peaking at most 3,500 over idle; past the caps, 507 and nothing more held.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { EspruinoTarget } from "../espruino/launch";
import { clockFor, loopCycleMs, peaks, recordPeaks, restingMax, sleep } from "./probe";

const bin = process.env.ESPRUINO;
const APPS_BUDGET = 2500;
const DRAW_APP_BUDGET = 200;
const PARSE_BUDGET = 3500;

let t: EspruinoTarget;

clockFor(test, (c) => { t = c; });

async function call(method: string, path: string, body?: unknown): Promise<number> {
  const r = await fetch(t.url + path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  await r.arrayBuffer();
  return r.status;
}

/** A pushed app of about 200 bytes of JSON, as a sensor dashboard sends them. */
function typicalApp(i: number): object {
  return {
    text: "Living room " + (20 + (i % 7)) + "." + (i % 10) + " C, " + (40 + i) + " % rh",
    icon: "" + (2400 + i),
    textColor: "#" + (0x102030 + i * 4099).toString(16).slice(-6),
    progress: i * 2,
    progressColor: "#00FF00",
    scroll: { speed: 80, mode: "loop" },
    durationMs: 5000,
    lifetimeMs: 600000,
  };
}

function typicalNotice(i: number): object {
  return { text: "Door " + i + " opened at 12:" + (10 + i), textColor: "#FF8800", durationMs: 4000, hold: i === 0 };
}

/** A draw list of about 8 KB: a frame, lines, filled shapes, pixel runs and a little text. */
function drawList(): unknown[] {
  const out: unknown[] = [["rect", 0, 0, 32, 8, "#202020"]];
  for (let i = 0; JSON.stringify(out).length < 8000; i++) {
    const x = i % 32;
    const y = i % 8;
    const c = "#" + ((i * 2654435761) >>> 8 & 0xffffff).toString(16).padStart(6, "0");
    switch (i % 6) {
      case 0: out.push(["pixel", x, y, c]); break;
      case 1: out.push(["line", x, 0, 31 - x, 7, c]); break;
      case 2: out.push(["rectFill", x, y, 3, 2, c]); break;
      case 3: out.push(["circle", x, 4, 2, c]); break;
      case 4: out.push(["pixels", c, x, y, (x + 3) % 32, (y + 2) % 8]); break;
      default: out.push(["text", x, 1, "" + i, c]);
    }
  }
  out.pop();
  return out;
}

test("50 typical pushed apps and a full notification queue: at most 2,500 over idle; 507 past the caps", async () => {
  if (!bin) return console.log("  skipped: set ESPRUINO to measure memory in the real interpreter");
  const cycle = await loopCycleMs(t);
  await sleep(2 * cycle);
  const idle = await restingMax(t, cycle + 500);
  for (let i = 0; i < 50; i++) assert.is(await call("PUT", "/api/v1/apps/pushed/room" + i, typicalApp(i)), 200, "app " + i);
  assert.is(await call("PUT", "/api/v1/apps/pushed/one-more", typicalApp(50)), 507);
  // An update does not count against the cap.
  assert.is(await call("PUT", "/api/v1/apps/pushed/room7", typicalApp(7)), 200);
  for (let i = 0; i < 32; i++) assert.is(await call("POST", "/api/v1/notifications", typicalNotice(i)), 200, "notification " + i);
  assert.is(await call("POST", "/api/v1/notifications", typicalNotice(32)), 507);
  const full = await restingMax(t, cycle + 500);
  console.log("  idle " + idle + ", with 50 apps and 32 notifications " + full + ": +" + (full - idle) + " (budget " + APPS_BUDGET + ")");
  assert.ok(full - idle <= APPS_BUDGET, "+" + (full - idle) + " > " + APPS_BUDGET);

  // Cleared, the clock is back where it was.
  assert.is(await call("DELETE", "/api/v1/notifications/active"), 200);
  for (let i = 0; i < 50; i++) assert.is(await call("DELETE", "/api/v1/apps/room" + i), 200);
  // Each dismissal ends the one on screen; the next is on screen from the following frame.
  for (let i = 1; i < 64; i++) {
    await sleep(60);
    if (await call("DELETE", "/api/v1/notifications/active") !== 200) break;
  }
});

test("an app with an 8 KB draw list: held in at most 200, parsed in at most 3,500 over idle", async () => {
  if (!bin) return;
  // A still loop on the Time app, so that no page of the new app is loaded while it is measured.
  assert.is(await call("PATCH", "/api/v1/settings", { autoTransition: false }), 200);
  assert.is(await call("PUT", "/api/v1/apps/active", { name: "Time" }), 200);
  const idle = await restingMax(t, 1500);
  const body = JSON.stringify({ draw: drawList() });
  assert.ok(body.length > 7900 && body.length <= 8192, "body " + body.length + " bytes");
  await recordPeaks(t, 2);
  assert.is(await call("PUT", "/api/v1/apps/pushed/canvas", body), 200);
  const peak = Math.max(...(await peaks(t)));
  // Switched off, it is stored but never next on screen.
  assert.is(await call("PUT", "/api/v1/apps/canvas/enabled", "false"), 200);
  const held = await restingMax(t, 1500);
  console.log("  8 KB draw app: peak +" + (peak - idle) + " (budget " + PARSE_BUDGET + "), held +" + (held - idle) +
    " (budget " + DRAW_APP_BUDGET + ")");
  assert.ok(peak - idle <= PARSE_BUDGET, "peak +" + (peak - idle));
  assert.ok(held - idle <= DRAW_APP_BUDGET, "held +" + (held - idle));
  assert.is(await call("DELETE", "/api/v1/apps/canvas"), 200);
  assert.is(await call("PATCH", "/api/v1/settings", { autoTransition: true }), 200);
});

test.run();
