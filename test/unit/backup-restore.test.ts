// POST /api/v1/restore's sink, fed parts and chunks as the upload transport feeds it, on a clock
// whose stores, route handlers and Storage are the firmware's own: what a good archive applies
// (in every split), what each kind of bad archive or entry leads to, that a file is never seen
// before its CRC-32 has checked out, and the 507 of a restore that did not fit.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { loadModule } from "../../firmware/platform/modules";
import type { MakeUpload, UploadSink } from "../../firmware/http/upload";
import type { ApiRequest, Reply } from "../../firmware/http/types";
import type { Failure } from "../../firmware/core/failure";
import { publicView } from "../../firmware/system/schema";
import { clockMemory, makeClock, makeZip, noise, pieces, tool, userFiles, zipStreamed, type Clock, type TestEntry } from "./backup-support";

const MANIFEST: TestEntry = { name: "manifest.json", data: '{"app":"pixloop","backupFormat":1,"version":"0.1.0"}' };
const GIF = Buffer.concat([Buffer.from("GIF89a"), noise(2000, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), noise(9000, 2)]);
const MELODY = "tune:d=4,o=5,b=100:c,e,g,8c6";
const PALETTE = "FF0000@0\n00FF00@50\n#0000FF@100\n";
const MP3 = Buffer.concat([Buffer.from("ID3\x03\x00", "latin1"), noise(20000, 3)]);
const NONE = { wifi: 0, system: 0, settings: 0, appLoop: 0, icons: 0, melodies: 0, palettes: 0, mp3: 0, skipped: 0 };

function full(): TestEntry[] {
  return [
    MANIFEST,
    { name: "config/wifi.json", data: JSON.stringify({ wifiSsid: "home", wifiPass: "secret" }) },
    { name: "config/system.json", data: JSON.stringify({ tz: "EST5EDT,M3.2.0,M11.1.0", tzName: "America/New_York", hostname: "kitchen", maxBrightness: 180, wifiSsid: "ignored here" }) },
    { name: "config/settings.json", data: JSON.stringify({ brightness: 77, textColor: "#00FF00", transitionEffect: "Fade" }) },
    { name: "apploop.json", data: JSON.stringify({ order: ["date", "time"], disabled: ["battery"] }) },
    { name: "ICONS/mail.gif", data: GIF },
    { name: "ICONS/photo.jpg", data: JPEG, descriptor: "signed" },
    { name: "MELODIES/tune.txt", data: MELODY },
    { name: "PALETTES/warm.txt", data: PALETTE, descriptor: "bare" },
    { name: "MP3/ding.mp3", data: MP3 },
  ];
}

const REQ: ApiRequest = { method: "POST", path: "/api/v1/restore", query: {}, header: () => "", body: undefined, raw: "", params: {} };

/** The sink of one upload. */
function sinkFor(c: Clock): UploadSink {
  const made = loadModule<MakeUpload>("backup/restore")(REQ, c.app);
  assert.ok(!("code" in made), "a sink is made");
  return made as UploadSink;
}

/** One upload of `archive` in field `file`, in pieces of `sizes`. */
function restore(c: Clock, archive: Buffer, sizes: number[] = [536]): Reply | Failure {
  const sink = sinkFor(c);
  assert.is(sink.begin("file", "backup.zip", "application/zip"), null);
  for (const p of pieces(archive, sizes)) assert.is(sink.data(p), null);
  assert.is(sink.end(), null);
  return sink.finish();
}

function body(r: Reply | Failure): any {
  assert.ok("json" in r, "a restore result: " + JSON.stringify(r));
  return (r as Reply).json;
}

/** Back to a clock with nothing stored. */
function wipe(c: Clock): void {
  for (const name of c.storage.list()) if (!name.startsWith("chip.")) c.storage.erase(name);
  c.app.system.load();
  c.app.settings.load();
  c.app.display.loop.order = null;
  c.app.display.loop.off = [];
}

