// POST /api/v1/files in the real interpreter ($ESPRUINO): a large MP3 and an icon, each streamed
// into Storage as it arrives. Budgets (bench/README.md, "Budgets", and uploads.test.ts): while the
// file streams in, at most 300 variables more than when its part began; at no point more than
// idle + 1,500; back within 10 of idle a moment after. The figures are taken inside the
// interpreter while the upload runs, by the probe of upload-probe.ts standing in for the route's
// module in this suite's copy of the firmware files.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { EspruinoTarget } from "../espruino/launch";
import { noise } from "../unit/backup-archives";
import { SERVE_KEEP_MS, clockFor, firmwareFilesWith, leastUsage, loopCycleMs, peaks, recordPeaks, restingMax, sleep } from "./probe";
import { PROBE_ROUTE, probeModule, probeReader, type ProbeFigures } from "./upload-probe";

const bin = process.env.ESPRUINO;
const GROWTH_BUDGET = 300;
const REQUEST_BUDGET = 1500;
const SETTLE_TOLERANCE = 10;
const BOUNDARY = "pixloopMemoryFiles3b9d";
/**
 * The MP3: its temporary segments and its published copy are in Storage together for a moment,
 * so the largest a fresh clock takes is about half of what the firmware's files leave free.
 */
const MP3_BYTES = 200 * 1024;

let t: EspruinoTarget;

clockFor(test, (c) => { t = c; }, () =>
  firmwareFilesWith((routes) => routes.replace(":files/upload|", ":test/probe-upload|") + PROBE_ROUTE,
    { "m.test.probe-upload": probeModule("files/upload"), "m.test.probe-read": probeReader() }));

function multipart(filename: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + filename +
    "\"\r\nContent-Type: application/octet-stream\r\n\r\n", "latin1"), data, Buffer.from("\r\n--" + BOUNDARY + "--\r\n", "latin1")]);
}

/** One file uploaded into `dir`, measured: the figures over idle, printed and checked. */
async function measure(dir: string, filename: string, data: Buffer, cycle: number): Promise<string[]> {
  const standins = (await (await fetch(t.debugUrl + "/mem")).json()).standins as number;
  const idle = await restingMax(t, cycle + 500);
  // Given back or not is read as the least of several readings on the held page: the most over a
  // cycle moves by a frame's passing state (about 13) from one reading to the next.
  const rest = await leastUsage(t, 8);
  await recordPeaks(t, 1);
  const r = await fetch(t.url + "/api/v1/files?dir=" + dir, {
    method: "POST", headers: { "Content-Type": "multipart/form-data; boundary=" + BOUNDARY }, body: new Uint8Array(multipart(filename, data)),
  });
  const text = await r.text();
  assert.is(r.status, 200, text);
  const answered = (await peaks(t))[0];
  const p = await fetch(t.url + "/test/probe");
  const f = await p.json() as ProbeFigures;
  assert.ok(f && f.samples > 0, "the probe took its readings");
  await sleep(SERVE_KEEP_MS + 200);
  const after = await leastUsage(t, 8);
  const peak = Math.max(f.peak - standins, answered);
  const growth = f.streamPeak - f.first;
  console.log("  " + dir + "/" + filename + " (" + data.length + " bytes, " + f.samples + " readings): idle " + idle + "; request begins +" +
    (f.start - standins - idle) + ", upload module loaded +" + (f.made - standins - idle) + ", file part begins +" +
    (f.first - standins - idle) + "; while streaming +" + growth + " over that (" + f.streamWhere + "); peak +" + (peak - idle) +
    " over idle (" + f.where + "; as answered +" + (answered - idle) + "); after " + (after - rest >= 0 ? "+" : "") + (after - rest));
  const over: string[] = [];
  if (growth > GROWTH_BUDGET) over.push(filename + ": grew by " + growth + " while streaming > " + GROWTH_BUDGET);
  if (peak - idle > REQUEST_BUDGET) over.push(filename + ": peak +" + (peak - idle) + " over idle > " + REQUEST_BUDGET);
  if (Math.abs(after - rest) > SETTLE_TOLERANCE) over.push(filename + ": " + rest + " before, " + after + " after");
  return over;
}

test("an MP3 of 200 KB and an icon uploaded: stream flat, peak within idle + 1,500, give it all back", async () => {
  if (!bin) return console.log("  skipped: set ESPRUINO to measure memory in the real interpreter");
  const cycle = await loopCycleMs(t);
  const still = await fetch(t.url + "/api/v1/settings", {
    method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ autoTransition: false }),
  });
  assert.is(still.status, 200);
  // Held on one page: what is on screen and what is loaded ahead stay the same throughout.
  const held = await fetch(t.url + "/api/v1/apps/active", {
    method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Date", fast: true }),
  });
  assert.is(held.status, 200);
  const mp3 = Buffer.concat([Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x00", "latin1"), noise(MP3_BYTES - 10, 5)]);
  const icon = Buffer.concat([Buffer.from("GIF89a", "latin1"), noise(6000, 6)]);
  // Once first (unmeasured): the first upload sweeps Storage and writes the files' index.
  const warm = await fetch(t.url + "/api/v1/files?dir=/ICONS", {
    method: "POST", headers: { "Content-Type": "multipart/form-data; boundary=" + BOUNDARY }, body: new Uint8Array(multipart("warm.gif", icon)),
  });
  assert.is(warm.status, 200, await warm.text());
  await (await fetch(t.url + "/test/probe")).arrayBuffer();
  await sleep(cycle);
  const over = (await measure("/MP3", "long-track.mp3", mp3, cycle)).concat(await measure("/ICONS", "mail.gif", icon, cycle));
  const stored = await (await fetch(t.url + "/api/v1/files?dir=/MP3")).json() as { files: { name: string; size: number }[] };
  assert.ok(stored.files.some((x) => x.name === "long-track.mp3" && x.size === mp3.length), JSON.stringify(stored));
  assert.equal(over, []);
});

test.run();
