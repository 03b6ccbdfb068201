// The files route as a client sees it: listing, uploads into the four folders with their content
// checks and name rules, removal, long names, a full Storage, icon renames and origins, the
// setup-mode refusal, and an uploaded icon shown by a pushed app at once.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as jpeg from "jpeg-js";
import { startTarget, call, type Answer, type Target } from "./target";
import { makeGif } from "../unit/icons-support";

const BOUNDARY = "pixloopFilesBoundary0123456789";

interface Upload { name: string; data: Buffer | string; field?: string; type?: string }

/** A multipart/form-data body holding `files` (and `fields`, plain form fields). */
function multipart(files: Upload[], fields: { [k: string]: string } = {}, boundary = BOUNDARY): Buffer {
  const parts: Buffer[] = [];
  for (const k in fields) {
    parts.push(Buffer.from("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + k + "\"\r\n\r\n" + fields[k] + "\r\n", "latin1"));
  }
  for (const f of files) {
    parts.push(Buffer.from("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + (f.field || "file") + "\"; filename=\"" +
      f.name + "\"\r\nContent-Type: " + (f.type || "application/octet-stream") + "\r\n\r\n", "latin1"));
    parts.push(typeof f.data === "string" ? Buffer.from(f.data, "latin1") : f.data);
    parts.push(Buffer.from("\r\n", "latin1"));
  }
  parts.push(Buffer.from("--" + boundary + "--\r\n", "latin1"));
  return Buffer.concat(parts);
}

async function upload(t: Target, files: Upload[], query = "", headers: { [k: string]: string } = {}): Promise<Answer> {
  const r = await fetch(t.url + "/api/v1/files" + query, {
    method: "POST",
    headers: Object.assign({ "Content-Type": "multipart/form-data; boundary=" + BOUNDARY }, headers),
    body: new Uint8Array(multipart(files)),
  });
  const text = await r.text();
  let body: unknown;
  try { body = JSON.parse(text); } catch (e) { body = undefined; }
  return { status: r.status, headers: r.headers, text, body };
}

async function listing(t: Target, dir?: string): Promise<{ files: { name: string; size: number; origin?: string }[]; usedBytes: number; totalBytes: number }> {
  const r = await call(t, "GET", "/api/v1/files" + (dir === undefined ? "" : "?dir=" + encodeURIComponent(dir)));
  assert.is(r.status, 200, r.text);
  return r.body;
}

function assertError(r: { status: number; body: any; text: string }, status: number, code: string, field?: string) {
  assert.is(r.status, status, r.text);
  assert.is(r.body.error.code, code, r.text);
  if (field === undefined) assert.not.ok("field" in r.body.error, r.text);
  else assert.is(r.body.error.field, field);
}

function gif(color: number, w = 8, h = 8): Buffer {
  return makeGif({ width: w, height: h, palette: [color, 0], frames: [{ w, h, pixels: new Array(w * h).fill(0), delay: 0 }] });
}

function jpg(): Buffer {
  const data = Buffer.alloc(8 * 8 * 4, 0x80);
  return Buffer.from(jpeg.encode({ data, width: 8, height: 8 }, 90).data);
}

/** An MP3 as the check sees it: an ID3 tag, then bytes. */
function mp3(size: number): Buffer {
  const b = Buffer.alloc(size, 0x55);
  b.write("ID3", 0, "latin1");
  return b;
}

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const names = (l: { files: { name: string }[] }) => l.files.map((f) => f.name);

// ---------------------------------------------------------------------------------------------
const t = suite("files");
let dut: Target;

t.before(async () => { dut = await startTarget(); });
t.after(async () => { await dut.stop(); });

t("the listing: files, usedBytes and totalBytes; a folder that is not there lists empty", async () => {
  const r = await call(dut, "GET", "/api/v1/files");
  assert.is(r.status, 200, r.text);
  assert.equal(Object.keys(r.body), ["files", "usedBytes", "totalBytes"]);
  assert.equal(r.body.files, []);
  assert.ok(r.body.usedBytes > 0 && r.body.usedBytes < r.body.totalBytes, r.text);
  assert.is(r.body.totalBytes, 896 * 1024);
  for (const dir of ["/NOPE", "/icons", "ICONS", "/ICONS/sub", "/ICONS/../MP3", "/"]) {
    const l = await listing(dut, dir);
    assert.equal(l.files, [], dir);
    assert.is(l.totalBytes, 896 * 1024);
  }
});