function assertFullyApplied(c: Clock, r: Reply | Failure): void {
  assert.is((r as Reply).status, 200, JSON.stringify(r));
  assert.equal(body(r), { ok: true, applied: { wifi: 1, system: 1, settings: 1, appLoop: 1, icons: 2, melodies: 1, palettes: 1, mp3: 1, skipped: 0 }, warnings: [] });
  const cfg = c.app.system.config;
  assert.is(cfg.wifiSsid, "home");
  assert.is(cfg.wifiPass, "secret");
  assert.is(cfg.tz, "EST5EDT,M3.2.0,M11.1.0");
  assert.is(cfg.hostname, "kitchen");
  assert.is(cfg.maxBrightness, 180);
  assert.is(c.app.settings.current.brightness, 77);
  assert.is(c.app.settings.current.textColor, 0x00ff00);
  assert.is(c.app.settings.current.transitionEffect, "Fade");
  assert.equal(c.app.display.loop.order, ["date", "time"]);
  assert.equal(c.app.display.loop.off, ["battery"]);
  assert.is(c.storage.read("I/mail.gif"), GIF.toString("latin1"));
  assert.is(c.storage.read("I/photo.jpg"), JPEG.toString("latin1"));
  assert.is(c.storage.read("M/tune.txt"), MELODY);
  assert.is(c.storage.read("P/warm.txt"), PALETTE);
  assert.is(c.storage.read("3/ding.mp3"), MP3.toString("latin1"));
  assert.equal(c.storage.list(/^~/), [], "no temporary blocks left");
}

let clock: Clock;
test.before.each(() => {
  clock = makeClock();
});
test.after.each(() => {
  clock.close();
});

test("a whole archive: every entry applied through its route, counted, and kept over a restart", () => {
  const r = restore(clock, makeZip(full()));
  assertFullyApplied(clock, r);
  // The zone is compiled by the display at once, as PUT /api/v1/system does it (wifi.json, a PUT
  // too, gave it the zone in force then).
  assert.equal(clock.zones, ["CET-1CEST,M3.5.0,M10.5.0/3", "EST5EDT,M3.2.0,M11.1.0"]);
  // Wi-Fi travels in its own entry: the SSID inside system.json was not applied.
  const dir = clock.storage.dir;
  const files = userFiles(clock.storage);
  clock.close(true);
  clock = makeClock(undefined, dir);
  assert.is(clock.app.system.config.wifiSsid, "home");
  assert.is(clock.app.system.config.hostname, "kitchen");
  assert.is(clock.app.settings.current.brightness, 77);
  assert.equal(userFiles(clock.storage), files);
  const order = JSON.parse(((clock.storage.read("apploop.0") || clock.storage.read("apploop.1")) as string).split(" ").slice(2).join(" "));
  assert.equal(order, { order: ["date", "time"], disabled: ["battery"] });
});

test("the same result in every piece size, and for every cut of a smaller archive", () => {
  const archive = makeZip(full());
  // (Byte by byte, below, on the smaller one: each byte is a Storage write, slow on the host's files.)
  for (const sizes of [[7, 300, 13], [536], [4096], [archive.length]]) {
    wipe(clock);
    assertFullyApplied(clock, restore(clock, archive, sizes));
  }
  const small: TestEntry[] = [MANIFEST, { name: "config/settings.json", data: '{"brightness":33}', descriptor: "bare" },
    { name: "PALETTES/p.txt", data: "123456\n", descriptor: "signed" }, { name: "ICONS/i.gif", data: "GIF87a\x01\x02PK\x07\x08" }];
  const s = makeZip(small).toString("latin1");
  wipe(clock);
  assert.equal(body(restore(clock, makeZip(small), [1])).applied, Object.assign({}, NONE, { settings: 1, palettes: 1, icons: 1 }));
  for (let cut = 1; cut < s.length; cut++) {
    wipe(clock);
    const sink = sinkFor(clock);
    sink.begin("file", "b.zip", "application/zip");
    sink.data(s.substr(0, cut));
    sink.data(s.substr(cut));
    sink.end();
    const r = sink.finish();
    assert.equal(body(r).applied, Object.assign({}, NONE, { settings: 1, palettes: 1, icons: 1 }), "cut at " + cut);
    assert.is(clock.app.settings.current.brightness, 33);
    assert.is(clock.storage.read("P/p.txt"), "123456\n");
    assert.is(clock.storage.read("I/i.gif"), "GIF87a\x01\x02PK\x07\x08");
  }
});

