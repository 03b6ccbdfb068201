// GET /api/v1/backup's archive, taken piece by piece as the transport takes it: what it holds
// (secrets only when asked), that unzip and the restore's own reader accept it, that no piece is
// more than a slice of a file, and that a clock restored from it is the clock it was taken from.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { loadModule } from "../../firmware/platform/modules";
import type { ApiRequest, Handler, Reply } from "../../firmware/http/types";
import type { MakeUpload, UploadSink } from "../../firmware/http/upload";
import { publicView } from "../../firmware/system/schema";
import { publicSettings } from "../../firmware/settings/schema";
import { ZipReader } from "../../firmware/backup/zip";
import { listFiles, publish, storedSource } from "../../firmware/files/store";
import { crcOf, makeClock, noise, tool, unzipAll, unzipTest, type Clock } from "./backup-support";

function request(body: unknown, query: { [k: string]: string } = {}): ApiRequest {
  return { method: "PUT", path: "", query, header: () => "", body, raw: "", params: {} };
}

function call(c: Clock, handler: string, body: unknown): void {
  const out = loadModule<Handler>(handler)(request(body), c.app);
  assert.ok(!("code" in out), handler + ": " + JSON.stringify(out));
}

/** The archive as the transport would send it, and the length of each piece. */
function takeBackup(c: Clock, secrets: boolean): { archive: Buffer; reply: Reply; sizes: number[] } {
  const reply = loadModule<Handler>("backup/backup")(request(undefined, secrets ? { secrets: "1" } : {}), c.app) as Reply;
  assert.ok(reply.chunks, "a streamed answer");
  let out = reply.text || "";
  const sizes: number[] = [];
  for (let piece = reply.chunks(); piece !== undefined; piece = reply.chunks()) {
    sizes.push(piece.length);
    out += piece;
    assert.ok(sizes.length < 10000, "the archive ends");
  }
  assert.is(reply.chunks(), undefined, "and stays ended");
  return { archive: Buffer.from(out, "latin1"), reply, sizes };
}

/** Entries of an archive as the restore's reader finds them. */
function entries(archive: Buffer): { [name: string]: string } {
  const out: { [name: string]: string } = {};
  let name = "";
  const r = new ZipReader({
    open: (e) => { name = e.name; out[name] = ""; return true; },
    bytes: (d) => { out[name] += d; },
    close: (problem) => assert.is(problem, "", name),
  });
  r.feed(archive.toString("latin1"));
  r.end();
  assert.is(r.error, "");
  assert.ok(r.done);
  return out;
}

const GIF = Buffer.concat([Buffer.from("GIF89a"), noise(5000, 4)]).toString("latin1");
const MP3 = Buffer.concat([Buffer.from("ID3"), noise(30000, 5)]).toString("latin1");
/** Too long for a Storage name: kept under the files API's index of long names. */
const LONG = "a-long-icon-name-kept-through-the-index.gif";

/** A clock with everything a backup carries set away from the defaults. */
function configured(c: Clock): void {
  call(c, "system/put", { wifiSsid: "home", wifiPass: "wpass", hostname: "hall", tz: "GMT0BST,M3.5.0/1,M10.5.0",
    mqttEnabled: true, mqttHost: "broker", mqttPass: "mpass", authEnabled: true, authUser: "me", authPass: "apass", minBrightness: 3 });
  call(c, "settings/patch", { brightness: 42, scroll: { speed: 60 }, weekdayBar: { show: false }, timeColor: "#123456" });
  call(c, "apps/order", { order: ["temperature", "time", "time"], disabled: ["date"] });
  c.storage.write("I/mail.gif", GIF);
  c.storage.write("M/tune.txt", "tune:d=4,o=5,b=100:c");
  c.storage.write("P/warm.txt", "FF8800\n");
  c.storage.write("3/ding.mp3", MP3);
  c.storage.write("src", GIF.substr(0, 700));
  assert.is(publish("/ICONS", LONG, storedSource("src") as NonNullable<ReturnType<typeof storedSource>>), null);
  c.storage.erase("src");
  // Not the user's: a decoded icon cache, the firmware's own files.
  c.storage.write("c/0badf00d", "cache");
  c.storage.write("m.some.module", "module");
}

