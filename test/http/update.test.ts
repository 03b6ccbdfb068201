// POST /update through HTTP (firmware/update/README.md), on the simulator and on the real
// interpreter: every refusal, each leaving the clock as it was; a good update from the upload to
// the restart, the trial and the confirmation, twice (into slot b, then back into slot a); the
// rollback after three starts that did not confirm (a bundle that throws as it starts, one that
// never confirms); and, on the simulator, a power cut at each step of an update.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTarget, call, onEspruino, type Target } from "./target";
import { freePort } from "../espruino/launch";
import {
  BUILT_VERSION, filePart, getJson, makePackage, multipart, upload, until, type Answer,
} from "../espruino/update-support";

const basic = (user: string, pass: string) => "Basic " + Buffer.from(user + ":" + pass).toString("base64");

function assertError(r: Answer, status: number, code: string, message?: RegExp): void {
  assert.is(r.status, status, r.text);
  assert.is(r.body && r.body.error && r.body.error.code, code, r.text);
  if (message) assert.match(r.body.error.message, message);
}

async function device(t: Target): Promise<any> {
  return (await call(t, "GET", "/api/v1/device")).body;
}

/** The clock as it was: same release, no update going on, nothing in slot b (simulator). */
async function unchanged(t: Target): Promise<void> {
  const d = await device(t);
  assert.is(d.version, BUILT_VERSION);
  assert.equal(d.update, { state: "idle", release: "", error: "" });
  if (t.sim) {
    assert.equal(t.sim.device.storage.list().filter((n) => n.startsWith("b/")), [], "slot b is empty");
    assert.ok(t.sim.device.storage.read("a/main.js") !== undefined);
  }
}

/**
 * Restarts the clock and waits for it. What an upload refused half-way had written is erased, and
 * erased files take Storage until the boot stage compacts it at a start (never while the firmware
 * runs): a refusal after the files began is followed by a restart before the next upload.
 */
async function reclaim(t: Target): Promise<void> {
  const booted = t.nextBoot();
  assert.is((await call(t, "POST", "/api/v1/device/reboot")).status, 200);
  await booted;
  await t.waitForServer();
  await until("the clock back", () => getJson(t.url + "/api/v1/version"));
}

// ---------------------------------------------------------------------------------------------
const refusals = suite("POST /update: refusals");
let dut: Target;

refusals.before(async () => { dut = await startTarget(); });
refusals.after(async () => { await dut.stop(); });

refusals("GET /api/v1/device reports the update image and an idle update", async () => {
  const d = await device(dut);
  assert.is(d.updateImage, "pixloop-esp32.bin");
  assert.equal(d.update, { state: "idle", release: "", error: "" });
  assert.is(Object.keys(d)[Object.keys(d).length - 1], "update");
});

refusals("a package for the other chip, the other PSRAM kind, a USB image, no package: 400 wrongChip", async () => {
  const cases: [Buffer, RegExp][] = [
    [await makePackage({ version: "0.9.0", board: "esp32s3" }), /esp32s3 chip/],
    [await makePackage({ version: "0.9.0", meta: { psram: "octal" } }), /octal PSRAM/],
    [Buffer.concat([Buffer.from([0xe9, 3, 2, 0x20]), Buffer.alloc(60000, 0x5a)]), /first flash over USB/],
    [Buffer.from("<html>not firmware</html>\n".repeat(100)), /not a pixloop firmware package/],
  ];
  for (const [file, message] of cases) {
    assertError(await upload(dut.url + "/update", multipart(file)), 400, "wrongChip", message);
    await unchanged(dut);
  }
});

refusals("the running release or an older one: 409 notNewer", async () => {
  for (const version of [BUILT_VERSION, "0.0.1"]) {
    assertError(await upload(dut.url + "/update", multipart(await makePackage({ version }))), 409, "notNewer");
    await unchanged(dut);
  }
});

