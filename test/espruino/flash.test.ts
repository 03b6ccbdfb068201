// `npm run flash` against the real interpreter ($ESPRUINO) reached as a clock on the network: started
// with --telnet in an empty directory, its console on TCP port 2323, the stand-ins of
// scripts/espruino/boot0.js flashed as ".boot0" first. Covers the first flash, an upgrade that keeps
// the settings, the configuration and the user's files and removes a stale module, a flash refused
// because Storage is full, and --wipe. Without ESPRUINO only the failures that need no clock run.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "../harness/root";
import { SIM_NETWORK } from "../harness/device";
import { BOOT0, freePort } from "./launch";
import { ConsoleClient, TELNET_PORT, TelnetEspruino, lockTelnetPort, releaseLock, sleep } from "./telnet";

const bin = process.env.ESPRUINO;
const SKIPPED = "flashing the real interpreter skipped: set ESPRUINO=/path/to/espruino (only the failures that need no clock run)";
const PORT = "tcp://127.0.0.1:" + TELNET_PORT;
const VERSION: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
const STORAGE = path.join(ROOT, "dist", "storage");
const MANIFEST = ".pixloop.files";

interface Run { code: number | null; out: string; err: string }

/** `npm run flash -- <args>` (or scripts/flash.mjs alone), its output collected. */
function flash(args: string[], viaNpm = true): Promise<Run> {
  const [cmd, argv] = viaNpm ? ["npm", ["run", "flash", "--", ...args]] : [process.execPath, ["scripts/flash.mjs", ...args]];
  return new Promise((resolve, reject) => {
    const p = spawn(cmd as string, argv as string[], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    p.stdout!.on("data", (b: Buffer) => { out += b.toString(); });
    p.stderr!.on("data", (b: Buffer) => { err += b.toString(); });
    const timer = setTimeout(() => p.kill("SIGKILL"), 180000);
    p.on("error", reject);
    p.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

const shown = (r: Run) => "\n--- stdout\n" + r.out + "--- stderr\n" + r.err;

/** A failure is one line of explanation, never a stack trace. */
function assertClearFailure(r: Run, says: RegExp): void {
  assert.is(r.code, 1, "exit code" + shown(r));
  assert.match(r.err, says, shown(r));
  assert.not.match(r.err, /^\s+at /m, "a stack trace" + shown(r));
}

async function api(method: string, url: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  const r = await fetch(url, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15000),
  });
  const text = await r.text();
  let parsed: unknown = null;
  try { parsed = JSON.parse(text); } catch (e) { /* not JSON */ }
  return { status: r.status, body: parsed, text };
}

/**
 * A stand-in for a clock's console on a TCP port: it answers every EVAL packet with `env` (the
 * wrapper scripts/flash.mjs puts around an expression carries the id it expects back), or with
 * nothing at all, and keeps what it was sent.
 */
async function fakeConsole(env: { board: string; version: string } | null): Promise<{ port: number; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((sock) => {
    sockets.add(sock);
    sock.on("close", () => sockets.delete(sock));
    let buf = Buffer.alloc(0);
    sock.on("data", (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const at = buf.indexOf(Buffer.from([16, 1]));
        if (at < 0 || buf.length < at + 4) return;
        const len = ((buf[at + 2] & 0x1f) << 8) | buf[at + 3];
        if (buf.length < at + 4 + len) return;
        const code = buf.subarray(at + 4, at + 4 + len).toString("latin1");
        buf = buf.subarray(at + 4 + len);
        received.push(code);
        const id = /JSON\.stringify\(\[(\d+),1,/.exec(code);
        if (!env || !id) continue;
        // ACK, then a RESPONSE packet holding the value as Espruino prints a string.
        const answer = JSON.stringify(JSON.stringify([+id[1], 1, env]));
        sock.write(Buffer.concat([Buffer.from([6, 16, 1, answer.length >> 8, answer.length & 255]), Buffer.from(answer, "latin1")]));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

let device: TelnetEspruino | null = null;
let dir = "";

async function withConsole<T>(fn: (c: ConsoleClient) => Promise<T>): Promise<T> {
  const c = await ConsoleClient.open();
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

async function wifiState(): Promise<string> {
  const d = await api("GET", device!.url + "/api/v1/device");
  assert.ok(d.body && d.body.wifi, "GET /api/v1/device: " + d.text.slice(0, 200));
  return d.body.wifi.state;
}

/**
 * Enters the simulated network through the setup API, then turns the clock off and on. (Its own
 * reboot cannot be used after a flash: the stand-ins end the interpreter with quit(), which the
 * Linux build defines only at its first start, and flashing ends with a soft restart.)
 */
async function joinNetwork(): Promise<void> {
  const put = await api("PUT", device!.url + "/api/v1/system", { wifiSsid: SIM_NETWORK.ssid, wifiPass: SIM_NETWORK.password });
  assert.is(put.status, 200, put.text);
  await device!.powerCycle();
  await device!.waitForApi();
  assert.is(await wifiState(), "connected");
}

test.before(async () => {
  if (!bin) return console.log(SKIPPED);
  await lockTelnetPort();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-flash-"));
  device = new TelnetEspruino(bin, dir, await freePort());
  await device.start();
  // The stand-ins for what the Linux build lacks, as the clock's own setup would be.
  await withConsole((c) => c.writeFile(".boot0", fs.readFileSync(BOOT0)));
});

test.after(async () => {
  if (device) await device.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  releaseLock();
});

test("a clear message, no stack trace, when nothing answers or the port does not exist", async () => {
  assertClearFailure(await flash(["--port", "tcp://127.0.0.1:" + (await freePort())], false), /cannot reach .*nothing listens there/);
  assertClearFailure(await flash(["--port", "/dev/pixloop-no-such-port"], false), /port not found: \/dev\/pixloop-no-such-port/);
  assertClearFailure(await flash(["--board", "esp64", "--port", PORT], false), /unknown board esp64/);
});

test("the wrong board, or an Espruino too old, is refused before anything is written", async () => {
  const s3 = await fakeConsole({ board: "ESP32S3_IDF4", version: "2v29" });
  try {
    assertClearFailure(await flash(["--port", "tcp://127.0.0.1:" + s3.port], false),
      /wrong board: the device is a ESP32S3_IDF4 .*this is the esp32 build; flash it with --board esp32s3/);
    assert.is(s3.received.length, 1, "only process.env was asked for");
  } finally {
    await s3.close();
  }
  const old = await fakeConsole({ board: "ESP32", version: "2v20" });
  try {
    assertClearFailure(await flash(["--port", "tcp://127.0.0.1:" + old.port], false), /runs Espruino 2v20; pixloop needs 2v29 or later/);
    assert.is(old.received.length, 1);
  } finally {
    await old.close();
  }
});

test("a clear message when the port answers but no Espruino does", async () => {
  const mute = await fakeConsole(null);
  try {
    assertClearFailure(await flash(["--port", "tcp://127.0.0.1:" + mute.port], false), /no answer from Espruino on tcp:/);
  } finally {
    await mute.close();
  }
});

test("first flash: every file written with its size, the clock restarts and answers the API", async () => {
  if (!bin) return;
  const r = await flash(["--port", PORT]);
  assert.is(r.code, 0, shown(r));
  assert.match(r.out, /\n {2}\.bootcde +[\d,]+ bytes\n/, shown(r));
  // Into slot a (firmware/update/README.md): the bundle as a/main.js, dist/storage beside it.
  const names = fs.readdirSync(STORAGE).map((n) => "a/" + n).concat(["a/main.js"]);
  assert.ok(names.some((n) => n.startsWith("a/m.")) && names.indexOf("a/routes") >= 0, "dist/storage has modules and routes");
  for (const n of names) assert.match(r.out, new RegExp("\\n {2}" + n.replace(/\./g, "\\.") + " +[\\d,]+ bytes\\n"), n);
  assert.match(r.out, /done: the clock has restarted/, shown(r));
  await device!.waitForApi();
  const v = await api("GET", device!.url + "/api/v1/version");
  assert.equal(v.body, { version: VERSION });
  const stored = await withConsole((c) => c.list());
  for (const n of names.concat([".bootcde", ".boot0", MANIFEST])) assert.ok(stored.indexOf(n) >= 0, n + " in Storage");
});

test("settings round trip once the clock has joined the network", async () => {
  if (!bin) return;
  assert.is.not(await wifiState(), "connected", "a fresh clock starts in setup mode");
  await joinNetwork();
  const patch = await api("PATCH", device!.url + "/api/v1/settings", { brightness: 42 });
  assert.is(patch.status, 200, patch.text);
  const get = await api("GET", device!.url + "/api/v1/settings");
  assert.is(get.status, 200, get.text);
  assert.is(get.body.brightness, 42);
});

test("a re-flash is an upgrade: settings, configuration and user files stay, a stale module goes", async () => {
  if (!bin) return;
  // What an older build and the user left: a module this build no longer has (named in the
  // record of firmware files), and a file of the user's own.
  await withConsole(async (c) => {
    await c.writeFile("notes.txt", Buffer.from("kept across flashes"));
    await c.writeFile("a/m.gone.module", Buffer.from("module.exports=1"));
    const record = JSON.parse((await c.read(MANIFEST))!);
    record.files.push("a/m.gone.module");
    await c.writeFile(MANIFEST, Buffer.from(JSON.stringify(record)));
    // As an update over the air would have left it: a release in slot b, the record naming it.
    await c.writeFile("b/main.js", Buffer.from("print('release in slot b')"));
    await c.writeFile(".slots.0", Buffer.from("1 0 {}"));
  });
  const r = await flash(["--port", PORT]);
  assert.is(r.code, 0, shown(r));
  assert.match(r.out, /removed a\/m\.gone\.module \(not part of this build\)/, shown(r));
  assert.match(r.out, /removed b\/main\.js \(slot b: the flashed firmware is in slot a\)/, shown(r));
  assert.match(r.out, /removed \.slots\.0 \(the slot record: slot a runs\)/, shown(r));
  assert.match(r.out, /kept: .*notes\.txt/, shown(r));
  await device!.waitForApi();
  assert.is(await wifiState(), "connected", "the configuration survived");
  const get = await api("GET", device!.url + "/api/v1/settings");
  assert.is(get.body.brightness, 42, "the setting survived");
  await withConsole(async (c) => {
    const stored = await c.list();
    assert.ok(stored.indexOf("notes.txt") >= 0, "the user's file survived");
    assert.is(stored.indexOf("a/m.gone.module"), -1, "the stale module was removed");
    assert.equal(stored.filter((n) => n.startsWith("b/") || n.startsWith(".slots.")), [], "slot b and the record are gone");
    assert.is(await c.read("notes.txt"), "kept across flashes");
    const record = JSON.parse((await c.read(MANIFEST))!);
    assert.is(record.files.indexOf("a/m.gone.module"), -1);
    assert.ok(record.files.indexOf(".bootcde") >= 0);
  });
});

test("Storage full: refused before anything is changed", async () => {
  if (!bin) return;
  // A firmware file the flash must write back, and a file of the user's that takes the room for it.
  // (Storage is compacted to make that room exact, so the firmware, whose code runs from Storage,
  // is stopped first.)
  await withConsole(async (c) => {
    await c.eval("reset()");
    await sleep(500);
    await c.erase("a/index.html");
    await c.eval("require(\"Storage\").compact()", 60000);
    const stats = await c.eval<{ freeBytes: number }>("require(\"Storage\").getStats()");
    assert.ok(await c.eval("require(\"Storage\").write(\"big.bin\",\"x\",0," + (stats.freeBytes - 32 - 512) + ")"));
    await c.eval("global.untouched=1");
  });
  const r = await flash(["--port", PORT], false);
  assertClearFailure(r, /Storage full: .*Nothing was changed/);
  await withConsole(async (c) => {
    assert.is(await c.eval("typeof untouched"), "number", "no reset, no restart");
    const stored = await c.list();
    assert.ok(stored.indexOf(".bootcde") >= 0 && stored.indexOf("big.bin") >= 0);
    assert.is(stored.indexOf("a/index.html"), -1);
    await c.erase("big.bin");
  });
});

test("--wipe: settings, configuration and user files go, Espruino's boot hooks stay", async () => {
  if (!bin) return;
  const r = await flash(["--port", PORT, "--wipe"]);
  assert.is(r.code, 0, shown(r));
  assert.match(r.out, /removed notes\.txt \(wiped\)/, shown(r));
  assert.match(r.out, /\n {2}a\/index\.html +[\d,]+ bytes\n/, "the missing firmware file is written back" + shown(r));
  await device!.waitForApi();
  assert.is.not(await wifiState(), "connected", "back in setup mode: the configuration is gone");
  await withConsole(async (c) => {
    const stored = await c.list();
    assert.ok(stored.indexOf(".boot0") >= 0, ".boot0 stays");
    assert.equal(stored.filter((n) => n === "notes.txt" || /^(set|sys)\./.test(n)), []);
  });
  await joinNetwork();
  const get = await api("GET", device!.url + "/api/v1/settings");
  assert.is(get.body.brightness, 120, "the setting is back to its default");
});

test.run();
