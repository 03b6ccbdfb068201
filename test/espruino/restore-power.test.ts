// Power cuts during a restore, in the real interpreter ($ESPRUINO): the interpreter is killed
// (SIGKILL: a Storage write cut wherever it was) at moments spread over a whole restore, then
// started again on the same flash. Each part of the clock must come up as it was before the
// restore or as the archive has it, never in between: the settings, the system configuration,
// and every file whole (its bytes as the archive holds them) or not there. The same archive
// then restores completely from there.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startEspruino, type EspruinoTarget } from "./launch";
import { getJson, until, upload } from "./update-support";
import { unzipAll } from "../unit/backup-archives";

const bin = process.env.ESPRUINO;
const BOUNDARY = "----pixloopUpdate7MA4YWxkTrZu0gW";

/** The two states a cut may leave each part in. */
const OLD = { brightness: 40, tz: "UTC0" };
const NEW = { brightness: 90, tz: "EST5EDT,M3.2.0,M11.1.0" };
/** Files only the archive holds, in sizes that take the restore a moment to write. */
const FILES: { [path: string]: Buffer } = {};
for (let i = 0; i < 4; i++) {
  const b = Buffer.alloc(6000 + i * 3000);
  for (let j = 0; j < b.length; j++) b[j] = (j * 7 + i * 31 + (j >> 5)) & 255;
  b.write("ID3", 0, "latin1");
  FILES["/MP3/track" + i + ".mp3"] = b;
}

let clock: EspruinoTarget | null = null;
let archive: Buffer;

function form(field: string, name: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + field + "\"; filename=\"" + name +
    "\"\r\nContent-Type: application/octet-stream\r\n\r\n", "latin1"), data, Buffer.from("\r\n--" + BOUNDARY + "--\r\n", "latin1")]);
}

async function call(t: EspruinoTarget, method: string, path: string, body?: object): Promise<any> {
  const r = await fetch(t.url + path, {
    method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  assert.ok(r.status === 200, method + " " + path + ": " + r.status + " " + text);
  return JSON.parse(text);
}

/** Puts the clock in `state`, with the archive's files there or not. */
async function setState(t: EspruinoTarget, state: typeof OLD, files: boolean): Promise<void> {
  await call(t, "PATCH", "/api/v1/settings", { brightness: state.brightness });
  await call(t, "PUT", "/api/v1/system", { tz: state.tz });
  for (const p in FILES) {
    const there = (await files0(t)).some((f) => f.path === p);
    if (files && !there) {
      const dir = p.slice(0, p.lastIndexOf("/"));
      const r = await upload(t.url + "/api/v1/files?dir=" + dir, form("file", p.slice(dir.length + 1), FILES[p]));
      assert.is(r.status, 200, r.text);
    }
    if (!files && there) await call(t, "DELETE", "/api/v1/files?path=" + encodeURIComponent(p));
  }
}

async function files0(t: EspruinoTarget): Promise<{ path: string; size: number }[]> {
  const l = await call(t, "GET", "/api/v1/files?dir=/MP3");
  return (l.files as { name: string; size: number }[]).map((f) => ({ path: "/MP3/" + f.name, size: f.size }));
}

/** What the clock came up with, part by part: "old", "new", or a complaint. */
async function inspect(t: EspruinoTarget): Promise<{ settings: string; system: string; files: string[]; whole: number }> {
  const settings = await call(t, "GET", "/api/v1/settings");
  const system = await call(t, "GET", "/api/v1/system");
  const b = settings.brightness === OLD.brightness ? "old" : settings.brightness === NEW.brightness ? "new" : "brightness " + settings.brightness;
  const z = system.tz === OLD.tz ? "old" : system.tz === NEW.tz ? "new" : "tz " + system.tz;
  // The files' bytes as the clock holds them: through a backup of its own.
  const r = await fetch(t.url + "/api/v1/backup");
  assert.is(r.status, 200);
  const held = unzipAll(Buffer.from(await r.arrayBuffer()));
  const files: string[] = [];
  let whole = 0;
  for (const name in held) {
    if (!/^(ICONS|MELODIES|PALETTES|MP3)\//.test(name)) continue;
    const p = "/" + name;
    if (!FILES[p]) files.push(p + ": not in the archive");
    else if (!held[name].equals(FILES[p])) files.push(p + ": " + held[name].length + " bytes, not the archive's " + FILES[p].length);
    else whole++;
  }
  return { settings: b, system: z, files, whole };
}

const skip = () => {
  if (!bin) console.log("  skipped: set ESPRUINO to cut the power of the real interpreter");
  return !bin;
};

test.before(async () => {
  if (!bin) return;
  clock = await startEspruino("esp32");
  await setState(clock, NEW, true);
  const r = await fetch(clock.url + "/api/v1/backup?secrets=1");
  assert.is(r.status, 200);
  archive = Buffer.from(await r.arrayBuffer());
  const names = Object.keys(unzipAll(archive));
  for (const p in FILES) assert.ok(names.includes(p.slice(1)), "the archive holds " + p + ": " + names.join());
});

test.after(async () => {
  if (clock) await clock.stop();
});

test("kills at a sweep of moments across a restore: each part old or new, every file whole, then restored", async () => {
  if (skip()) return;
  const t = clock!;
  const body = form("file", "pixloop-backup.zip", archive);
  const seen = new Set<string>();
  // The archive paced to take about a second to arrive; the cuts fall while it streams, while its
  // files are published and its configuration applied, and after the answer.
  for (const ms of [30, 150, 300, 500, 700, 900, 1100, 1300, 1600, 2200]) {
    await setState(t, OLD, false);
    void upload(t.url + "/api/v1/restore", body, { piece: 1460, pauseMs: 25 }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, ms));
    const mark = t.lines.length;
    await t.powerCycle();
    await until("an answer after the cut", () => getJson(t.url + "/api/v1/device"), 30000, 100);
    const said = t.lines.slice(mark);
    assert.not.ok(said.some((l) => l.startsWith("Uncaught")), said.join("\n"));
    const s = await inspect(t);
    console.log("  cut at " + ms + " ms: settings " + s.settings + ", system " + s.system + ", " + s.whole + " of " +
      Object.keys(FILES).length + " files" + (s.files.length ? "; " + s.files.join("; ") : ""));
    assert.ok(s.settings === "old" || s.settings === "new", s.settings);
    assert.ok(s.system === "old" || s.system === "new", s.system);
    assert.equal(s.files, []);
    seen.add(s.settings + "/" + s.system + "/" + (s.whole === 0 ? "none" : s.whole === Object.keys(FILES).length ? "all" : "some"));
    // From there the archive restores completely.
    const r = await upload(t.url + "/api/v1/restore", body);
    assert.is(r.status, 200, r.text);
    const after = await inspect(t);
    assert.equal([after.settings, after.system], ["new", "new"]);
    assert.equal((await files0(t)).map((f) => f.path).sort(), Object.keys(FILES).sort());
  }
  // The sweep reached before anything was applied, the middle of the files, and after all of it.
  assert.ok(seen.has("old/old/none") && [...seen].some((k) => k.endsWith("/some")) && seen.has("new/new/all"), [...seen].join());
});

test.run();