refusals("no file, two files, a package cut short, a damaged one: 400 badRequest", async () => {
  const pkg = await makePackage({ version: "0.9.0" });
  const noFile = Buffer.from("--" + "----pixloopUpdate7MA4YWxkTrZu0gW" + "\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n--" +
    "----pixloopUpdate7MA4YWxkTrZu0gW" + "--\r\n", "latin1");
  assertError(await upload(dut.url + "/update", noFile), 400, "badRequest", /no file/);
  assertError(await upload(dut.url + "/update", multipart(pkg, { extra: filePart("second.bin", Buffer.from("x")) })), 400, "badRequest",
    /more than one file/);
  await reclaim(dut);
  assertError(await upload(dut.url + "/update", multipart(pkg.subarray(0, pkg.length - 5000))), 400, "badRequest", /incomplete/);
  await unchanged(dut);
  await reclaim(dut);
  const damaged = Buffer.from(pkg);
  damaged[damaged.length - 100] ^= 0x04;
  assertError(await upload(dut.url + "/update", multipart(damaged)), 400, "badRequest", /damaged/);
  await unchanged(dut);
  if (!dut.sim) {
    // The real Storage: the erased attempt takes its room until a restart, and the refusal says so.
    assertError(await upload(dut.url + "/update", multipart(pkg)), 409, "insufficientStorage", /come back when the clock restarts/);
  }
  await reclaim(dut);
});

refusals("more than the package limit: 413 payloadTooLarge, before the body is read", async () => {
  const r = await upload(dut.url + "/update", Buffer.alloc(70000, 0x2d), { headers: { "Content-Length": "9000000" } });
  assertError(r, 413, "payloadTooLarge");
  await unchanged(dut);
});

refusals("more than Storage holds beside the running release: 409 insufficientStorage", async () => {
  const big = await makePackage({ version: "0.9.0" });
  const padded = await makePackage({ version: "0.9.0", bundle: Buffer.concat([Buffer.from("var PAD='"), Buffer.alloc(600000, 0x41), Buffer.from("';")]) });
  assert.ok(padded.length > big.length + 500000);
  assertError(await upload(dut.url + "/update", multipart(padded)), 409, "insufficientStorage");
  await unchanged(dut);
});

refusals("too little free memory to take an update: 413 insufficientMemory", async () => {
  const sim = dut.sim;
  if (!sim) return; // needs the simulator's control of the memory it reports
  const before = sim.device.variablesInUse;
  sim.device.variablesInUse = 10700;
  try {
    assertError(await upload(dut.url + "/update", multipart(await makePackage({ version: "0.9.0" }))), 413, "insufficientMemory");
  } finally {
    sim.device.variablesInUse = before;
  }
  await unchanged(dut);
});

refusals("from another site: 403 forbiddenOrigin without a CORS header", async () => {
  const pkg = await makePackage({ version: "0.9.0" });
  const sites: { [k: string]: string }[] = [{ Origin: "http://evil.example" }, { "Sec-Fetch-Site": "cross-site" }];
  for (const headers of sites) {
    const r = await upload(dut.url + "/update", multipart(pkg), { headers });
    assertError(r, 403, "forbiddenOrigin");
    assert.not.ok("access-control-allow-origin" in r.headers);
  }
  await unchanged(dut);
});

refusals("a second upload while one is being taken in: 409 updateBusy; the device shows applying", async () => {
  const pkg = await makePackage({ version: "0.9.0" });
  const damaged = Buffer.from(pkg);
  damaged[damaged.length - 10] ^= 0x01;
  const body = multipart(damaged);
  const first = await upload(dut.url + "/update", body, { stopAfter: 120000 });
  await until("the first upload under way", async () => (await device(dut)).update.state === "applying");
  assert.equal((await device(dut)).update, { state: "applying", release: "0.9.0", error: "" });
  assertError(await upload(dut.url + "/update", multipart(pkg)), 409, "updateBusy", /being applied/);
  // The rest of the first, which turns out damaged: refused, and the clock is as it was.
  const answer = new Promise<string>((resolve) => {
    let text = "";
    first.socket.on("data", (b) => { text += b.toString("latin1"); });
    first.socket.on("close", () => resolve(text));
  });
  first.socket.write(body.subarray(120000));
  assert.match(await answer, /badRequest/);
  await unchanged(dut);
  await reclaim(dut);
});

