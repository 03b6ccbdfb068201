// An 8 MB upload in the real interpreter ($ESPRUINO): the transport streams it through its
// multipart parser into a sink that drops every byte, so what the firmware holds must not grow
// with the upload. Budgets: at most 300 variables more at any point of the upload than when its
// first part began (the request, the pipeline and the upload modules already loaded), none left
// at its end, and the whole request within the 1,500 over idle every route keeps to
// (routes.test.ts). The display keeps drawing meanwhile.
//
// The sink is a module of its own ("test/discard") behind a route of its own, flashed with the
// firmware's files. It takes process.memory().usage after a collection when the part begins, at
// every 1000th chunk and when the part ends, and process.memory(false).usage (garbage not yet
// collected included: the probes' own requests leave some) at every other chunk, and reports the
// highest of each with its answer: the figures are taken while the upload is under way.
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import type { EspruinoTarget } from "../espruino/launch";
import { clockFor, firmwareFilesWith, hook, loopCycleMs, restingMax, sleep } from "./probe";

const bin = process.env.ESPRUINO;
const GROWTH_BUDGET = 300;
const REQUEST_BUDGET = 1500;
/** Bytes of the file in the upload: an 8 MB firmware package is what the transport must carry. */
const FILE_BYTES = 8 * 1024 * 1024 - 4096;
const ROUTE = "/test/discard";
const BOUNDARY = "----pixloopDiscardBoundary5f1c0d9e2b7a";

/** The sink, in the form the build gives a module (build/modules.mjs asExpression). */
const DISCARD = "(()=>{var make=function(req,app){" +
  "var peak=0,gcPeak=0,first=0,last=0,bytes=0,parts=0,calls=0;" +
  "function note(gc){var u=gc?process.memory().usage:process.memory(false).usage;if(u>peak)peak=u;if(gc&&u>gcPeak)gcPeak=u;return u;}" +
  "return{begin:function(f,n,t){parts++;first=note(true);return null;}," +
  "data:function(c){bytes+=c.length;calls++;note(calls%1000===0);return null;}," +
  "end:function(){last=note(true);return null;}," +
  "finish:function(){return{status:200,json:{bytes:bytes,parts:parts,calls:calls,peak:peak,gcPeak:gcPeak,first:first,last:last}};}," +
  "abort:function(){}};};return make})()";

let t: EspruinoTarget;

clockFor(test, (c) => { t = c; }, () =>
  firmwareFilesWith((routes) => routes + ROUTE + "||POST:u:8388608:test/discard\n", { "m.test.discard": DISCARD }));


/** Sends an upload of FILE_BYTES bytes (CRLFs among them) at the pace the interpreter reads it. */
function sendUpload(): Promise<{ status: number; body: any }> {
  const head = Buffer.from("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"firmware\"; filename=\"big.bin\"\r\n" +
    "Content-Type: application/octet-stream\r\n\r\n", "latin1");
  const tail = Buffer.from("\r\n--" + BOUNDARY + "--\r\n", "latin1");
  const block = Buffer.alloc(65536);
  for (let i = 0; i < block.length; i++) block[i] = (i * 131 + (i >> 7)) & 255;
  // Line ends and dashes, as a delimiter would begin, here and there.
  for (let i = 500; i < block.length; i += 4099) block.write("\r\n--" + BOUNDARY.slice(0, 9), i, "latin1");
  const u = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname, port: u.port, method: "POST", path: ROUTE,
      headers: { "Content-Type": "multipart/form-data; boundary=" + BOUNDARY, "Content-Length": head.length + FILE_BYTES + tail.length },
    }, (res) => {
      let text = "";
      res.setEncoding("latin1");
      res.on("data", (c) => { text += c; });
      res.on("end", () => {
        try { resolve({ status: res.statusCode || 0, body: JSON.parse(text) }); } catch (e) { reject(new Error(text)); }
      });
    });
    req.on("error", reject);
    let sent = 0;
    const pump = () => {
      if (sent === 0) req.write(head);
      while (sent < FILE_BYTES) {
        const n = Math.min(block.length, FILE_BYTES - sent);
        sent += n;
        if (!req.write(n === block.length ? block : block.subarray(0, n))) return void req.once("drain", pump);
      }
      req.end(tail);
    };
    pump();
  });
}

test("an 8 MB upload into a sink that drops it: memory flat while it streams, and frames go on", async () => {
  if (!bin) return console.log("  skipped: set ESPRUINO to measure memory in the real interpreter");
  const cycle = await loopCycleMs(t);
  // A still display (frames are drawn all the same): a page change during the upload would count
  // what its transition loads.
  const still = await fetch(t.url + "/api/v1/settings", {
    method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ autoTransition: false }),
  });
  assert.is(still.status, 200);
  await sleep(cycle);
  const standins = (await hook(t, "/mem")).standins as number;
  // The firmware at rest, over a loop cycle (page changes included), with the request pipeline
  // not loaded.
  const idle = (await restingMax(t, cycle + 500)) + standins;
  const framesBefore = (await hook(t, "/frame")).frames as number;
  const started = Date.now();
  const samples: number[] = [];
  let uploading = true;
  const watcher = (async () => {
    let prev = framesBefore;
    while (uploading) {
      await sleep(1000);
      const f = (await hook(t, "/frame")).frames as number;
      samples.push(f - prev);
      prev = f;
    }
  })();
  const r = await sendUpload();
  uploading = false;
  await watcher;
  const seconds = (Date.now() - started) / 1000;
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.bytes, FILE_BYTES, "every byte reached the sink");
  assert.is(r.body.parts, 1);
  const fps = ((await hook(t, "/frame")).frames - framesBefore) / seconds;
  const growth = r.body.gcPeak - r.body.first;
  console.log("  " + (FILE_BYTES / 1048576).toFixed(1) + " MB in " + seconds.toFixed(1) + " s (" + r.body.calls +
    " chunks); over the start of the upload: collected peak +" + growth + ", uncollected peak +" +
    (r.body.peak - r.body.first) + ", at its end " + (r.body.last - r.body.first >= 0 ? "+" : "") + (r.body.last - r.body.first) +
    "; over idle (" + (idle - standins) + "): start +" + (r.body.first - idle) + ", collected peak +" + (r.body.gcPeak - idle) +
    "; " + fps.toFixed(1) + " frames/s meanwhile, slowest second " + Math.min(...samples));
  assert.ok(growth <= GROWTH_BUDGET, "the upload grew by " + growth + " > " + GROWTH_BUDGET);
  assert.ok(r.body.last - r.body.first <= 10, "held more at the end: " + r.body.first + " -> " + r.body.last);
  assert.ok(r.body.gcPeak - idle <= REQUEST_BUDGET, "request peak +" + (r.body.gcPeak - idle) + " > " + REQUEST_BUDGET);
  assert.ok(samples.length > 0 && Math.min(...samples) > 0, "a second without frames: " + samples.join());
});

test.run();