t("an uploaded GIF and JPEG are listed with their sizes; /ICONS is the default folder", async () => {
  const before = await listing(dut);
  const g = gif(0xff0000);
  const j = jpg();
  const r = await upload(dut, [{ name: "red.gif", data: g }]);
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, { ok: true });
  assert.is((await upload(dut, [{ name: "grey.jpg", data: j }], "?dir=ICONS")).status, 200);
  const after = await listing(dut, "/ICONS");
  assert.equal(after.files, [{ name: "grey.jpg", size: j.length }, { name: "red.gif", size: g.length }]);
  assert.ok(after.usedBytes >= before.usedBytes + g.length + j.length, "usedBytes grows");
  assert.equal((await listing(dut, "/ICONS/")).files, after.files);
});

t("each folder takes only its own content: 415 otherwise, and nothing is stored", async () => {
  const before = await listing(dut, "/ICONS");
  const cases: [string, string, Buffer | string][] = [
    ["/ICONS", "pic.gif", PNG],
    ["/ICONS", "text.gif", "GIF is not this"],
    ["/ICONS", "tiny.gif", "GIF"],
    ["/MP3", "song.mp3", gif(1)],
    ["/MP3", "mp2.mp3", Buffer.from([0xff, 0xfd, 0x90, 0x00, 1, 2, 3, 4])],
    ["/MELODIES", "tune.txt", "tune:d=4,o=5,b=100:x,y,z"],
    ["/MELODIES", "bin.txt", gif(2)],
    ["/PALETTES", "warm.txt", "FF0000\nnot a colour\n"],
    ["/PALETTES", "bin.txt", PNG],
    ["/PALETTES", "many.txt", "FF0000\n".repeat(17)],
    ["/PALETTES", "empty.txt", ""],
  ];
  for (const [dir, name, data] of cases) {
    const r = await upload(dut, [{ name, data }], "?dir=" + dir);
    assertError(r, 415, "unsupportedMediaType");
    assert.not.ok(names(await listing(dut, dir)).includes(name), dir + "/" + name);
  }
  // A large wrong file is refused from its first bytes; what had arrived is gone.
  const big = Buffer.concat([PNG, Buffer.alloc(60000, 7)]);
  assertError(await upload(dut, [{ name: "big.gif", data: big }]), 415, "unsupportedMediaType");
  // A palette that goes wrong only at its end was written in part: removed as well.
  const late = "00FF00\n".repeat(15) + "zz\n";
  assertError(await upload(dut, [{ name: "late.txt", data: late }], "?dir=/PALETTES"), 415, "unsupportedMediaType");
  const after = await listing(dut, "/ICONS");
  assert.equal(after.files, before.files);
  assert.is(after.usedBytes, before.usedBytes, "nothing left behind");
});

t("melodies, palettes and MP3s that suit their folders are stored", async () => {
  const ok = [
    ["/MELODIES", "bell.txt", "bell:d=4,o=5,b=100:e,8c#6.,p,2g"],
    ["/MELODIES", "two.txt", "d=8,b=200:c,d,e"],
    ["/PALETTES", "warm.txt", "FF0000@0\nFF8000@50\n#FFFF00@100\n"],
    ["/MP3", "ding.mp3", mp3(3000)],
    ["/MP3", "sync.mp3", Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x00]), Buffer.alloc(500, 1)])],
  ] as const;
  for (const [dir, name, data] of ok) {
    const r = await upload(dut, [{ name, data }], "?dir=" + dir);
    assert.is(r.status, 200, dir + "/" + name + ": " + r.text);
  }
  assert.equal(names(await listing(dut, "/MELODIES")), ["bell.txt", "two.txt"]);
  assert.equal(names(await listing(dut, "/PALETTES")), ["warm.txt"]);
  assert.equal((await listing(dut, "/MP3")).files, [{ name: "ding.mp3", size: 3000 }, { name: "sync.mp3", size: 504 }]);
});