refusals("with a login set: 401 only after the whole upload was read, nothing stored; then the origin check", async () => {
  const login = { Authorization: basic("admin", "s3cret") };
  assert.is((await call(dut, "PUT", "/api/v1/system", { body: { authEnabled: true, authUser: "admin", authPass: "s3cret" } })).status, 200);
  try {
    const body = multipart(await makePackage({ version: "0.9.0" }));
    let sent = 0;
    const r = await upload(dut.url + "/update", body, { piece: 32768, pauseMs: 5, onSent: (n) => { sent = n; } });
    assertError(r, 401, "unauthorized");
    assert.is(sent, body.length, "the answer came after the last byte");
    const d = (await call(dut, "GET", "/api/v1/device", { headers: login })).body;
    assert.equal(d.update, { state: "idle", release: "", error: "" });
    if (dut.sim) assert.equal(dut.sim.device.storage.list().filter((n) => n.startsWith("b/")), []);
    const cross = await upload(dut.url + "/update", body, { headers: Object.assign({ Origin: "http://evil.example" }, login) });
    assertError(cross, 403, "forbiddenOrigin");
  } finally {
    assert.is((await call(dut, "PUT", "/api/v1/system", { body: { authEnabled: false }, headers: login })).status, 200);
  }
});

refusals.run();

// ---------------------------------------------------------------------------------------------
const setup = suite("POST /update in setup mode");

setup("403 forbidden, before anything is stored", async () => {
  const t = await startTarget({ setup: true });
  try {
    const r = await upload(t.url + "/update", multipart(await makePackage({ version: "0.9.0" })), {
      headers: { Host: "192.168.4.1" },
    });
    assertError(r, 403, "forbidden");
    const d = (await call(t, "GET", "/api/v1/device", { headers: { Host: "192.168.4.1" } })).body;
    assert.equal(d.update, { state: "idle", release: "", error: "" });
  } finally {
    await t.stop();
  }
});

setup.run();

// ---------------------------------------------------------------------------------------------
const good = suite("a good update, twice");
let clock: Target;

good.before(async () => { clock = await startTarget(); });
good.after(async () => { await clock.stop(); });

/** Waits for the clock to run `version` with update state `state`; gives its device state. */
async function reaches(t: Target, version: string, state: string, timeoutMs = 30000, everyMs = 100): Promise<any> {
  return until(version + " " + state, async () => {
    const d = await getJson(t.url + "/api/v1/device");
    return d && d.version === version && d.update.state === state ? d : undefined;
  }, timeoutMs, everyMs);
}

good("0.2.0 goes into slot b, the clock restarts into it, it is on trial, then confirmed", async () => {
  const body = multipart(await makePackage({ version: "0.2.0", wait: 3000 }));
  const restarted = clock.nextBoot();
  // Paced, so that the state can be seen while the package comes in.
  const sending = upload(clock.url + "/update", body, { piece: 16384, pauseMs: 40 });
  const during = await until("applying during the upload", async () => {
    const d = await getJson(clock.url + "/api/v1/device");
    return d && d.update.state === "applying" ? d : undefined;
  }, 10000, 20);
  assert.equal(during.update, { state: "applying", release: "0.2.0", error: "" });
  assert.is(during.version, BUILT_VERSION);
  const r = await sending;
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, { ok: true, applying: true });
  assert.not.ok("access-control-allow-origin" in r.headers);
  await restarted;
  await clock.waitForServer();
  const pending = await reaches(clock, "0.2.0", "boot-pending");
  assert.equal(pending.update, { state: "boot-pending", release: "0.2.0", error: "" });
  // While it is on trial, the release it would go back to must stay: no other update.
  assertError(await upload(clock.url + "/update", multipart(await makePackage({ version: "0.3.0" }))), 409, "updateBusy", /on trial/);
  // Once confirmed, one more restart: the boot stage erases the release before it.
  const cleanup = clock.nextBoot();
  await reaches(clock, "0.2.0", "confirmed", 15000);
  await cleanup;
  await clock.waitForServer();
  const done = await reaches(clock, "0.2.0", "confirmed", 15000);
  assert.equal(done.update, { state: "confirmed", release: "0.2.0", error: "" });
  if (clock.sim) {
    const names = clock.sim.device.storage.list();
    assert.ok(names.includes("b/main.js") && names.includes("b/manifest"));
    assert.equal(names.filter((n) => n.startsWith("a/")), [], "the release before it is erased once this one is confirmed");
  }
});

