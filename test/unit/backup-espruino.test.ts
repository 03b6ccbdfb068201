// Restore in the real interpreter ($ESPRUINO), where variables are counted as on the clock:
//
// - the restore module on its own, evaluated from Storage and fed a 200 KB archive in the
//   ESP32's 536-byte pieces: what it costs loaded, and how far memory rises above that while the
//   archive streams (sampled inside every Storage write and CRC, where a piece's copies are
//   alive), which must not depend on the archive's size;
// - the whole firmware over HTTP: a 200 KB archive restored while the display runs, no frame
//   later than 200 ms, and the firmware's peak no higher than for an archive a tenth the size;
//   then backed up again, under the same frame budget.
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { ROOT } from "../harness/root";
import { runInEspruino } from "../espruino/script";
import { startEspruino, type EspruinoTarget } from "../espruino/launch";
import { firmwareUsage, sleep } from "../memory/probe";
import { makeZip, noise, type TestEntry } from "./backup-support";

const bin = process.env.ESPRUINO;
const MARK = "[restore] ";
/** Variables the restore may add above what it holds once begun, however large the archive. */
const STREAM_BUDGET = 300;
/** The longest a frame may wait while a restore runs. */
const FRAME_BUDGET_MS = 200;

/**
 * A program that restores an archive it makes as it goes: a manifest, then `files` stored files
 * of the sizes given, their bytes from a generator, each piece handed over as the transport
 * would. `described`: sizes and CRC after the data (a data descriptor), else up front.
 */
function streamProgram(sizes: number[], described: boolean): string {
  return `
    import { loadModule } from "./firmware/platform/modules";
    import { crcAdd, le32, localHeader } from "./firmware/backup/zip";
    const S = require("Storage");
    const PIECE = 536;
    const out = (s: string) => print("${MARK}" + s);
    // The moments a piece's copies are alive: every Storage write and every CRC, after a collection
    // (the modules a file loads and drops leave cycles that only a collection frees, as the
    // interpreter does when it runs short).
    const top = new Uint16Array(1);
    const write = S.write;
    S.write = function (a: any, b: any, c: any, d: any) {
      const u = process.memory().usage;
      if (u > top[0]) top[0] = u;
      return write.call(S, a, b, c, d);
    };
    const crc32 = E.CRC32;
    (E as any).CRC32 = function (s: any) {
      const u = process.memory().usage;
      if (u > top[0]) top[0] = u;
      return crc32(s);
    };
    let pattern = "";
    for (let i = 0; i < PIECE; i++) pattern += String.fromCharCode((i * 73 + 19) & 255);
    // Byte k of file f: the pattern turned by f, an MP3 or GIF signature first.
    const bytesOf = (f: number, at: number, n: number) => {
      let p = pattern.substr(f % 7, n);
      if (p.length < n) p += pattern.substr(0, n - p.length);
      return at === 0 ? (f === 0 ? "ID3" + p.substr(3) : "GIF89a" + p.substr(6)) : p;
    };
    const SIZES = ${JSON.stringify(sizes)};
    const before = process.memory().usage;
    const sink = loadModule<any>("backup/restore")({}, {});
    sink.begin("file", "backup.zip", "application/zip");
    const man = '{"app":"pixloop","backupFormat":1}';
    sink.data(localHeader("manifest.json", crc32(man) >>> 0, man.length, 0x210000) + man);
    // A piece-sized string is alive in the baseline, as the transport's piece is in every data().
    let piece = pattern.substr(0);
    const base = process.memory().usage;
    top[0] = 0;
    let sent = 0;
    for (let f = 0; f < SIZES.length; f++) {
      const name = f === 0 ? "MP3/big.mp3" : "ICONS/i" + f + ".gif";
      const size = SIZES[f];
      let crc = 0;
      if (!${described}) for (let at = 0; at < size; at += PIECE) crc = crcAdd(crc, bytesOf(f, at, Math.min(PIECE, size - at)));
      let head = localHeader(name, crc, ${described} ? 0 : size, 0x210000);
      if (${described}) head = head.substr(0, 6) + "\\x08\\x08" + head.substr(8);
      sink.data(head);
      head = "";
      crc = 0;
      for (let at = 0; at < size; at += PIECE) {
        piece = bytesOf(f, at, Math.min(PIECE, size - at));
        if (${described}) crc = crcAdd(crc, piece);
        sink.data(piece);
        sent += piece.length;
      }
      if (${described}) sink.data("PK\\x07\\x08" + le32(crc) + le32(size) + le32(size));
    }
    sink.data("PK\\x05\\x06" + "\\x00".repeat(18));
    sink.end();
    const r = sink.finish();
    out("bytes " + sent + " loaded " + (base - before) + " streaming " + (top[0] - base));
    out("result " + JSON.stringify(r.json));
  `;
}