t("several files in one upload are published one by one; a later refusal keeps the earlier ones", async () => {
  const r = await upload(dut, [{ name: "a1.gif", data: gif(0x010203) }, { name: "a2.gif", data: gif(0x040506), field: "other" }]);
  assert.is(r.status, 200, r.text);
  const bad = await upload(dut, [{ name: "b1.gif", data: gif(0x070809) }, { name: "b2.gif", data: PNG }, { name: "b3.gif", data: gif(1) }]);
  assertError(bad, 415, "unsupportedMediaType");
  const l = names(await listing(dut));
  for (const n of ["a1.gif", "a2.gif", "b1.gif"]) assert.ok(l.includes(n), n);
  for (const n of ["b2.gif", "b3.gif"]) assert.not.ok(l.includes(n), n);
});

t("an upload replaces a file of the same name", async () => {
  assert.is((await upload(dut, [{ name: "swap.gif", data: gif(0xff0000, 8, 8) }])).status, 200);
  const wide = gif(0x00ff00, 32, 8);
  assert.is((await upload(dut, [{ name: "swap.gif", data: wide }])).status, 200);
  const f = (await listing(dut)).files.filter((x) => x.name === "swap.gif");
  assert.equal(f, [{ name: "swap.gif", size: wide.length }]);
});

t("paths outside the four folders, absolute names and traversal answer 400 invalidPath", async () => {
  const before = await listing(dut);
  const cases: [string, string][] = [
    ["", "../evil.gif"],
    ["", "..gif"],
    ["", "/ICONS/abs.gif"],
    ["", "sub/x.gif"],
    ["", "back\\slash.gif"],
    ["?dir=/SCRIPTS", "x.gif"],
    ["?dir=/icons", "x.gif"],
    ["?dir=/ICONS/../MP3", "x.gif"],
    ["?dir=/ICONS/sub", "x.gif"],
  ];
  for (const [query, name] of cases) {
    assertError(await upload(dut, [{ name, data: gif(1) }], query), 400, "invalidPath");
  }
  assert.equal(await listing(dut), before);
});

t("MP3 and melody names: the play routes' rules, 400 invalidName otherwise; no sharing (409)", async () => {
  for (const name of ["has space.mp3", "x.MP3", ".mp3", "a".repeat(33) + ".mp3", "dot.dot.mp3", "noext"]) {
    assertError(await upload(dut, [{ name, data: mp3(100) }], "?dir=/MP3"), 400, "invalidName");
  }
  for (const name of ["x y.txt", "a".repeat(25) + ".txt", "tune.rtttl"]) {
    assertError(await upload(dut, [{ name, data: "d=4:c" }], "?dir=/MELODIES"), 400, "invalidName");
  }
  assertError(await upload(dut, [{ name: "ctrl\x01.gif", data: gif(1) }]), 400, "invalidName");
  assertError(await upload(dut, [{ name: "x".repeat(69), data: gif(1) }]), 400, "invalidName");
  assert.is((await upload(dut, [{ name: "a".repeat(32) + ".mp3", data: mp3(50) }], "?dir=/MP3")).status, 200);
  // bell.txt is a melody (above): an MP3 may not take its name, nor a melody an MP3's.
  assertError(await upload(dut, [{ name: "bell.mp3", data: mp3(100) }], "?dir=/MP3"), 409, "nameTaken");
  assertError(await upload(dut, [{ name: "ding.txt", data: "d=4:c" }], "?dir=/MELODIES"), 409, "nameTaken");
  assert.not.ok(names(await listing(dut, "/MP3")).includes("bell.mp3"));
});

t("long names: listed, replaced and removed under their full name", async () => {
  const long = "a-rather-long-name-for-an-mp3_01";
  assert.is(long.length, 32);
  const r = await upload(dut, [{ name: long + ".mp3", data: mp3(700) }], "?dir=/MP3");
  assert.is(r.status, 200, r.text);
  assert.is((await upload(dut, [{ name: long + ".mp3", data: mp3(900) }], "?dir=/MP3")).status, 200);
  const icon = "an-icon-whose-name-is-long-enough";
  assert.is((await upload(dut, [{ name: icon + ".gif", data: gif(0x123456) }])).status, 200);
  const mp3s = (await listing(dut, "/MP3")).files.filter((f) => f.name.startsWith("a-rather"));
  assert.equal(mp3s, [{ name: long + ".mp3", size: 900 }]);
  assert.ok(names(await listing(dut)).includes(icon + ".gif"));
  assert.equal((await call(dut, "DELETE", "/api/v1/files?path=/MP3/" + long + ".mp3")).body, { ok: true });
  assertError(await call(dut, "DELETE", "/api/v1/files?path=/MP3/" + long + ".mp3"), 404, "notFound");
  assert.not.ok(names(await listing(dut, "/MP3")).includes(long + ".mp3"));
  assert.equal((await call(dut, "DELETE", "/api/v1/files?path=/ICONS/" + icon + ".gif")).body, { ok: true });
});