good("then 0.3.0 goes back into slot a the same way; 0.2.0 is no longer newer", async () => {
  const restarted = clock.nextBoot();
  const r = await upload(clock.url + "/update", multipart(await makePackage({ version: "0.3.0", wait: 2000 })));
  assert.is(r.status, 200, r.text);
  await restarted;
  await clock.waitForServer();
  const cleanup = clock.nextBoot();
  await reaches(clock, "0.3.0", "confirmed", 20000);
  await cleanup;
  await clock.waitForServer();
  await reaches(clock, "0.3.0", "confirmed", 20000);
  if (clock.sim) {
    const names = clock.sim.device.storage.list();
    assert.ok(names.includes("a/main.js"));
    assert.equal(names.filter((n) => n.startsWith("b/")), []);
  }
  assertError(await upload(clock.url + "/update", multipart(await makePackage({ version: "0.2.0" }))), 409, "notNewer");
  // Everything still works on the new release: a module-backed route, the page, the screen.
  assert.is((await call(clock, "GET", "/api/v1/settings")).status, 200);
  assert.is((await call(clock, "GET", "/")).status, 200);
  assert.is((await call(clock, "GET", "/api/v1/display/screen")).status, 200);
});

good.run();

// ---------------------------------------------------------------------------------------------
const rollback = suite("rollback after three starts that did not confirm");

async function rollsBack(make: () => Promise<Buffer>, version: string): Promise<void> {
  const t = await startTarget();
  try {
    const r = await upload(t.url + "/update", multipart(await make()));
    assert.is(r.status, 200, r.text);
    // Three tries of two waits each, then the release before it again.
    const d = await until("the release before it, after the rollback", async () => {
      const s = await getJson(t.url + "/api/v1/device");
      return s && s.update.state === "failed" ? s : undefined;
    }, 60000, 250);
    assert.is(d.version, BUILT_VERSION);
    assert.is(d.update.release, version);
    assert.match(d.update.error, new RegExp(version.replace(/\./g, "\\.") + " did not come up properly 3 times"));
    // The clock takes updates again.
    const again = await upload(t.url + "/update", multipart(await makePackage({ version: "0.7.0", wait: 1000 })));
    assert.is(again.status, 200, again.text);
    await until("0.7.0 confirmed", async () => {
      const s = await getJson(t.url + "/api/v1/device");
      return s && s.version === "0.7.0" && s.update.state === "confirmed";
    }, 30000);
  } finally {
    await t.stop();
  }
}

rollback("a bundle that throws as it starts", async () => {
  await rollsBack(() => makePackage({ version: "0.4.0", wait: 1000, bundle: "throw new Error('broken on purpose')" }), "0.4.0");
});

rollback("a release that runs but never confirms itself", async () => {
  await rollsBack(() => makePackage({ version: "0.5.0", wait: 1000, without: ["m.update.watch"] }), "0.5.0");
});

rollback("a network slow to come up is not held against a release: it confirms at its first start", async () => {
  // The simulator's Wi-Fi joins only its own network; the stand-ins of the real interpreter join any.
  if (onEspruino) return;
  const t = await startTarget();
  try {
    // A network that is not there: the clock waits its wifiConnectTimeout, then opens its access
    // point and starts HTTP there, seconds after twice the release's wait have gone by.
    const put = await call(t, "PUT", "/api/v1/system", { body: { wifiSsid: "not-in-range", wifiPass: "x", wifiConnectTimeout: 5000 } });
    assert.is(put.status, 200, put.text);
    const booted = t.nextBoot();
    const r = await upload(t.url + "/update", multipart(await makePackage({ version: "0.6.0", wait: 1000 })));
    assert.is(r.status, 200, r.text);
    await booted;
    const d = await until("0.6.0 confirmed", async () => {
      const s = await getJson(t.url + "/api/v1/device");
      return s && s.version === "0.6.0" && s.update.state === "confirmed" ? s : undefined;
    }, 40000, 200);
    assert.is(d.wifi.state, "accessPoint");
    assert.equal(t.sim!.lines.filter((l) => l.includes("on trial, start")).map((l) => l.replace(/.*start /, "")),
      ["1 of 3", "1"], "one start, no restart while the network came up");
  } finally {
    await t.stop();
  }
});

rollback.run();

// ---------------------------------------------------------------------------------------------
const cuts = suite("power cuts at each step of an update (simulator)");

/**
 * An update cut off at one step (the clock stopped, Storage as it was at that moment), then the
 * clock started again on the same flash: it must run the release before or the new one, never
 * neither; and whichever it runs must take the update again and confirm it.
 */
