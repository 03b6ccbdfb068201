// Backup and restore as a client sees them: GET /api/v1/backup streams an archive that unzip
// accepts; backup, factory reset, restore (in setup mode, as a blank clock is restored) and a
// reboot give back the same clock; restore answers its own result shape, 400 for an archive it
// refuses, 400 badRequest without a file; both routes keep to the login, cross-site and setup
// rules; credentials restored are the ones the next request needs.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTarget, call, type Answer, type Target } from "./target";
import { makeZip, noise, tool, unzipTest, type TestEntry } from "../unit/backup-archives";
import type { SimStorage } from "../harness/storage";

const BOUNDARY = "pixloopRestoreBoundary5551212";
const MANIFEST: TestEntry = { name: "manifest.json", data: '{"app":"pixloop","backupFormat":1}' };

function multipart(parts: { field: string; filename?: string; data: Buffer }[]): Buffer {
  const out: Buffer[] = [];
  for (const p of parts) {
    out.push(Buffer.from("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + p.field + "\"" +
      (p.filename ? "; filename=\"" + p.filename + "\"\r\nContent-Type: application/zip" : "") + "\r\n\r\n", "latin1"), p.data,
    Buffer.from("\r\n", "latin1"));
  }
  out.push(Buffer.from("--" + BOUNDARY + "--\r\n", "latin1"));
  return Buffer.concat(out);
}

async function send(t: Target, path: string, body: Buffer, headers: { [k: string]: string } = {}): Promise<Answer> {
  const r = await fetch(t.url + path, {
    method: "POST", headers: Object.assign({ "Content-Type": "multipart/form-data; boundary=" + BOUNDARY }, headers),
    body: new Uint8Array(body),
  });
  const text = await r.text();
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch (e) { parsed = undefined; }
  return { status: r.status, headers: r.headers, text, body: parsed };
}

function restore(t: Target, archive: Buffer, headers: { [k: string]: string } = {}): Promise<Answer> {
  return send(t, "/api/v1/restore", multipart([{ field: "file", filename: "pixloop-backup.zip", data: archive }]), headers);
}

async function backup(t: Target, query = "", headers: { [k: string]: string } = {}): Promise<{ status: number; headers: Headers; data: Buffer }> {
  const r = await fetch(t.url + "/api/v1/backup" + query, { headers });
  return { status: r.status, headers: r.headers, data: Buffer.from(await r.arrayBuffer()) };
}

/** The entries of an archive (sizes in its local headers, as the backup writes them). */
function entriesOf(archive: Buffer): { [name: string]: string } {
  const out: { [name: string]: string } = {};
  let at = 0;
  while (archive.readUInt32LE(at) === 0x04034b50) {
    const size = archive.readUInt32LE(at + 18);
    const n = archive.readUInt16LE(at + 26);
    const x = archive.readUInt16LE(at + 28);
    const name = archive.toString("latin1", at + 30, at + 30 + n);
    out[name] = archive.toString("latin1", at + 30 + n + x, at + 30 + n + x + size);
    at += 30 + n + x + size;
  }
  assert.is(archive.readUInt32LE(at), 0x02014b50, "the central directory follows the entries");
  return out;
}

async function restart(t: Target, path: string): Promise<void> {
  const booted = t.nextBoot();
  const r = await call(t, "POST", path);
  assert.is(r.status, 200, r.text);
  await booted;
  await t.waitForServer();
}

/** What makes the clock this clock, as the API shows it. */
async function snapshot(t: Target): Promise<object> {
  const get = async (path: string) => {
    const r = await call(t, "GET", path);
    assert.is(r.status, 200, path + ": " + r.text);
    return r.body;
  };
  const files: { [dir: string]: unknown } = {};
  for (const dir of ["/ICONS", "/MELODIES", "/PALETTES", "/MP3"]) files[dir] = (await get("/api/v1/files?dir=" + dir)).files;
  return { system: await get("/api/v1/system?secrets=1"), settings: await get("/api/v1/settings"), apps: await get("/api/v1/apps"), files };
}