test("an archive from Info-ZIP's zip (data descriptors throughout)", () => {
  if (!tool("zip")) return console.log("  zip not installed: skipped");
  const archive = zipStreamed({ "manifest.json": MANIFEST.data, "config/settings.json": '{"brightness":12}', "ICONS/mail.gif": GIF,
    "MP3/ding.mp3": MP3 });
  const r = restore(clock, archive);
  assert.equal(body(r), { ok: true, applied: Object.assign({}, NONE, { settings: 1, icons: 1, mp3: 1 }), warnings: [] });
  assert.is(clock.storage.read("I/mail.gif"), GIF.toString("latin1"));
  assert.is(clock.storage.read("3/ding.mp3"), MP3.toString("latin1"));
});

test("refused whole: a foreign or unsupported manifest, an entry before it, none, not a ZIP", () => {
  const cases: [Buffer, string][] = [
    [makeZip([{ name: "manifest.json", data: '{"app":"awtrix-ng","backupFormat":1}' }].concat(full().slice(1))),
      'not a pixloop backup: its manifest names app "awtrix-ng"'],
    [makeZip([{ name: "manifest.json", data: '{"app":"pixloop","backupFormat":2}' }].concat(full().slice(1))),
      "backupFormat 2 is not supported (this firmware reads 1)"],
    [makeZip([{ name: "manifest.json", data: '{"app":"pixloop"}' }]), "backupFormat none is not supported (this firmware reads 1)"],
    [makeZip([full()[3], MANIFEST].concat(full().slice(4))), "manifest.json must be the first entry of the archive"],
    [makeZip([{ name: "manifest.json", data: "{not json" }].concat(full().slice(1))), "manifest.json is not a JSON object"],
    [makeZip([{ name: "manifest.json", data: MANIFEST.data, crc: 7 }].concat(full().slice(1))),
      "manifest.json: its CRC-32 does not match"],
    [makeZip([]), "the archive holds no manifest.json"],
    [Buffer.from("this is a text file, not an archive"), "not a ZIP archive"],
    [Buffer.alloc(0), "not a ZIP archive"],
  ];
  for (const [archive, error] of cases) {
    wipe(clock);
    const before = userFiles(clock.storage);
    const r = restore(clock, archive);
    assert.is((r as Reply).status, 400, error);
    assert.equal(body(r), { ok: false, error, applied: NONE, warnings: [] });
    assert.equal(userFiles(clock.storage), before, "nothing changed: " + error);
    assert.is(clock.app.settings.current.brightness, 120);
  }
});

test("an upload without a file is the plain 400 badRequest", () => {
  const sink = sinkFor(clock);
  sink.begin("comment", "", "text/plain");
  sink.data("hello");
  sink.end();
  assert.equal(sink.finish(), { status: 400, code: "badRequest", message: "no backup file received" });
  assert.equal(sinkFor(clock).finish(), { status: 400, code: "badRequest", message: "no backup file received" });
});

