// What an update costs the clock, in the real interpreter ($ESPRUINO): the interpreter variables
// the whole firmware package takes on top of a clock at rest (budget: 300), and how long the
// display goes without a frame while it comes in (budget: 200 ms).
//
// 1. The sink alone, as the transport drives it, in a program of its own: the module loaded from
//    Storage, the build's package read from a file in the transport's 536-byte pieces. Every
//    Storage and crypto call the module makes samples the variables in use without a collection,
//    so every transient it creates is seen, not only what it keeps between pieces.
// 2. The whole clock: an upload over HTTP while the interpreter's own counters are read from the
//    stand-ins' benchmark hook: the variables in use between pieces (the transport, its parser and
//    the sink together), and the frames pushed to the LEDs, timed by a poll every few milliseconds.
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runInEspruino } from "./script";
import { startEspruino } from "./launch";
import { ROOT } from "../harness/root";
import { makePackage, multipart, upload } from "./update-support";

const bin = process.env.ESPRUINO;
const MARK = "[budget] ";
const BUDGET_VARS = 300;
const BUDGET_FRAME_MS = 200;
/** What any request may take over the clock at rest (test/memory/routes.test.ts). */
const REQUEST_BUDGET = 1500;

function program(file: string): string {
  return `
  import { loadModule } from "./firmware/platform/modules";
  import type { MakeUpload, UploadSink } from "./firmware/http/upload";
  declare const global: any;
  declare const Modules: any;
  const out = (s: string) => print("${MARK}" + s);
  global.PIXLOOP_SLOT = "a/";
  const real = require("Storage") as any;
  const hash = (require as any)("crypto");
  // Every variable of the measurement made before the first reading: [peak, its phase, phase now].
  const peak = [0, 0, 0];
  const phases = [0, 0, 0];
  const sample = () => {
    const u = process.memory(false).usage;
    if (u > peak[0]) peak[0] = u;
    if (u > phases[peak[2]]) phases[peak[2]] = u;
  };
  global.WRAP_S = {
    read: (a: string, b?: number, c?: number) => { sample(); return real.read(a, b, c); },
    write: (a: string, b: string, c?: number, d?: number) => { sample(); const r = real.write(a, b, c, d); sample(); return r; },
    erase: (a: string) => { sample(); real.erase(a); },
    list: (r: RegExp) => { sample(); return real.list(r); },
    getStats: () => { sample(); return real.getStats(); },
    getFree: () => real.getFree(),
    compact: () => out("compact called"),
  };
  global.WRAP_C = { SHA256: (d: string) => { sample(); const r = hash.SHA256(d); sample(); return r; } };
  Modules.addCached("Storage", "module.exports=WRAP_S");
  Modules.addCached("crypto", "module.exports=WRAP_C");
  const app = {
    board: { id: "esp32", soc: "esp32", updateImage: "pixloop-esp32.bin", fitted: { psram: "none" } },
    version: "0.1.0", restart: () => undefined, update: undefined as unknown,
  };
  const f = (E as any).openFile(${JSON.stringify(file)}, "r");
  const n = [0, 0, 0, 0, 0];
  let chunk: string | undefined = "";
  let sink: UploadSink | null = null;
  let done: any = null;
  let ended: any = null;
  let failed = "";
  // A first round refused at its header (the running version again), so that what any first use
  // leaves for good (globals a helper creates, module objects) is in the clock at rest.
  sink = loadModule<MakeUpload>("update/upload")({} as any, app as any) as UploadSink;
  sink.begin("firmware", "pixloop-esp32.bin", "application/octet-stream");
  ended = sink.data("pixloop-update 1\\nproduct pixloop\\nboard esp32\\nchip esp32\\npsram none\\nversion 0.1.0\\nfiles 2\\n" +
    "length 10\\nsha256 " + "0".repeat(64) + "\\n\\n");
  if (!ended || ended.code !== "notNewer") out("failed warm-up " + JSON.stringify(ended));
  sink.abort();
  sink = null;
  ended = null;
  // Built-in objects the interpreter makes at their first use (they would be there on a clock).
  [Math.min(1, 2), JSON.stringify([]), new Uint8Array(1), Number("1")].length;
  const idle = process.memory().usage;

  sink = loadModule<MakeUpload>("update/upload")({} as any, app as any) as UploadSink;
  sink.begin("firmware", "pixloop-esp32.bin", "application/octet-stream");
  const first = process.memory().usage;
  peak[0] = first;
  while ((chunk = f.read(536))) {
    const held = process.memory().usage - first;
    if (held > n[1]) n[1] = held;
    peak[2] = n[0] === 0 ? 0 : 1;
    sample();
    const t0 = getTime();
    const r = sink.data(chunk);
    const ms = Math.round((getTime() - t0) * 100000);
    if (ms > n[2]) n[2] = ms;
    sample();
    if (r) { failed = JSON.stringify(r); break; }
    n[0]++;
  }
  chunk = undefined;
  f.close();
  peak[2] = 2;
  const t1 = getTime();
  ended = sink.end();
  done = sink.finish();
  n[3] = Math.round((getTime() - t1) * 100000);
  sample();
  out("pieces " + n[0]);
  out("failed " + (failed || (ended ? JSON.stringify(ended) : "")));
  out("status " + done.status);
  out("growth " + (peak[0] - first));
  out("phases " + (phases[0] - first) + " " + (phases[1] - first) + " " + (phases[2] - first));
  out("request " + (peak[0] - idle));
  out("loaded " + (first - idle));
  out("kept " + n[1]);
  out("slowest " + (n[2] / 100).toFixed(2));
  out("finish " + (n[3] / 100).toFixed(2));
  out("staged " + real.list(/^b\\//).length);
  out("update " + JSON.stringify(app.update));
  sink = null;
  done = null;
  app.update = undefined;
  out("after " + (process.memory().usage - idle));

  const dropped = process.memory().usage;
  const again = loadModule<MakeUpload>("update/upload");
  out("upload module " + (process.memory().usage - dropped));
  `;
}