/** Fills the simulated flash until `leave` bytes are free. */
function fillTo(storage: SimStorage, leave: number): void {
  for (let i = 0; storage.getFree() > leave + 64; i++) {
    if (!storage.write("filler" + i, "\xff".repeat(Math.min(60000, storage.getFree() - leave - 40)))) break;
  }
}

/** A 1x1 GIF of one colour. */
function gif(color: number): Buffer {
  const b = Buffer.from("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00" +
    "\x02\x02D\x01\x00;", "latin1");
  b[13] = (color >> 16) & 255;
  b[14] = (color >> 8) & 255;
  b[15] = color & 255;
  return b;
}

// ---------------------------------------------------------------------------------------------
const t = suite("backup and restore");
let dut: Target;

t.before(async () => { dut = await startTarget(); });
t.after(async () => { await dut.stop(); });

t("backup, factory reset, restore in setup mode, reboot: the same clock", async () => {
  const ok = (r: Answer) => assert.ok(r.status === 200, r.text);
  ok(await call(dut, "PUT", "/api/v1/system", { body: { hostname: "hall-clock", tz: "GMT0BST,M3.5.0/1,M10.5.0", tzName: "Europe/London",
    mqttHost: "broker.local", mqttPass: "mq-secret", minBrightness: 4 } }));
  ok(await call(dut, "PATCH", "/api/v1/settings", { body: { brightness: 61, timeColor: "#123456", scroll: { speed: 70 } } }));
  ok(await call(dut, "PUT", "/api/v1/apps/order", { body: { order: ["date", "time", "date"], disabled: ["humidity"] } }));
  const icon = gif(0xff8800);
  const long = "a-rather-long-icon-name-for-the-index.gif";
  ok(await send(dut, "/api/v1/files?dir=/ICONS", multipart([{ field: "file", filename: "mail.gif", data: icon },
    { field: "file", filename: long, data: gif(0x0000ff) }])));
  ok(await send(dut, "/api/v1/files?dir=/PALETTES", multipart([{ field: "file", filename: "warm.txt", data: Buffer.from("FF8800\n400000\n") }])));
  ok(await send(dut, "/api/v1/files?dir=/MELODIES", multipart([{ field: "file", filename: "bell.txt", data: Buffer.from("bell:d=4,o=5,b=120:c,e,g") }])));
  const before = await snapshot(dut);

  const taken = await backup(dut, "?secrets=1");
  assert.is(taken.status, 200);
  assert.is(taken.headers.get("content-type"), "application/zip");
  assert.is(taken.headers.get("access-control-allow-origin"), null, "a guarded answer carries no CORS header");
  const entries = entriesOf(taken.data);
  assert.equal(Object.keys(entries), ["manifest.json", "config/wifi.json", "config/system.json", "config/settings.json", "apploop.json",
    "ICONS/" + long, "ICONS/mail.gif", "MELODIES/bell.txt", "PALETTES/warm.txt"]);
  assert.is(entries["ICONS/mail.gif"], icon.toString("latin1"));
  assert.is(JSON.parse(entries["config/system.json"]).mqttPass, "mq-secret");
  if (tool("unzip")) assert.is(unzipTest(taken.data), null);

  await restart(dut, "/api/v1/device/factory-reset");
  assert.is((await call(dut, "GET", "/api/v1/device")).body.wifi.state, "accessPoint");
  assert.is((await call(dut, "GET", "/api/v1/system")).body.hostname, "");

  const r = await restore(dut, taken.data);
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, { ok: true, applied: { wifi: 1, system: 1, settings: 1, appLoop: 1, icons: 2, melodies: 1, palettes: 1, mp3: 0,
    skipped: 0 }, warnings: [] });
  assert.is(r.headers.get("access-control-allow-origin"), null);
  // Restored system settings (the network among them) apply at the next start.
  await restart(dut, "/api/v1/device/reboot");
  assert.is((await call(dut, "GET", "/api/v1/device")).body.wifi.state, "connected");
  assert.equal(await snapshot(dut), before);
  // And the files hold the same bytes: a backup of the restored clock is the same archive.
  const again = entriesOf((await backup(dut, "?secrets=1")).data);
  assert.equal(again, entries);
});