test("paths that leave the archive, unknown and unsupported entries: skipped with a warning each", () => {
  const entries: TestEntry[] = [MANIFEST,
    { name: "ICONS/", data: "" },
    { name: "../escape.gif", data: GIF },
    { name: "ICONS/../../x.gif", data: GIF },
    { name: "/ICONS/abs.gif", data: GIF },
    { name: "ICONS\\..\\win.gif", data: GIF },
    { name: "ICONS/sub/deep.gif", data: GIF },
    { name: "notes.txt", data: "hello" },
    { name: "manifest.json", data: MANIFEST.data },
    { name: "SCRIPTS/clock.be", data: "print(1)" },
    { name: "ICONS/text.gif", data: "just text" },
    { name: "ICONS/tiny.gif", data: "GIF" },
    { name: "MP3/bad name.mp3", data: MP3 },
    { name: "MP3/ding.wav", data: MP3 },
    { name: "MELODIES/notrtttl.txt", data: Buffer.from([0, 1, 2, 3]) },
    { name: "PALETTES/bad.txt", data: "red, green" },
    { name: "ICONS/" + "n".repeat(66) + ".gif", data: GIF },
    { name: "ICONS/packed.gif", data: GIF, method: 8 },
    { name: "config/settings.json", data: "{\"brightness\":" },
    { name: "ICONS/ok.gif", data: GIF },
  ];
  const r = restore(clock, makeZip(entries));
  const b = body(r);
  assert.equal(b.warnings, [
    "../escape.gif: the path leaves the archive; skipped",
    "ICONS/../../x.gif: the path leaves the archive; skipped",
    "/ICONS/abs.gif: not a relative path; skipped",
    "ICONS\\..\\win.gif: not a relative path; skipped",
    "ICONS/sub/deep.gif: folders inside ICONS are not allowed; skipped",
    "notes.txt: not an entry of a pixloop backup; skipped",
    "manifest.json: a second manifest.json; skipped",
    "SCRIPTS/clock.be: this firmware runs no scripts; skipped",
    "ICONS/text.gif: content does not suit /ICONS; skipped",
    "ICONS/tiny.gif: content does not suit /ICONS; skipped",
    "MP3/bad name.mp3: an MP3 is named 1-32 characters of A-Za-z0-9_- and .mp3; skipped",
    "MP3/ding.wav: an MP3 is named 1-32 characters of A-Za-z0-9_- and .mp3; skipped",
    "MELODIES/notrtttl.txt: content does not suit /MELODIES; skipped",
    "PALETTES/bad.txt: content does not suit /PALETTES; skipped",
    "ICONS/" + "n".repeat(58) + "...: file name must be 1-68 characters; skipped",
    "ICONS/packed.gif: compressed or encrypted (only stored entries are read); skipped",
    "config/settings.json: not valid JSON; skipped",
  ]);
  assert.equal(b.applied, Object.assign({}, NONE, { icons: 1, skipped: 17 }));
  assert.is(b.ok, true);
  assert.equal(Object.keys(userFiles(clock.storage)), ["I/ok.gif"]);
});

test("a bad checksum: the file is not stored and what was there stays; a bad settings entry changes nothing", () => {
  clock.storage.write("I/mail.gif", "GIF87a old");
  const r = restore(clock, makeZip([MANIFEST, { name: "ICONS/mail.gif", data: GIF, crc: 99 },
    { name: "ICONS/new.gif", data: GIF, crc: 5, descriptor: "signed", headerSizes: true },
    { name: "config/settings.json", data: '{"brightness":5}', crc: 1 }, { name: "PALETTES/p.txt", data: PALETTE }]));
  // The descriptor of new.gif names a CRC its data does not have, so it ends no entry: new.gif
  // runs on to the end of the input, and the entries after it are never seen as entries.
  assert.equal(body(r), { ok: true, applied: Object.assign({}, NONE, { skipped: 2 }), warnings: [
    "ICONS/mail.gif: its CRC-32 does not match; skipped",
    "ICONS/new.gif: the archive ends inside it; skipped",
    "archive: the archive is cut short",
  ] });
  assert.is(clock.storage.read("I/mail.gif"), "GIF87a old");
  assert.is(clock.storage.read("I/new.gif"), undefined);
  assert.is(clock.app.settings.current.brightness, 120);
  assert.equal(clock.storage.list(/^~/), []);
  const r2 = restore(clock, makeZip([MANIFEST, { name: "config/settings.json", data: '{"brightness":5}', crc: 1 }, { name: "PALETTES/p.txt", data: PALETTE }]));
  assert.equal(body(r2).warnings, ["config/settings.json: its CRC-32 does not match; skipped"]);
  assert.is(clock.app.settings.current.brightness, 120);
  assert.is(clock.storage.read("P/p.txt"), PALETTE);
});