async function cutAt(step: (t: Target, body: Buffer) => Promise<void>, expect: "old" | "new" | "either"): Promise<void> {
  if (onEspruino) return; // the real interpreter is cut by test/espruino/update-power.test.ts
  const port = await freePort();
  const t = await startTarget({ port });
  try {
    const sim = t.sim!;
    const body = multipart(await makePackage({ version: "0.2.0", wait: 1000 }));
    await step(t, body);
    await sim.device.stop();
    await sim.device.start();
    await sim.device.waitForServer();
    const d = await until("an answer after the cut", () => getJson(t.url + "/api/v1/device"), 10000);
    if (expect === "old") assert.is(d.version, BUILT_VERSION);
    if (expect === "new") assert.is(d.version, "0.2.0");
    assert.ok(d.version === BUILT_VERSION || d.version === "0.2.0", d.version);
    assert.equal(sim.device.uncaught, [], "nothing broken ran");
    if (d.version === BUILT_VERSION) {
      assert.is(d.update.state, "idle");
      const again = await upload(t.url + "/update", body);
      assert.is(again.status, 200, again.text);
    }
    await until("0.2.0 confirmed", async () => {
      const s = await getJson(t.url + "/api/v1/device");
      return s && s.version === "0.2.0" && s.update.state === "confirmed";
    }, 20000);
  } finally {
    await t.stop();
  }
}

cuts("right after the header: the stale slot erased, the first files written", async () => {
  await cutAt(async (t, body) => {
    await upload(t.url + "/update", body, { stopAfter: 2000 });
    await until("staging begun", () => t.sim!.device.storage.list().some((n) => n.startsWith("b/")));
  }, "old");
});

cuts("half-way through the files", async () => {
  await cutAt(async (t, body) => {
    await upload(t.url + "/update", body, { stopAfter: Math.floor(body.length / 2) });
    await until("half staged", () => t.sim!.device.storage.read("b/manifest") !== undefined);
  }, "old");
});

cuts("with every byte in but the last few", async () => {
  await cutAt(async (t, body) => {
    await upload(t.url + "/update", body, { stopAfter: body.length - 3 });
    await new Promise((r) => setTimeout(r, 300));
  }, "old");
});

cuts("after the answer, before the restart (the record switched)", async () => {
  await cutAt(async (t, body) => {
    const r = await upload(t.url + "/update", body);
    assert.is(r.status, 200, r.text);
  }, "new");
});

cuts("in the middle of the record's write that switches to the new release", async () => {
  await cutAt(async (t, body) => {
    const r = await upload(t.url + "/update", body);
    assert.is(r.status, 200, r.text);
    tearNewestRecord(t);
  }, "old");
});

cuts("during the trial, before the release confirmed itself", async () => {
  await cutAt(async (t, body) => {
    const booted = t.nextBoot();
    assert.is((await upload(t.url + "/update", body)).status, 200);
    await booted;
    await reaches(t, "0.2.0", "boot-pending");
  }, "new");
});

cuts("in the middle of the boot stage's count of a start", async () => {
  await cutAt(async (t, body) => {
    const booted = t.nextBoot();
    assert.is((await upload(t.url + "/update", body)).status, 200);
    await booted;
    await reaches(t, "0.2.0", "boot-pending");
    tearNewestRecord(t);
  }, "new");
});

cuts("in the middle of the write that confirms it", async () => {
  await cutAt(async (t, body) => {
    const booted = t.nextBoot();
    assert.is((await upload(t.url + "/update", body)).status, 200);
    await booted;
    // Caught between the confirmation and the restart that follows it.
    await reaches(t, "0.2.0", "confirmed", 10000, 10);
    assert.ok(t.sim!.device.storage.read("a/main.js") !== undefined, "the release before it is still there");
    tearNewestRecord(t);
  }, "new");
});

cuts("at the restart after the confirmation, the release before it erased", async () => {
  await cutAt(async (t, body) => {
    const booted = t.nextBoot();
    assert.is((await upload(t.url + "/update", body)).status, 200);
    await booted;
    const cleanup = t.nextBoot();
    await reaches(t, "0.2.0", "confirmed");
    await cleanup;
  }, "new");
});

/** The newest copy of the slot record cut short, as a power cut during its write leaves it. */
function tearNewestRecord(t: Target): void {
  const s = t.sim!.device.storage;
  const copies = [".slots.0", ".slots.1"].filter((n) => s.read(n) !== undefined)
    .map((n) => ({ n, seq: parseInt(s.read(n)!.split(" ")[0], 10) })).sort((a, b) => b.seq - a.seq);
  const newest = s.read(copies[0].n)!;
  s.write(copies[0].n, newest.slice(0, Math.floor(newest.length / 2)));
}

cuts.run();