t("a backup without ?secrets=1 holds none; ?secrets=1 is refused to other sites", async () => {
  assert.is((await call(dut, "PUT", "/api/v1/system", { body: { wifiPass: "w-secret", mqttPass: "m-secret" } })).status, 200);
  const plain = await backup(dut, "", { Origin: "http://dashboard.example" });
  assert.is(plain.status, 200);
  assert.is(plain.headers.get("access-control-allow-origin"), "*");
  const text = plain.data.toString("latin1");
  for (const secret of ["w-secret", "m-secret", "wifiPass", "mqttPass", "authPass"]) assert.is(text.indexOf(secret), -1, secret);
  assert.is(JSON.parse(entriesOf(plain.data)["manifest.json"]).secrets, false);
  const foreign: { [k: string]: string }[] = [{ Origin: "http://evil.example" }, { "Sec-Fetch-Site": "cross-site" }];
  for (const headers of foreign) {
    const r = await call(dut, "GET", "/api/v1/backup?secrets=1", { headers });
    assert.is(r.status, 403, r.text);
    assert.is(r.body.error.code, "forbiddenOrigin");
    assert.is(r.headers.get("access-control-allow-origin"), null);
  }
  const full = entriesOf((await backup(dut, "?secrets=1", { Origin: dut.url })).data);
  assert.is(JSON.parse(full["config/wifi.json"]).wifiPass, "w-secret");
});

t("restore refuses other sites, changing nothing", async () => {
  const archive = makeZip([MANIFEST, { name: "config/settings.json", data: '{"brightness":13}' }]);
  const foreign: { [k: string]: string }[] = [{ Origin: "http://evil.example" }, { "Sec-Fetch-Site": "same-site" }];
  for (const headers of foreign) {
    const r = await restore(dut, archive, headers);
    assert.is(r.status, 403, r.text);
    assert.is(r.body.error.code, "forbiddenOrigin");
  }
  assert.is.not((await call(dut, "GET", "/api/v1/settings")).body.brightness, 13);
  const own = await restore(dut, archive, { Origin: dut.url });
  assert.is(own.status, 200, own.text);
  assert.is((await call(dut, "GET", "/api/v1/settings")).body.brightness, 13);
});

t("the restore result: 400 with ok false for a refused archive, 400 badRequest for none", async () => {
  const foreign = await restore(dut, makeZip([{ name: "manifest.json", data: '{"app":"awtrix-ng","backupFormat":1}' },
    { name: "config/settings.json", data: '{"brightness":14}' }]));
  assert.is(foreign.status, 400);
  assert.equal(foreign.body, { ok: false, error: 'not a pixloop backup: its manifest names app "awtrix-ng"',
    applied: { wifi: 0, system: 0, settings: 0, appLoop: 0, icons: 0, melodies: 0, palettes: 0, mp3: 0, skipped: 0 }, warnings: [] });
  assert.is.not((await call(dut, "GET", "/api/v1/settings")).body.brightness, 14);
  const text = await restore(dut, Buffer.from("not an archive at all"));
  assert.equal([text.status, text.body.ok, text.body.error], [400, false, "not a ZIP archive"]);
  const none = await send(dut, "/api/v1/restore", multipart([{ field: "comment", data: Buffer.from("hello") }]));
  assert.is(none.status, 400, none.text);
  assert.equal(none.body, { error: { code: "badRequest", message: "no backup file received" } });
  // Skipped entries are warnings of a restore that goes on.
  const mixed = await restore(dut, makeZip([MANIFEST, { name: "../../evil.gif", data: gif(1) },
    { name: "PALETTES/p.txt", data: "00FF00\n", crc: 3 }, { name: "config/settings.json", data: '{"brightness":15}', descriptor: "signed" }]));
  assert.is(mixed.status, 200, mixed.text);
  assert.equal(mixed.body.warnings, ["../../evil.gif: the path leaves the archive; skipped", "PALETTES/p.txt: its CRC-32 does not match; skipped"]);
  assert.equal(mixed.body.applied.settings, 1);
  assert.equal((await call(dut, "GET", "/api/v1/files?dir=/PALETTES")).body.files.map((f: { name: string }) => f.name).indexOf("p.txt"), -1);
});

