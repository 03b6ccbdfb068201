// POST /api/v1/restore of a ~200 KB backup archive in the real interpreter ($ESPRUINO), taken with
// GET /api/v1/backup from a clock holding icons and MP3 files. Budgets (bench/README.md, "Budgets",
// and uploads.test.ts): while the archive streams in, at most 300 variables more than when its
// part began; at no point more than idle + 1,500; back within 10 of idle a moment after.
//
// The figures are taken inside the interpreter while the restore runs: the route's module is
// replaced, in this suite's copy of the firmware files, by a probe (uploadProbe) that loads the
// real one and passes every call on, and that for the length of the request also reads
// process.memory().usage (after a collection) around every Storage write, read and erase and
// after every JSON.parse: the moments the restore writes a file, loads a module or applies a
// configuration entry. The firmware itself carries nothing of this.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { EspruinoTarget } from "../espruino/launch";
import { noise, unzipAll } from "../unit/backup-archives";
import { clockFor, firmwareFilesWith, hook, loopCycleMs, peaks, recordPeaks, restingMax, sleep, stillUsage } from "./probe";
import { PROBE_ROUTE, probeModule, probeReader, type ProbeFigures } from "./upload-probe";

const bin = process.env.ESPRUINO;
const GROWTH_BUDGET = 300;
const REQUEST_BUDGET = 1500;
const SETTLE_TOLERANCE = 10;
const BOUNDARY = "pixloopMemoryRestore7c1e";

let t: EspruinoTarget;

clockFor(test, (c) => { t = c; }, () =>
  firmwareFilesWith((routes) => routes.replace(":backup/restore\n", ":test/probe-restore\n") + PROBE_ROUTE,
    { "m.test.probe-restore": probeModule("backup/restore"), "m.test.probe-read": probeReader() }));


function multipart(field: string, filename: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + field + "\"; filename=\"" +
    filename + "\"\r\nContent-Type: application/octet-stream\r\n\r\n", "latin1"), data,
  Buffer.from("\r\n--" + BOUNDARY + "--\r\n", "latin1")]);
}

async function post(p: string, body: Buffer): Promise<{ status: number; text: string }> {
  const r = await fetch(t.url + p, {
    method: "POST", headers: { "Content-Type": "multipart/form-data; boundary=" + BOUNDARY }, body: new Uint8Array(body),
  });
  return { status: r.status, text: await r.text() };
}

async function figures(): Promise<ProbeFigures> {
  const r = await fetch(t.url + "/test/probe");
  assert.is(r.status, 200);
  const f = await r.json() as ProbeFigures | null;
  assert.ok(f && f.samples > 0, "the probe took its readings");
  return f as ProbeFigures;
}

test("a 200 KB backup restored: streams flat, peaks within idle + 1,500, gives it all back", async () => {
  if (!bin) return console.log("  skipped: set ESPRUINO to measure memory in the real interpreter");
  const cycle = await loopCycleMs(t);
  const still = await fetch(t.url + "/api/v1/settings", {
    method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ autoTransition: false }),
  });
  assert.is(still.status, 200);
  assert.is((await fetch(t.url + "/api/v1/system", {
    method: "PUT", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ hostname: "hall-clock", tz: "GMT0BST,M3.5.0/1,M10.5.0", tzName: "Europe/London", mqttHost: "broker.local" }),
  })).status, 200);
  // The clock's files: icons of a few KB and MP3s of tens of KB.
  for (let i = 0; i < 8; i++) {
    const icon = Buffer.concat([Buffer.from("GIF89a", "latin1"), noise(2500 + 500 * i, 10 + i)]);
    const r = await post("/api/v1/files?dir=/ICONS", multipart("file", "icon" + i + ".gif", icon));
    assert.is(r.status, 200, r.text);
  }
  for (let i = 0; i < 3; i++) {
    const mp3 = Buffer.concat([Buffer.from("ID3\x03\x00", "latin1"), noise(55000 + 1000 * i, 20 + i)]);
    const r = await post("/api/v1/files?dir=/MP3", multipart("file", "track" + i + ".mp3", mp3));
    assert.is(r.status, 200, r.text);
  }
  const taken = await fetch(t.url + "/api/v1/backup?secrets=1");
  assert.is(taken.status, 200);
  const archive = Buffer.from(await taken.arrayBuffer());
  assert.ok(archive.length > 190000, "a backup of " + archive.length + " bytes");
  const body = multipart("file", "pixloop-backup.zip", archive);
  const expected = { wifi: 1, system: 1, settings: 1, appLoop: 1, icons: 8, melodies: 0, palettes: 0, mp3: 3, skipped: 0 };

  // Once first: the first write of each store replaces what boot built (routes.test.ts).
  const warm = await post("/api/v1/restore", body);
  assert.is(warm.status, 200, warm.text);
  assert.equal(JSON.parse(warm.text).applied, expected);
  await figures();
  await sleep(cycle);

  // For comparison: the same configuration entries sent to their routes as plain requests.
  const entries = unzipAll(archive);
  const plain: string[] = [];
  const idle0 = await restingMax(t, cycle + 500);
  for (const [method, route, entry] of [["PUT", "/api/v1/system", "config/system.json"], ["PATCH", "/api/v1/settings", "config/settings.json"],
    ["PUT", "/api/v1/apps/order", "apploop.json"]]) {
    await recordPeaks(t, 1);
    const a = await fetch(t.url + route, { method, headers: { "Content-Type": "application/json" }, body: entries[entry].toString("latin1") });
    await a.arrayBuffer();
    assert.is(a.status, 200, method + " " + route);
    plain.push(method + " " + route + " +" + ((await peaks(t))[0] - idle0));
    await sleep(1000);
  }
  console.log("  the archive's configuration entries as plain requests, peak over idle: " + plain.join(", "));
  const standins = (await hook(t, "/mem")).standins as number;
  // Given back or not is read with the loop held on one page (stillUsage): the most over a moving
  // cycle moves by a frame's passing state from one reading to the next. The loop stays held for
  // the restore (as the archive's settings hold it), so that no change of page, with the next page
  // and its transition loaded for its last second, falls inside what the restore is charged with.
  const rest = await stillUsage(t, false);
  const idle = await restingMax(t, cycle + 500);
  await recordPeaks(t, 1);
  const r = await post("/api/v1/restore", body);
  assert.is(r.status, 200, r.text);
  assert.equal(JSON.parse(r.text), { ok: true, applied: expected, warnings: [] });
  const answered = (await peaks(t))[0];
  const f = await figures();
  const after = await stillUsage(t);
  const peak = Math.max(f.peak - standins, answered);
  const growth = f.streamPeak - f.first;
  console.log("  restore of " + archive.length + " bytes (" + f.samples + " readings); idle " + idle + "; request begins +" +
    (f.start - standins - idle) + ", restore module loaded +" + (f.made - standins - idle) + ", archive part begins +" +
    (f.first - standins - idle) + "; while streaming +" + growth + " over that (" + f.streamWhere + "); peak +" + (peak - idle) +
    " over idle (" + f.where + "; as answered +" + (answered - idle) + "); after " + (after - rest >= 0 ? "+" : "") + (after - rest));
  assert.ok(growth <= GROWTH_BUDGET, "grew by " + growth + " while streaming > " + GROWTH_BUDGET);
  assert.ok(peak - idle <= REQUEST_BUDGET, "peak +" + (peak - idle) + " over idle > " + REQUEST_BUDGET);
  assert.ok(Math.abs(after - rest) <= SETTLE_TOLERANCE, rest + " before, " + after + " after");
});

test.run();