let a: Clock;
test.before.each(() => {
  a = makeClock();
});
test.after.each(() => {
  a.close();
});

test("the archive: entries in order, a zip answer, secrets only when asked", () => {
  configured(a);
  const plain = takeBackup(a, false);
  assert.is(plain.reply.status, 200);
  assert.is(plain.reply.contentType, "application/zip");
  assert.equal(plain.reply.headers, { "Content-Disposition": "attachment; filename=\"pixloop-backup.zip\"" });
  const e = entries(plain.archive);
  assert.equal(Object.keys(e), ["manifest.json", "config/wifi.json", "config/system.json", "config/settings.json", "apploop.json",
    "ICONS/" + LONG, "ICONS/mail.gif", "MELODIES/tune.txt", "PALETTES/warm.txt", "MP3/ding.mp3"]);
  assert.is(e["ICONS/" + LONG], GIF.substr(0, 700));
  assert.equal(JSON.parse(e["manifest.json"]), { app: "pixloop", backupFormat: 1, version: "1.2.3", board: "esp32", secrets: false });
  assert.equal(JSON.parse(e["config/wifi.json"]), { wifiSsid: "home" });
  const sys = JSON.parse(e["config/system.json"]);
  const all = publicView(a.app.system.config, false);
  delete all.wifiSsid;
  assert.equal(sys, all);
  assert.equal(JSON.parse(e["config/settings.json"]), publicSettings(a.app.settings.current));
  assert.equal(JSON.parse(e["apploop.json"]), { order: ["temperature", "time", "time"], disabled: ["date"] });
  assert.is(e["ICONS/mail.gif"], GIF);
  assert.is(e["MP3/ding.mp3"], MP3);

  const full = entries(takeBackup(a, true).archive);
  assert.equal(JSON.parse(full["config/wifi.json"]), { wifiSsid: "home", wifiPass: "wpass" });
  const withSecrets = JSON.parse(full["config/system.json"]);
  assert.equal([withSecrets.mqttPass, withSecrets.authPass, withSecrets.wifiPass], ["mpass", "apass", undefined]);
  assert.equal(JSON.parse(full["manifest.json"]).secrets, true);
  for (const text of [plain.archive.toString("latin1")]) {
    for (const secret of ["wpass", "mpass", "apass"]) assert.is(text.indexOf(secret), -1, secret + " left out");
  }
});

test("a factory-fresh clock: no Wi-Fi entry, no order key, no files", () => {
  const e = entries(takeBackup(a, false).archive);
  assert.equal(Object.keys(e), ["manifest.json", "config/system.json", "config/settings.json", "apploop.json"]);
  assert.equal(JSON.parse(e["apploop.json"]), { disabled: [] });
});

test("Info-ZIP's unzip takes the archive, every CRC and size checked", () => {
  configured(a);
  const { archive } = takeBackup(a, true);
  if (!tool("unzip")) return console.log("  unzip not installed: skipped");
  assert.is(unzipTest(archive), null);
  const files = unzipAll(archive);
  assert.is(files["ICONS/mail.gif"].toString("latin1"), GIF);
  assert.is(files["MP3/ding.mp3"].toString("latin1"), MP3);
  assert.equal(JSON.parse(files["manifest.json"].toString()).app, "pixloop");
});