test("the sink takes the whole package within the variable budget", async () => {
  if (!bin) return console.log("  skipped: set ESPRUINO to measure the update in the real interpreter");
  const pkg = await makePackage({ version: "0.2.0" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-budget-"));
  const file = path.join(dir, "package.bin");
  fs.writeFileSync(file, pkg);
  try {
    const files: { [name: string]: string } = {};
    for (const m of ["m.update.upload", "m.update.header", "m.update.commit"]) {
      files["a/" + m] = fs.readFileSync(path.join(ROOT, "dist", "storage", m), "latin1");
    }
    const lines = runInEspruino(bin, program(file), files, 300000);

    const said: { [k: string]: string } = {};
    for (const l of lines) if (l.startsWith(MARK)) said[l.slice(MARK.length).split(" ")[0]] = l.slice(MARK.length).split(" ").slice(1).join(" ");
    assert.is(said.failed, "", lines.filter((l) => l.startsWith(MARK) || l.includes("Uncaught")).join("\n"));
    assert.is(said.status, "200");
    assert.is(+said.pieces, Math.ceil(pkg.length / 536));
    assert.ok(+said.staged > 100);
    const [header, streaming, finish] = said.phases.split(" ");
    console.log("  package " + pkg.length + " bytes in " + said.pieces + " pieces of 536: at most +" + said.growth +
      " variables over the start of the upload (the header " + header + ", the files " + streaming + ", the check and switch " +
      finish + "; between pieces at most +" + said.kept + "); the request +" + said.request + " over idle (its module +" +
      said.loaded + "), +" + said.after + " left once dropped; slowest piece " + said.slowest + " ms, the check and switch " +
      said.finish + " ms (Linux build)");
    assert.ok(+said.growth <= BUDGET_VARS, "growth " + said.growth);
    // The app's `update` entry, and the figures of the measurement itself.
    assert.ok(+said.after <= 16, "left behind " + said.after);
    assert.not.ok(lines.some((l) => l.includes("compact called")), "never compacts while the firmware runs");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the whole clock: memory while the package comes in, and the display keeps its frames", async () => {
  if (!bin) return;
  const body = multipart(await makePackage({ version: "0.2.0", wait: 60000 }));
  // Memory: a paced upload, the usage read (after a collection) while it comes in.
  let t = await startEspruino("esp32", { debug: true });
  let grown = 0;
  let idle = Infinity;
  try {
    const mem = async () => (await (await fetch(t.debugUrl + "/mem")).json()) as { usage: number };
    await new Promise((r) => setTimeout(r, 1500));
    for (let i = 0; i < 5; i++) idle = Math.min(idle, (await mem()).usage);
    let most = 0;
    let sending = true;
    const paced = upload(t.url + "/update", body, { piece: 536, pauseMs: 1, timeoutMs: 180000 }).finally(() => { sending = false; });
    while (sending) {
      const u = (await mem()).usage;
      if (u > most) most = u;
      await new Promise((r) => setTimeout(r, 30));
    }
    assert.is((await paced).status, 200);
    grown = most - idle;
  } finally {
    await t.stop();
  }
  // Frames: the same upload on a fresh clock, the LEDs' frame count polled every few milliseconds.
  t = await startEspruino("esp32", { debug: true });
  try {
    const frames = async () => ((await (await fetch(t.debugUrl + "/frame")).json()) as { frames: number }).frames;
    await new Promise((r) => setTimeout(r, 1500));
    const seen: [number, number][] = [];
    let going = true;
    const sent = upload(t.url + "/update", body, { piece: 536, pauseMs: 1, timeoutMs: 180000 }).finally(() => { going = false; });
    const start = Date.now();
    while (going) {
      seen.push([Date.now() - start, await frames()]);
      await new Promise((r) => setTimeout(r, 5));
    }
    assert.is((await sent).status, 200);
    let gap = 0;
    let last = seen[0][0];
    for (let i = 1; i < seen.length; i++) {
      if (seen[i][1] !== seen[i - 1][1]) {
        gap = Math.max(gap, seen[i][0] - last);
        last = seen[i][0];
      }
    }
    const span = seen[seen.length - 1][0] - seen[0][0];
    const fps = (seen[seen.length - 1][1] - seen[0][1]) / (span / 1000);
    console.log("  whole clock (request, transport and update): +" + grown + " variables over " + idle + " at rest while the " +
      "package came in (read between pieces); frames: at most " + gap + " ms between two, " + fps.toFixed(1) +
      " a second, over the " + span + " ms of the upload (Linux build)");
    assert.ok(grown <= REQUEST_BUDGET, "the request +" + grown);
    assert.ok(gap <= BUDGET_FRAME_MS, "longest time without a frame: " + gap + " ms");
  } finally {
    await t.stop();
  }
});

test.run();
