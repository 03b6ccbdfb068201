// GET /api/v1/system/wifi-scan, asynchronous as the reference has it: 202 {scanning: true} while
// no results are ready (the first call starts the scan), then 200 with the networks found, handed
// out once; the next call starts a fresh scan. Used by the setup page, so allowed in setup mode.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTarget, call, type Target, type Answer } from "./target";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PATH = "/api/v1/system/wifi-scan";

/** Polls until the results come; every answer before them must be the 202. */
async function results(t: Target, timeoutMs = 5000): Promise<Answer> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(t, "GET", PATH);
    if (r.status === 200) return r;
    assert.is(r.status, 202, r.text);
    assert.equal(r.body, { scanning: true });
    if (Date.now() > end) throw new Error("no scan results within " + timeoutMs + " ms");
    await sleep(50);
  }
}

function assertShape(r: Answer): void {
  assert.is(r.headers.get("content-type"), "application/json");
  assert.ok(Array.isArray(r.body), r.text);
  for (const n of r.body) {
    assert.equal(Object.keys(n).sort(), ["enc", "rssi", "ssid"], JSON.stringify(n));
    assert.type(n.ssid, "string");
    assert.ok(Number.isInteger(n.rssi), JSON.stringify(n));
    assert.type(n.enc, "boolean");
  }
}

const station = suite("wifi-scan in station mode");
let dut: Target;
station.before(async () => { dut = await startTarget(); });
station.after(async () => { await dut.stop(); });

station("202 at once, then the networks once, then a fresh scan", async () => {
  const first = await call(dut, "GET", PATH);
  assert.is(first.status, 202, first.text);
  assert.equal(first.body, { scanning: true });
  const r = await results(dut);
  assertShape(r);
  assert.equal(r.body, [{ ssid: "pixloop-sim", rssi: -52, enc: true }]);
  // Handed out: the next call starts over.
  const again = await call(dut, "GET", PATH);
  assert.is(again.status, 202);
  assert.equal((await results(dut)).body, [{ ssid: "pixloop-sim", rssi: -52, enc: true }]);
});

station("GET only: other methods answer 405", async () => {
  for (const method of ["POST", "PUT", "DELETE"]) {
    const r = await call(dut, method, PATH, method === "PUT" ? { body: {} } : {});
    assert.is(r.status, 405, method);
    assert.equal(r.body, { error: { code: "methodNotAllowed", message: "allowed method(s): GET" } });
  }
});

station("polling while the radio scans starts no second scan, and the device goes on answering", async () => {
  const sim = dut.sim;
  if (!sim) return;
  const wifi = sim.device.wifi;
  wifi.scanMs = 800;
  try {
    const scans = wifi.scans;
    const t0 = Date.now();
    assert.is((await call(dut, "GET", PATH)).status, 202);
    // The answer does not wait for the radio.
    assert.ok(Date.now() - t0 < 400, "answered after " + (Date.now() - t0) + " ms");
    assert.ok(wifi.scanning);
    for (let i = 0; i < 5; i++) {
      assert.is((await call(dut, "GET", PATH)).status, 202);
      assert.is((await call(dut, "GET", "/api/v1/device")).status, 200);
    }
    assert.ok(wifi.scanning, "still scanning");
    assert.is(wifi.scans, scans + 1, "one scan for all the polls");
    assert.is((await results(dut)).status, 200);
    assert.is(wifi.scans, scans + 1);
  } finally {
    wifi.scanMs = 200;
  }
});

station("what the radio reports: open networks are enc false, UTF-8 names stay UTF-8", async () => {
  const sim = dut.sim;
  if (!sim) return;
  const networks = sim.device.wifi.networks;
  const count = networks.length;
  // Espruino hands over an SSID as its bytes: "Café" is C3 A9 at the end.
  networks.push({ ssid: "Caf\xC3\xA9", password: "", rssi: -71, open: true });
  networks.push({ ssid: "Neighbour", password: "x", rssi: -88 });
  try {
    const r = await results(dut);
    assertShape(r);
    assert.equal(r.body, [
      { ssid: "pixloop-sim", rssi: -52, enc: true },
      { ssid: "Café", rssi: -71, enc: false },
      { ssid: "Neighbour", rssi: -88, enc: true },
    ]);
  } finally {
    networks.splice(count);
  }
});

const setup = suite("wifi-scan in setup mode");
let fresh: Target;
setup.before(async () => { fresh = await startTarget({ setup: true }); });
setup.after(async () => { await fresh.stop(); });

setup("the setup page can scan: 202, then the networks", async () => {
  const first = await call(fresh, "GET", PATH);
  assert.is(first.status, 202, first.text);
  const r = await results(fresh);
  assertShape(r);
  assert.ok(r.body.some((n: { ssid: string }) => n.ssid === "pixloop-sim"), r.text);
});

station.run();
setup.run();
