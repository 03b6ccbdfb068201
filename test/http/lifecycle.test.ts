// Restart, sleep and factory reset; what survives them and what does not.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { startTarget, call, type Target } from "./target";
import { afterTornWrite, fillFlash } from "./flash-faults";

const t = suite("lifecycle");
let dut: Target;

t.before(async () => { dut = await startTarget(); });
t.after(async () => { await dut.stop(); });

async function restartVia(path: string, body?: unknown): Promise<void> {
  const booted = dut.nextBoot();
  const r = await call(dut, "POST", path, body === undefined ? {} : { body });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, { ok: true });
  await booted;
  await dut.waitForServer();
}

t("a reboot answers first, then restarts: uptime starts again, reason software, config kept", async () => {
  assert.is((await call(dut, "PUT", "/api/v1/system", { body: { hostname: "kitchen-clock", tempOffset: -2.5 } })).status, 200);
  await restartVia("/api/v1/device/reboot");
  const d = (await call(dut, "GET", "/api/v1/device")).body;
  assert.is(d.resetReason, "software");
  assert.ok(d.uptimeSeconds <= 1);
  assert.is(d.hostname, "kitchen-clock");
  const sys = (await call(dut, "GET", "/api/v1/system")).body;
  assert.is(sys.hostname, "kitchen-clock");
  assert.is(sys.tempOffset, -2.5);
});

t("sleep validates durationMs, answers, and the device wakes with reason deepSleep", async () => {
  const bad = [{}, { durationMs: 0 }, { durationMs: -5 }, { durationMs: 1.5 }, { durationMs: "100" }];
  for (const body of bad) {
    const r = await call(dut, "POST", "/api/v1/device/sleep", { body });
    assert.is(r.status, 422, JSON.stringify(body));
    assert.is(r.body.error.code, "validationFailed");
    assert.is(r.body.error.field, "durationMs");
    assert.is(r.body.error.message, "must be a positive integer (milliseconds)");
  }
  assert.is((await call(dut, "POST", "/api/v1/device/sleep", { body: "", headers: { "Content-Type": "application/json" } })).body.error.code,
    "invalidJson");
  await restartVia("/api/v1/device/sleep", { durationMs: 300 });
  assert.is((await call(dut, "GET", "/api/v1/device")).body.resetReason, "deepSleep");
});

t("factory reset wipes the flash and comes back in setup mode", async () => {
  if (dut.sim) fs.writeFileSync(path.join(dut.sim.device.storage.dir, "stray"), "x");
  await restartVia("/api/v1/device/factory-reset");
  const d = (await call(dut, "GET", "/api/v1/device")).body;
  assert.is(d.wifi.state, "accessPoint");
  const sys = (await call(dut, "GET", "/api/v1/system")).body;
  assert.is(sys.wifiSsid, "");
  assert.is(sys.hostname, "");
  // The firmware's own files stay: the page is still served.
  assert.is((await call(dut, "GET", "/")).status, 200);
  if (dut.sim) {
    const left = dut.sim.device.storage.list();
    assert.not.ok(left.includes("stray"));
    // So are the fonts (in the running slot, firmware/update) and the boot stage: the clock still
    // has text to draw with, and starts.
    for (const name of ["a/font.map", "a/font.small.0", "a/font.large.0", "a/main.js", ".bootcde"]) assert.ok(left.includes(name), name);
  }
});

t.run();

// ---------------------------------------------------------------------------------------------
const flash = suite("atomic configuration");

flash("a copy torn by a power cut is passed over: the previous configuration comes back", async () => {
  await afterTornWrite("sys", async (first) => {
    assert.is((await call(first, "PUT", "/api/v1/system", { body: { tzName: "Europe/Lisbon" } })).status, 200);
  }, async (second) => {
    const sys = (await call(second, "GET", "/api/v1/system")).body;
    assert.is.not(sys.tzName, "Europe/Lisbon");
    assert.is(sys.wifiSsid, "pixloop-sim");
  });
});

flash("a full flash answers 507 and keeps the old configuration", async () => {
  const dut = await startTarget();
  if (!dut.sim) { await dut.stop(); return; }
  fillFlash(dut.sim.device.storage);
  const r = await call(dut, "PUT", "/api/v1/system", { body: { tzName: "Pacific/Fiji" } });
  assert.is(r.status, 507, r.text);
  assert.is(r.body.error.code, "insufficientStorage");
  assert.is.not((await call(dut, "GET", "/api/v1/system")).body.tzName, "Pacific/Fiji");
  await dut.stop();
});

flash.run();