t("DELETE removes a file by its full path; 404 for none, 400 invalidPath outside the folders", async () => {
  assert.is((await upload(dut, [{ name: "gone.gif", data: gif(5) }])).status, 200);
  const before = await listing(dut);
  const r = await call(dut, "DELETE", "/api/v1/files?path=/ICONS/gone.gif");
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, { ok: true });
  const after = await listing(dut);
  assert.not.ok(names(after).includes("gone.gif"));
  assert.ok(after.usedBytes < before.usedBytes);
  const missing = await call(dut, "DELETE", "/api/v1/files?path=/ICONS/gone.gif");
  assertError(missing, 404, "notFound");
  assert.is(missing.body.error.message, "file not found");
  for (const path of ["", "?path=", "?path=/ICONS/../sys.0", "?path=/SCRIPTS/x", "?path=/ICONS/", "?path=ICONS/red.gif",
    "?path=/ICONS/a/b.gif", "?path=/ICONS"]) {
    assertError(await call(dut, "DELETE", "/api/v1/files" + path), 400, "invalidPath");
  }
  assert.ok(names(await listing(dut)).includes("red.gif"));
  const wrong = await call(dut, "PUT", "/api/v1/files", { body: {} });
  assertError(wrong, 405, "methodNotAllowed");
  assert.is(wrong.body.error.message, "allowed method(s): GET, POST, DELETE");
});

t("a full Storage answers 507 insufficientStorage; nothing is left behind and the old file is kept", async () => {
  const start = await listing(dut, "/MP3");
  const room = start.totalBytes - start.usedBytes;
  // Larger than what is left: refused while it arrives.
  assertError(await upload(dut, [{ name: "huge.mp3", data: mp3(room + 8192) }], "?dir=/MP3"), 507, "insufficientStorage");
  let now = await listing(dut, "/MP3");
  assert.equal(now.files, start.files);
  assert.is(now.usedBytes, start.usedBytes, "the partial copy is gone");
  // A file, then a larger one under its name that fits beside the temporary copy but not beside
  // both: the first stays.
  const a = Math.floor(room * 0.4);
  assert.is((await upload(dut, [{ name: "keep.mp3", data: mp3(a) }], "?dir=/MP3")).status, 200);
  const held = await listing(dut, "/MP3");
  const b = Math.floor(room * 0.55);
  assertError(await upload(dut, [{ name: "keep.mp3", data: mp3(b) }], "?dir=/MP3"), 507, "insufficientStorage");
  now = await listing(dut, "/MP3");
  assert.equal(now.files.filter((f) => f.name === "keep.mp3"), [{ name: "keep.mp3", size: a }]);
  assert.is(now.usedBytes, held.usedBytes);
  assert.is((await call(dut, "DELETE", "/api/v1/files?path=/MP3/keep.mp3")).status, 200);
});

t("an uploaded icon is shown by a pushed app at once, and again once replaced", async () => {
  assert.is((await call(dut, "PATCH", "/api/v1/settings", { body: { transitionDurationMs: 0, autoTransition: false } })).status, 200);
  const column = async () => {
    await sleep(100);
    const p: number[] = (await call(dut, "GET", "/api/v1/display/screen")).body.pixels;
    return p.filter((_, k) => k % 32 < 8);
  };
  // The second id is too long for a short Storage name: found through the index of long names.
  for (const [id, color] of [["shown", 0xff00ff], ["shown", 0x00ffff], ["an-icon-id-longer-than-storage-names", 0xffff00]] as const) {
    assert.is((await upload(dut, [{ name: id + ".gif", data: gif(color) }])).status, 200);
    const r = await call(dut, "PUT", "/api/v1/apps/pushed/iconapp", { body: { text: "HI", icon: id } });
    assert.is(r.status, 200, r.text);
    assert.is((await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "iconapp", fast: true } })).status, 200);
    const c = await column();
    assert.ok(c.every((v) => v === color), "icon column: " + [...new Set(c)].map((v) => v.toString(16)));
  }
  await call(dut, "DELETE", "/api/v1/apps/iconapp");
});