test("nothing of a file is visible under its name before its last byte and CRC are in", () => {
  for (const descriptor of [undefined, "signed", "bare"] as const) {
    wipe(clock);
    const archive = makeZip([MANIFEST, { name: "MP3/ding.mp3", data: MP3, descriptor }]).toString("latin1");
    const sink = sinkFor(clock);
    sink.begin("file", "b.zip", "application/zip");
    const end = archive.indexOf("PK\x01\x02");
    for (const p of pieces(archive.substr(0, end - 30), [536])) {
      sink.data(p);
      assert.is(clock.storage.read("3/ding.mp3"), undefined);
    }
    assert.ok(clock.storage.list(/^~/).length > 0, "the bytes so far are in temporary segments");
    sink.data(archive.substr(end - 30));
    sink.end();
    assert.equal(body(sink.finish()).applied.mp3, 1);
    assert.is(clock.storage.read("3/ding.mp3"), MP3.toString("latin1"));
    assert.equal(clock.storage.list(/^~/), []);
  }
});

test("an upload cut off mid-file leaves no segments and no file; the next restore clears stale ones", () => {
  const archive = makeZip([MANIFEST, { name: "MP3/ding.mp3", data: MP3 }]).toString("latin1");
  const sink = sinkFor(clock);
  sink.begin("file", "b.zip", "application/zip");
  sink.data(archive.substr(0, 12000));
  assert.ok(clock.storage.list(/^~/).length > 0);
  sink.abort();
  assert.equal(clock.storage.list(/^~/), []);
  assert.is(clock.storage.read("3/ding.mp3"), undefined);
  // A power cut leaves segments behind (named after the time they were begun); the next restore
  // removes them before it starts.
  clock.storage.write("~00000001ab.0", "left over", 0, 4096);
  clock.storage.write("~00000001ab.3", "left over", 0, 4096);
  assert.equal(body(restore(clock, makeZip([MANIFEST]))).ok, true);
  assert.equal(clock.storage.list(/^~/), []);
});

test("configuration entries are checked as their routes check them, each on its own", () => {
  const r = restore(clock, makeZip([MANIFEST,
    { name: "config/system.json", data: JSON.stringify({ hostname: "x", maxBrightness: 999 }) },
    { name: "config/wifi.json", data: JSON.stringify({ wifiSsid: "" }) },
    { name: "config/wifi.json", data: JSON.stringify({ other: 1 }) },
    { name: "config/settings.json", data: JSON.stringify({ brightness: 50, noSuchKey: 1 }) },
    { name: "apploop.json", data: JSON.stringify({ order: ["bad name!"], disabled: [] }) },
    { name: "apploop.json", data: JSON.stringify({ order: ["time"] }) },
    { name: "config/system.json", data: JSON.stringify({ authEnabled: true }) },
    { name: "config/system.json", data: "[1,2]" },
    { name: "config/wifi.json", data: JSON.stringify({ wifiSsid: "net2" }) },
  ]));
  assert.equal(body(r).warnings, [
    "config/system.json: maxBrightness: out of range; skipped",
    "config/wifi.json: wifiSsid: an empty string is not a clear; use POST /api/v1/device/factory-reset instead; skipped",
    "config/wifi.json: holds neither wifiSsid nor wifiPass; skipped",
    "config/settings.json: noSuchKey: unknown field; skipped",
    "apploop.json: order: must be an array of app names; skipped",
    "apploop.json: body must be an object with a disabled list; skipped",
    "config/system.json: authUser: set a username and password before requiring login; skipped",
    "config/system.json: not a JSON object; skipped",
  ]);
  assert.equal(body(r).applied, Object.assign({}, NONE, { wifi: 1, skipped: 8 }));
  assert.is(clock.app.system.config.hostname, "");
  assert.is(clock.app.system.config.wifiSsid, "net2");
  assert.is(clock.app.settings.current.brightness, 120);
  assert.is(clock.app.display.loop.order, null);
});