function runStream(sizes: number[], described: boolean): { loaded: number; streaming: number; result: any } {
  const files: { [name: string]: string } = {};
  for (const m of ["m.backup.restore", "m.backup.restore-apply", "m.backup.manifest", "m.files.sweep",
    "m.files.name-check", "m.files.publish"]) {
    files[m] = fs.readFileSync(path.join(ROOT, "dist", "storage", m), "latin1");
  }
  const lines = runInEspruino(bin as string, streamProgram(sizes, described), files);
  const figures = lines.find((l) => l.startsWith(MARK + "bytes "));
  const result = lines.find((l) => l.startsWith(MARK + "result "));
  assert.ok(figures && result, lines.slice(-20).join("\n"));
  const w = (figures as string).split(" ");
  return { loaded: +w[4], streaming: +w[6], result: JSON.parse((result as string).slice(MARK.length + 7)) };
}

test("the restore module: its cost loaded, and a flat rise while 200 KB stream through it", () => {
  if (!bin) return console.log("  skipped: set ESPRUINO to measure in the real interpreter");
  // An MP3 of 120 KB and eight 9 KB icons: the 200 KB archive; a tenth of it beside.
  const big = [120000, 9000, 9000, 9000, 9000, 9000, 9000, 9000, 9000];
  const small = [12000, 900, 900, 900, 900, 900, 900, 900, 900];
  for (const described of [false, true]) {
    const large = runStream(big, described);
    const tenth = runStream(small, described);
    for (const r of [large, tenth]) {
      assert.equal(r.result, { ok: true, applied: { wifi: 0, system: 0, settings: 0, appLoop: 0, icons: 8, melodies: 0, palettes: 0,
        mp3: 1, skipped: 0 }, warnings: [] });
    }
    console.log("  " + (described ? "data descriptors" : "sizes up front  ") + ": module and sink " + large.loaded +
      " variables; while streaming +" + large.streaming + " (200 KB), +" + tenth.streaming + " (20 KB)");
    assert.ok(large.streaming <= STREAM_BUDGET, "+" + large.streaming + " while streaming > " + STREAM_BUDGET);
    // One file's segment list grows a little with its size (the files API's Incoming); nothing else.
    assert.ok(large.streaming - tenth.streaming <= 40, "rise grows with the archive: " + tenth.streaming + " -> " + large.streaming);
  }
});

// ---------------------------------------------------------------------------------------------

const BOUNDARY = "pixloopRestoreBoundary5551212";

function uploadBody(archive: Buffer): Buffer {
  return Buffer.concat([Buffer.from("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"backup.zip\"\r\n" +
    "Content-Type: application/zip\r\n\r\n", "latin1"), archive, Buffer.from("\r\n--" + BOUNDARY + "--\r\n", "latin1")]);
}

/** POST /api/v1/restore over a socket, `piece` bytes at a time: the answer's body. */
function paced(t: EspruinoTarget, archive: Buffer, piece: number, pauseMs: number): Promise<string> {
  const data = uploadBody(archive);
  const u = new URL(t.url);
  return new Promise((resolve, reject) => {
    const s = net.connect(+u.port, u.hostname, async () => {
      s.write("POST /api/v1/restore HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=" + BOUNDARY +
        "\r\nContent-Length: " + data.length + "\r\n\r\n");
      for (let at = 0; at < data.length; at += piece) {
        s.write(data.subarray(at, at + piece));
        await sleep(pauseMs);
      }
    });
    let got = "";
    s.on("data", (d) => { got += d.toString("latin1"); });
    s.on("end", () => resolve(got.slice(got.indexOf("\r\n\r\n") + 4)));
    s.on("error", reject);
  });
}

function archiveOf(mp3: number, icons: number): Buffer {
  const entries: TestEntry[] = [{ name: "manifest.json", data: '{"app":"pixloop","backupFormat":1}' },
    { name: "MP3/big.mp3", data: Buffer.concat([Buffer.from("ID3\x03\x00", "latin1"), noise(mp3, 7)]) }];
  for (let i = 0; i < 8; i++) entries.push({ name: "ICONS/n" + i + ".gif", data: Buffer.concat([Buffer.from("GIF89a"), noise(icons, i)]) });
  return makeZip(entries);
}