t("credentials from the archive are in force for the very next request", async () => {
  const basic = (u: string, p: string) => ({ Authorization: "Basic " + Buffer.from(u + ":" + p).toString("base64") });
  const r = await restore(dut, makeZip([MANIFEST, { name: "config/system.json",
    data: JSON.stringify({ authEnabled: true, authUser: "owner", authPass: "from-backup" }) }]));
  assert.is(r.status, 200, r.text);
  assert.is(r.body.applied.system, 1);
  assert.is((await call(dut, "GET", "/api/v1/device")).status, 401);
  assert.is((await call(dut, "GET", "/api/v1/device", { headers: basic("owner", "from-backup") })).status, 200);
  // A restore needs them too, and is answered 401 only once the upload has been read.
  const refused = await restore(dut, makeZip([MANIFEST, { name: "config/system.json", data: '{"authEnabled":false}' }]));
  assert.is(refused.status, 401, refused.text);
  const off = await restore(dut, makeZip([MANIFEST, { name: "config/system.json", data: '{"authEnabled":false}' }]), basic("owner", "from-backup"));
  assert.is(off.status, 200, off.text);
  assert.is((await call(dut, "GET", "/api/v1/device")).status, 200);
});

t("a 200 KB archive is restored, files byte for byte", async () => {
  const mp3 = Buffer.concat([Buffer.from("ID3\x03\x00", "latin1"), noise(120000, 7)]);
  const icons: TestEntry[] = [];
  for (let i = 0; i < 8; i++) icons.push({ name: "ICONS/n" + i + ".gif", data: Buffer.concat([gif(i * 0x111111), noise(9000, i)]) });
  const archive = makeZip(([MANIFEST, { name: "MP3/big.mp3", data: mp3, descriptor: "signed" }] as TestEntry[]).concat(icons));
  assert.ok(archive.length > 190000);
  const r = await restore(dut, archive);
  assert.is(r.status, 200, r.text);
  assert.equal([r.body.applied.mp3, r.body.applied.icons, r.body.warnings], [1, 8, []]);
  const back = entriesOf((await backup(dut)).data);
  assert.is(back["MP3/big.mp3"], mp3.toString("latin1"));
  for (const e of icons) assert.is(back[e.name], (e.data as Buffer).toString("latin1"), e.name);
});

t("what does not fit: 507, the rest restored", async () => {
  if (!dut.sim) return;
  const archive = makeZip([MANIFEST, { name: "config/settings.json", data: '{"brightness":16}' },
    { name: "MP3/huge.mp3", data: Buffer.concat([Buffer.from("ID3"), noise(200000, 2)]) }]);
  fillTo(dut.sim.device.storage, 150000);
  const r = await restore(dut, archive);
  assert.is(r.status, 507, r.text);
  assert.is(r.body.error.code, "insufficientStorage");
  assert.is((await call(dut, "GET", "/api/v1/settings")).body.brightness, 16);
});

t.run();

// ---------------------------------------------------------------------------------------------
const setup = suite("backup in setup mode");
let fresh: Target;

setup.before(async () => { fresh = await startTarget({ setup: true }); });
setup.after(async () => { await fresh.stop(); });

setup("no backup from the open access point; restore is allowed", async () => {
  const r = await call(fresh, "GET", "/api/v1/backup");
  assert.is(r.status, 403, r.text);
  assert.is(r.body.error.code, "forbidden");
  const ok = await restore(fresh, makeZip([MANIFEST, { name: "config/wifi.json", data: '{"wifiSsid":"pixloop-sim","wifiPass":"x"}' }]));
  assert.is(ok.status, 200, ok.text);
  assert.is(ok.body.applied.wifi, 1);
  assert.is((await call(fresh, "GET", "/api/v1/system")).body.wifiSsid, "pixloop-sim");
});

setup.run();