test("streamed in slices: no piece holds more than a header and 1 KB of a file", () => {
  configured(a);
  const { sizes, archive } = takeBackup(a, false);
  // Past the five configuration entries (each sent whole, the settings the largest at about 1.2 KB).
  const files = sizes.slice(5);
  assert.ok(Math.max(...files) <= 1024 + 30 + 64, "largest piece of a file " + Math.max(...files));
  assert.ok(sizes.length > MP3.length / 1024, "the MP3 alone takes " + Math.ceil(MP3.length / 1024) + " pieces");
  // The CRC-32 in each local header is the file's.
  const s = archive.toString("latin1");
  const at = s.indexOf("PK\x03\x04" + "\x0a\x00");
  assert.ok(at === 0);
  const mp3 = s.indexOf("MP3/ding.mp3");
  assert.is(Buffer.from(s.substr(mp3 - 16, 4), "latin1").readUInt32LE(0), crcOf(MP3));
});

test("a file erased while the archive is sent is left out; one changed keeps its place and fails its CRC", () => {
  configured(a);
  const reply = loadModule<Handler>("backup/backup")(request(undefined), a.app) as Reply;
  let out = "";
  let piece = reply.chunks && reply.chunks();
  // Through the configuration entries, the long-named icon and into mail.gif (its header and first
  // kilobyte are the piece in hand when the files change).
  for (let i = 0; i < 6 && piece !== undefined; i++, piece = (reply.chunks as () => string | undefined)()) out += piece;
  assert.ok(piece !== undefined && piece.indexOf("ICONS/mail.gif") === 30, "mail.gif begun");
  a.storage.erase("M/tune.txt");
  a.storage.write("I/mail.gif", "GIF89a shorter now");
  for (; piece !== undefined; piece = (reply.chunks as () => string | undefined)()) out += piece;
  const found: string[] = [];
  const problems: string[] = [];
  let name = "";
  const r = new ZipReader({ open: (e) => { name = e.name; found.push(name); return true; }, bytes: () => undefined,
    close: (p) => { if (p) problems.push(name + ": " + p); } });
  r.feed(out);
  r.end();
  assert.ok(r.done);
  assert.ok(found.indexOf("MELODIES/tune.txt") < 0);
  assert.equal(problems, ["ICONS/mail.gif: its CRC-32 does not match"]);
  assert.ok(found.indexOf("MP3/ding.mp3") > 0, "the entries after it are intact");
  if (tool("unzip")) assert.ok(unzipTest(Buffer.from(out, "latin1")) !== null, "unzip sees the damage too");
});

test("backup, factory reset, restore: the same clock", () => {
  configured(a);
  const { archive } = takeBackup(a, true);
  const b = makeClock();
  try {
    const sink = loadModule<MakeUpload>("backup/restore")(request(undefined), b.app) as UploadSink;
    sink.begin("file", "pixloop-backup.zip", "application/zip");
    const s = archive.toString("latin1");
    for (let at = 0; at < s.length; at += 536) sink.data(s.substr(at, 536));
    sink.end();
    const r = sink.finish() as Reply;
    assert.equal(r.json, { ok: true, applied: { wifi: 1, system: 1, settings: 1, appLoop: 1, icons: 2, melodies: 1, palettes: 1,
      mp3: 1, skipped: 0 }, warnings: [] });
    assert.equal(publicView(b.app.system.config, true), publicView(a.app.system.config, true));
    assert.equal(publicSettings(b.app.settings.current), publicSettings(a.app.settings.current));
    assert.equal([b.app.display.loop.order, b.app.display.loop.off], [a.app.display.loop.order, a.app.display.loop.off]);
    for (const name of ["I/mail.gif", "M/tune.txt", "P/warm.txt", "3/ding.mp3"]) assert.is(b.storage.read(name), a.storage.read(name), name);
    // The long name through the index of the clock restored into.
    const icons = listFiles("/ICONS");
    assert.equal(icons.map((f) => f.split("\u0000")[0]), [LONG, "mail.gif"]);
    assert.is(b.storage.read(icons[0].split("\u0000")[1]), GIF.substr(0, 700));
    assert.is(b.storage.read("c/0badf00d"), undefined);
  } finally {
    b.close();
  }
});

test.run();