/** Restores `archive` while sampling the firmware's memory: its highest reading, the time taken, the answer. */
async function measured(t: EspruinoTarget, archive: Buffer): Promise<{ peak: number; ms: number; answer: any }> {
  let peak = 0;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      peak = Math.max(peak, await firmwareUsage(t));
      await sleep(5);
    }
  })();
  const t0 = Date.now();
  const answer = JSON.parse(await paced(t, archive, 536, 2));
  const ms = Date.now() - t0;
  polling = false;
  await poll;
  return { peak, ms, answer };
}

test("the firmware restores 200 KB while the display runs, and peaks no higher than for 20 KB", async () => {
  if (!bin) return;
  const t = await startEspruino("esp32", { debug: true });
  try {
    const large = archiveOf(120000, 9000);
    const small = archiveOf(12000, 900);
    assert.ok(large.length > 190000 && large.length < 210000, "" + large.length);
    // A configuration to restore: every entry goes through its route.
    const send = (method: string, p: string, body: unknown) =>
      fetch(t.url + p, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.status);
    assert.is(await send("PUT", "/api/v1/system", { hostname: "hall", mqttHost: "broker.local", minBrightness: 4 }), 200);
    // A still loop (no page changes), so that what the restore leaves behind is not hidden in one.
    assert.is(await send("PATCH", "/api/v1/settings", { brightness: 61, autoTransition: false, timeColor: "#123456" }), 200);
    assert.is(await send("PUT", "/api/v1/apps/order", { order: ["date", "time"], disabled: [] }), 200);
    const config = Buffer.from(await (await fetch(t.url + "/api/v1/backup?secrets=1")).arrayBuffer());
    // Once first: what a first restore builds for good (the stores' first writes) is not counted.
    assert.is(JSON.parse(await paced(t, config, 4096, 0)).ok, true);
    assert.is(JSON.parse(await paced(t, small, 4096, 0)).ok, true);
    await sleep(1500);
    const idle = await firmwareUsage(t);
    const settings = await measured(t, config);
    assert.equal(settings.answer.applied, { wifi: 1, system: 1, settings: 1, appLoop: 1, icons: 0, melodies: 0, palettes: 0, mp3: 0, skipped: 0 });
    console.log("  the configuration (" + config.length + " bytes) restored in " + settings.ms + " ms; firmware peak +" +
      (settings.peak - idle) + " over idle");
    await sleep(1500);
    const tenth = await measured(t, small);
    await sleep(1500);
    await fetch(t.debugUrl + "/gaps");
    const whole = await measured(t, large);
    const gaps = await (await fetch(t.debugUrl + "/gaps")).json() as { frames: number; maxMs: number };
    assert.equal(whole.answer.applied, { wifi: 0, system: 0, settings: 0, appLoop: 0, icons: 8, melodies: 0, palettes: 0, mp3: 1, skipped: 0 });
    console.log("  200 KB restored in " + whole.ms + " ms; firmware peak +" + (whole.peak - idle) + " over idle (20 KB: +" +
      (tenth.peak - idle) + "); " + gaps.frames + " frames meanwhile, longest gap " + gaps.maxMs + " ms");
    assert.ok(gaps.maxMs <= FRAME_BUDGET_MS, "a frame waited " + gaps.maxMs + " ms");
    assert.ok(whole.peak - tenth.peak <= STREAM_BUDGET, "200 KB peaks " + (whole.peak - tenth.peak) + " above 20 KB");
    await sleep(1500);
    const after = await firmwareUsage(t);
    assert.ok(Math.abs(after - idle) <= 10, "the restore leaves nothing behind: " + idle + " -> " + after);

    // And back out: the same files streamed by GET /api/v1/backup, a slice at a time.
    let peak = 0;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        peak = Math.max(peak, await firmwareUsage(t));
        await sleep(5);
      }
    })();
    const t0 = Date.now();
    const r = await fetch(t.url + "/api/v1/backup");
    const taken = Buffer.from(await r.arrayBuffer());
    const ms = Date.now() - t0;
    polling = false;
    await poll;
    const backGaps = await (await fetch(t.debugUrl + "/gaps")).json() as { maxMs: number };
    console.log("  backup of " + taken.length + " bytes in " + ms + " ms; firmware peak +" + (peak - idle) +
      " over idle; longest frame gap " + backGaps.maxMs + " ms");
    assert.is(r.status, 200);
    assert.ok(taken.length > large.length, "the restored files are all in it");
    assert.ok(backGaps.maxMs <= FRAME_BUDGET_MS, "a frame waited " + backGaps.maxMs + " ms");
  } finally {
    await t.stop();
  }
});

test.run();