t("POST /api/v1/icons/rename moves an icon's files and origin to another id", async () => {
  assert.is((await upload(dut, [{ name: "old.gif", data: gif(0x111111) }, { name: "old.jpg", data: jpg() }])).status, 200);
  assert.is((await call(dut, "PUT", "/api/v1/icons/origins", { body: { name: "old", origin: "https://example.com/icons/42" } })).status, 200);
  const r = await call(dut, "POST", "/api/v1/icons/rename", { body: { from: "old", to: "new" } });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, { ok: true });
  const l = (await listing(dut)).files;
  assert.equal(l.filter((f) => f.name.startsWith("old.")), []);
  assert.equal(l.filter((f) => f.name.startsWith("new.")).map((f) => [f.name, f.origin]),
    [["new.gif", "https://example.com/icons/42"], ["new.jpg", "https://example.com/icons/42"]]);
  // One file of an id, by its file name.
  assert.is((await call(dut, "POST", "/api/v1/icons/rename", { body: { from: "new.jpg", to: "other" } })).status, 200);
  const l2 = names(await listing(dut));
  assert.ok(l2.includes("new.gif") && l2.includes("other.jpg") && !l2.includes("new.jpg"), l2.join());
});

t("icon rename refusals: 404 for no such icon, 409 nameTaken on `to`, 400 invalidName", async () => {
  const missing = await call(dut, "POST", "/api/v1/icons/rename", { body: { from: "nosuch", to: "x" } });
  assertError(missing, 404, "notFound");
  assertError(await call(dut, "POST", "/api/v1/icons/rename", { body: { from: "new", to: "red" } }), 409, "nameTaken", "to");
  assertError(await call(dut, "POST", "/api/v1/icons/rename", { body: { from: "../new", to: "x" } }), 400, "invalidName", "from");
  assertError(await call(dut, "POST", "/api/v1/icons/rename", { body: { from: "new", to: 5 } }), 400, "invalidName", "to");
  assertError(await call(dut, "POST", "/api/v1/icons/rename", { body: { to: "x" } }), 400, "invalidName", "from");
  assertError(await call(dut, "POST", "/api/v1/icons/rename", { body: { from: "new", to: "a/b" } }), 400, "invalidName", "to");
  assertError(await call(dut, "POST", "/api/v1/icons/rename", { body: "{", headers: { "Content-Type": "application/json" } }), 400, "invalidJson");
  assert.ok(names(await listing(dut)).includes("new.gif"));
});

t("icon origins: set, shown in the listing, replaced, removed; 400 invalidOrigin, 404 for no icon", async () => {
  const put = (body: unknown) => call(dut, "PUT", "/api/v1/icons/origins", { body });
  assert.is((await put({ name: "red", origin: "lametric:1234" })).status, 200);
  assert.is((await put({ name: "red.gif", origin: "lametric:5678" })).status, 200);
  const red = (await listing(dut)).files.find((f) => f.name === "red.gif");
  assert.equal(red, { name: "red.gif", size: red!.size, origin: "lametric:5678" });
  for (const origin of [undefined, "", "   ", 42, "line\nbreak", "x".repeat(257)]) {
    assertError(await put({ name: "red", origin }), 400, "invalidOrigin", "origin");
  }
  assertError(await put({ name: "nosuchicon", origin: "x" }), 404, "notFound");
  assertError(await put({ name: "a/b", origin: "x" }), 400, "invalidName", "name");
  assertError(await put({ origin: "x" }), 400, "invalidName", "name");
  const del = await call(dut, "DELETE", "/api/v1/icons/origins", { body: { name: "red" } });
  assert.is(del.status, 200, del.text);
  assert.not.ok("origin" in (await listing(dut)).files.find((f) => f.name === "red.gif")!);
  assertError(await call(dut, "DELETE", "/api/v1/icons/origins?name=red"), 404, "notFound");
  // Through the query too; and an icon's origin goes with its last file.
  assert.is((await put({ name: "red", origin: "again" })).status, 200);
  assert.is((await call(dut, "DELETE", "/api/v1/icons/origins?name=red")).status, 200);
  assert.is((await put({ name: "new", origin: "kept" })).status, 200);
  assert.is((await call(dut, "DELETE", "/api/v1/files?path=/ICONS/new.gif")).status, 200);
  assert.is((await upload(dut, [{ name: "new.gif", data: gif(3) }])).status, 200);
  assert.not.ok("origin" in (await listing(dut)).files.find((f) => f.name === "new.gif")!);
  const wrong = await call(dut, "GET", "/api/v1/icons/origins");
  assertError(wrong, 405, "methodNotAllowed");
  assert.is(wrong.body.error.message, "allowed method(s): PUT, DELETE");
});