test("restored credentials are the ones in force as soon as the entry is applied", () => {
  const r = restore(clock, makeZip([MANIFEST,
    { name: "config/system.json", data: JSON.stringify({ authEnabled: true, authUser: "admin", authPass: "pw1", mqttPass: "m" }) }]));
  assert.equal(body(r).applied.system, 1);
  const cfg = clock.app.system.config;
  assert.equal([cfg.authEnabled, cfg.authUser, cfg.authPass, cfg.mqttPass], [true, "admin", "pw1", "m"]);
  // A backup without secrets leaves the stored ones as they are, as PUT does.
  restore(clock, makeZip([MANIFEST, { name: "config/system.json", data: JSON.stringify(publicView(cfg, false)) }]));
  assert.is(clock.app.system.config.authPass, "pw1");
});

test("what does not fit is left out, the rest is restored, and the answer is 507", () => {
  clock.close();
  clock = makeClock(120 * 1024);
  const big = Buffer.concat([Buffer.from("ID3"), noise(70000, 9)]);
  const r = restore(clock, makeZip([MANIFEST, { name: "PALETTES/p.txt", data: PALETTE }, { name: "MP3/big.mp3", data: big },
    { name: "MP3/streamed.mp3", data: big, descriptor: "signed" }, { name: "ICONS/mail.gif", data: GIF }]));
  assert.equal(r, { status: 507, code: "insufficientStorage",
    message: "restored, but 2 of its entries could not be stored: free storage and restore again before rebooting" });
  assert.is(clock.storage.read("P/p.txt"), PALETTE);
  assert.is(clock.storage.read("I/mail.gif"), GIF.toString("latin1"));
  assert.is(clock.storage.read("3/big.mp3"), undefined);
  assert.is(clock.storage.read("3/streamed.mp3"), undefined);
  assert.equal(clock.storage.list(/^~/), []);
});

test("a declared size of 4 GB is refused before a byte is written", () => {
  let writes = 0;
  const write = clock.storage.write.bind(clock.storage);
  clock.storage.write = (...a: Parameters<typeof write>) => {
    writes++;
    return write(...a);
  };
  const r = restore(clock, makeZip([MANIFEST, { name: "MP3/huge.mp3", data: MP3.subarray(0, 3000), size: 0xfffffff0 }]));
  assert.is((r as Failure).status, 507);
  assert.is(writes, 0);
  assert.equal(clock.storage.list(/^~/), []);
});

test("warnings are listed up to twenty, the rest counted; a second file is not read", () => {
  const entries: TestEntry[] = [MANIFEST];
  for (let i = 0; i < 45; i++) entries.push({ name: "junk" + i, data: "x" });
  const sink = sinkFor(clock);
  sink.begin("file", "a.zip", "application/zip");
  sink.data(makeZip(entries).toString("latin1"));
  sink.end();
  sink.begin("file", "b.zip", "application/zip");
  sink.data(makeZip([MANIFEST, { name: "config/settings.json", data: '{"brightness":9}' }]).toString("latin1"));
  sink.end();
  const b = body(sink.finish());
  assert.is(b.warnings.length, 21);
  assert.is(b.warnings[0], "junk0: not an entry of a pixloop backup; skipped");
  assert.is(b.warnings[20], "and 26 more");
  assert.is(b.applied.skipped, 45);
  assert.is(clock.app.settings.current.brightness, 120);
});

test("a configuration entry above 8 KB is skipped unread", () => {
  const r = restore(clock, makeZip([MANIFEST, { name: "config/settings.json", data: " ".repeat(9000) + "{}" },
    { name: "config/system.json", data: " ".repeat(9000) + "{}", descriptor: "signed" }]));
  assert.equal(body(r).warnings, ["config/settings.json: larger than 8192 bytes; skipped", "config/system.json: larger than 8192 bytes; skipped"]);
});

test("too little free memory: refused before anything is read", () => {
  clockMemory.free = 1100;
  try {
    const made = loadModule<MakeUpload>("backup/restore")(REQ, clock.app);
    assert.equal(made, { status: 507, code: "insufficientStorage", message: "not enough free memory for a restore" });
  } finally {
    clockMemory.free = 8000;
  }
});

test.run();