t("what uploads and publications cut short by a restart left behind goes with the next upload", async () => {
  const sim = dut.sim;
  if (!sim) return; // needs to write into the simulated flash
  const st = sim.device.storage;
  const now = Math.floor(Date.now() / 1000);
  const hex = (n: number) => n.toString(16).padStart(8, "0");
  // Temporary segments: an hour and more old, dated in the future, and one of a running upload.
  st.write("~" + hex(now - 7200) + "1a.0", "old");
  st.write("~" + hex(now + 7200) + "2b.0", "future");
  st.write("~" + hex(now - 5) + "3c.0", "running");
  // A long-scheme file the index does not name.
  st.write("I~0badf00d", "GIF89a orphan");
  const planted = ["~" + hex(now - 7200) + "1a.0", "~" + hex(now + 7200) + "2b.0", "~" + hex(now - 5) + "3c.0", "I~0badf00d"];
  assert.equal(planted.filter((n) => st.read(n) !== undefined), planted);
  assert.is((await upload(dut, [{ name: "after.gif", data: gif(9) }])).status, 200);
  assert.equal(planted.filter((n) => st.read(n) !== undefined), ["~" + hex(now - 5) + "3c.0"]);
  st.erase(planted[2]);
  // Files the index names stay (the long icon id above).
  assert.ok(names(await listing(dut)).includes("an-icon-id-longer-than-storage-names.gif"));
});

t("a listing of many files streams whole: no Content-Length, the connection closes after it", async () => {
  const many: Upload[] = [];
  for (let i = 0; i < 40; i++) many.push({ name: "many-" + String(i).padStart(2, "0") + ".gif", data: gif(i + 1) });
  assert.is((await upload(dut, many)).status, 200);
  const r = await call(dut, "GET", "/api/v1/files?dir=/ICONS");
  assert.is(r.status, 200);
  assert.is(r.headers.get("content-length"), null);
  assert.is(r.headers.get("connection"), "close");
  assert.is(r.headers.get("content-type"), "application/json");
  const listed = r.body.files.filter((f: { name: string }) => f.name.startsWith("many-"));
  assert.equal(listed.map((f: { name: string }) => f.name), many.map((f) => f.name));
  assert.ok(r.text.length > 1500, "several pieces: " + r.text.length);
  assert.is((await call(dut, "HEAD", "/api/v1/files")).status, 200);
  for (const f of many) await call(dut, "DELETE", "/api/v1/files?path=/ICONS/" + f.name);
});

t.run();

// ---------------------------------------------------------------------------------------------
const setup = suite("files in setup mode");
let fresh: Target;

setup.before(async () => { fresh = await startTarget({ setup: true }); });
setup.after(async () => { await fresh.stop(); });

setup("every file route answers 403 forbidden during provisioning, and nothing is stored", async () => {
  assertError(await call(fresh, "GET", "/api/v1/files"), 403, "forbidden");
  assertError(await upload(fresh, [{ name: "x.gif", data: gif(1) }]), 403, "forbidden");
  assertError(await call(fresh, "DELETE", "/api/v1/files?path=/ICONS/x.gif"), 403, "forbidden");
  assertError(await call(fresh, "POST", "/api/v1/icons/rename", { body: { from: "a", to: "b" } }), 403, "forbidden");
  assertError(await call(fresh, "PUT", "/api/v1/icons/origins", { body: { name: "a", origin: "b" } }), 403, "forbidden");
  assertError(await call(fresh, "DELETE", "/api/v1/icons/origins", { body: { name: "a" } }), 403, "forbidden");
});

setup.run();
