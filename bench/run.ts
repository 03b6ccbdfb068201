// npm run bench: figures of the firmware in the real interpreter (the Linux build of Espruino
// named by $ESPRUINO, booted from Storage as the clock boots: see test/espruino/launch.ts),
// printed as a table and kept in bench/out/espruino-<board>.json.
//
//   memory  process.memory().usage: the stand-ins' share (.boot0), the firmware just after
//           .bootcde has been evaluated, idle (each page alone on screen; budget 3,000, the
//           stand-ins' share less) and the most over a loop turn
//   load    1,000 mixed requests one after another: wrong answers, and memory before/after
//   speed   GET /api/v1/device: time in the interpreter (request callback to res.end) and the
//           round trip seen from Node
//
// Options: --board <id> (default esp32), --requests <n> (default 1000), --samples <n> (default
// 200), --idle <seconds> (default 5), --keep-dumps (write the raw E.dumpVariables() listings to
// bench/out/ to see where the variables go).
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { startEspruino, type EspruinoTarget } from "../test/espruino/launch";
import { ROOT } from "../test/harness/root";
import { analyseDump, type DumpFigures } from "./dump";
import { idleUsage, loopCycleMs, restingMax } from "../test/memory/probe";
import { measureModules, moduleTable } from "./modules";
import { option } from "./options";

const IDLE_BUDGET = 3000;
const GROWTH_LIMIT = 0.01;


const board = option("board", "esp32");
const REQUESTS = +option("requests", 1000);
const SAMPLES = +option("samples", 200);
const IDLE_MS = +option("idle", 5) * 1000;

if (!process.env.ESPRUINO) {
  console.log("benchmarks skipped: set ESPRUINO=/path/to/espruino (a Linux build of Espruino)");
  process.exit(0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Step { method: string; path: string; body?: string; type?: string; expect: number; what: string }

/** One cycle of the mix; the valid PUT alternates between two values so the state stays the same size. */
function cycle(i: number): Step[] {
  const json = "application/json";
  return [
    { what: "GET device", method: "GET", path: "/api/v1/device", expect: 200 },
    { what: "GET system", method: "GET", path: "/api/v1/system", expect: 200 },
    { what: "PUT system (valid)", method: "PUT", path: "/api/v1/system", type: json,
      body: JSON.stringify({ minBrightness: 10 + (i % 2) }), expect: 200 },
    { what: "PUT system (out of range)", method: "PUT", path: "/api/v1/system", type: json,
      body: JSON.stringify({ minBrightness: 999 }), expect: 422 },
    { what: "PUT system (wrong type)", method: "PUT", path: "/api/v1/system", type: json,
      body: JSON.stringify({ webPort: "eighty" }), expect: 422 },
    { what: "PUT system (bad JSON)", method: "PUT", path: "/api/v1/system", type: json,
      body: "{\"tzName\": ", expect: 400 },
    { what: "GET unknown route", method: "GET", path: "/api/v1/nothing-here", expect: 404 },
    { what: "DELETE system", method: "DELETE", path: "/api/v1/system", expect: 405 },
    { what: "POST device", method: "POST", path: "/api/v1/device", expect: 405 },
    { what: "GET version", method: "GET", path: "/api/v1/version", expect: 200 },
  ];
}

interface Failure { what: string; got: string }

async function send(t: EspruinoTarget, s: Step): Promise<string | null> {
  try {
    const headers: { [k: string]: string } = {};
    if (s.type) headers["Content-Type"] = s.type;
    const r = await fetch(t.url + s.path, { method: s.method, headers, body: s.body, signal: AbortSignal.timeout(10000) });
    const text = await r.text();
    if (r.status !== s.expect) return "status " + r.status + " (expected " + s.expect + "): " + text.slice(0, 120);
    try { JSON.parse(text); } catch (e) { return "status " + r.status + " but the body is not JSON: " + text.slice(0, 120); }
    return null;
  } catch (e) {
    return String(e);
  }
}

async function runMix(t: EspruinoTarget, count: number): Promise<{ failures: Failure[]; ms: number }> {
  const failures: Failure[] = [];
  const t0 = performance.now();
  for (let i = 0, c = 0; i < count; c++) {
    for (const s of cycle(c)) {
      if (i++ >= count) break;
      const got = await send(t, s);
      if (got) failures.push({ what: s.what, got });
    }
  }
  return { failures, ms: performance.now() - t0 };
}

function stats(list: number[]): { median: number; p95: number; min: number; max: number; mean: number; n: number } {
  const s = list.slice().sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
  const mean = s.reduce((a, b) => a + b, 0) / (s.length || 1);
  return { median: at(0.5), p95: at(0.95), min: s[0], max: s[s.length - 1], mean, n: s.length };
}

async function debugJson(t: EspruinoTarget, p: string): Promise<any> {
  return (await fetch(t.debugUrl + p)).json();
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => n.toFixed(2);
const pad = (s: string, w: number) => (s.length >= w ? s : s + " ".repeat(w - s.length));
const lpad = (s: string, w: number) => (s.length >= w ? s : " ".repeat(w - s.length) + s);

async function main(): Promise<void> {
  const bundle = path.join(ROOT, "dist", board + ".js");
  const bundleBytes = fs.statSync(bundle).size;
  console.log("booting dist/" + board + ".js (" + fmt(bundleBytes) + " bytes) in " + process.env.ESPRUINO + " ...");
  const t = await startEspruino(board, { debug: true, dumpAtLoad: true });
  try {
    const version = t.version || "?";
    const before = analyseDump(t.dumps.before);
    const loaded = analyseDump(t.dumps.loaded);
    const mem0 = await debugJson(t, "/mem");
    const standins = mem0.standins as number;
    const poolSize = mem0.total as number;

    console.log("settling for " + IDLE_MS / 1000 + " s ...");
    await sleep(IDLE_MS);
    const idle = analyseDump(await t.requestDump("idle"));
    // Readings over a whole turn of the app loop (its most), so that where a page change falls
    // does not decide the figures (see "Budgets" in bench/README.md); idle is each page alone.
    const turn = (await loopCycleMs(t)) + 500;
    const idleTurn = await restingMax(t, turn);
    const idlePages = await idleUsage(t);

    console.log("warm-up (one cycle of the mix), then " + REQUESTS + " mixed requests ...");
    await runMix(t, cycle(0).length);
    await sleep(1000);
    const preLoad = analyseDump(await t.requestDump("preload"));
    const preTurn = await restingMax(t, turn);
    const mix = await runMix(t, REQUESTS);
    await sleep(2000);
    const postLoad = analyseDump(await t.requestDump("postload"));
    const postTurn = await restingMax(t, turn);

    console.log("timing " + SAMPLES + " × GET /api/v1/device ...");
    await debugJson(t, "/timing/start?n=" + SAMPLES);
    const wall: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now();
      const r = await fetch(t.url + "/api/v1/device");
      await r.arrayBuffer();
      wall.push(performance.now() - t0);
    }
    const inside = ((await debugJson(t, "/timing")).ms as number[]);
    const memAfterTiming = (await debugJson(t, "/mem")).usage as number;
    const uncaught = t.lines.filter((l) => /Uncaught|OUT OF MEMORY|FIFO_FULL|error:/i.test(l) && !/Analog is not supported/.test(l));

    // ---- report --------------------------------------------------------------------------
    const rows: [string, string, string][] = [];
    const row = (what: string, n: number | string, note = "") => rows.push([what, typeof n === "number" ? fmt(n) : n, note]);
    row("stand-ins (.boot0), before the firmware", standins, "subtracted below");
    row("firmware just after .bootcde was evaluated", loaded.usage - standins);
    row("whole interpreter, idle " + IDLE_MS / 1000 + " s after boot", idle.usage, "of " + fmt(poolSize));
    const idleFw = idlePages.most;
    row("firmware idle (less stand-ins; a page alone, the most of " + Object.keys(idlePages.pages).length + ")", idleFw,
      idleFw <= IDLE_BUDGET ? "ok (budget " + fmt(IDLE_BUDGET) + ")" : "OVER budget " + fmt(IDLE_BUDGET));
    for (const name of Object.keys(idlePages.pages)) row("  " + name + " alone on screen", idlePages.pages[name]);
    row("firmware, most over a loop turn (a change of page under way)", idleTurn);
    row("firmware before " + REQUESTS + " requests (after warm-up; most over a turn)", preTurn);
    row("firmware after " + REQUESTS + " requests (most over a turn)", postTurn);
    const growth = postTurn - preTurn;
    const pct = growth / preTurn;
    row("growth over " + REQUESTS + " requests", (growth >= 0 ? "+" : "") + fmt(growth) + " (" + (pct * 100).toFixed(2) + "%)",
      pct <= GROWTH_LIMIT ? "ok (limit 1%)" : "OVER limit 1%");

    console.log("\npixloop " + board + " in Espruino " + version + " (Linux build, ESP32 properties, booted from Storage), bundle " +
      fmt(bundleBytes) + " bytes\n");
    const w0 = Math.max(...rows.map((r) => r[0].length), 10) + 2;
    console.log(pad("memory, process.memory().usage (variables of 14 bytes)", w0 + 10));
    for (const r of rows) console.log(pad("  " + r[0], w0) + lpad(r[1], 10) + "  " + r[2]);

    console.log("\n" + REQUESTS + " mixed requests, one at a time: " + mix.failures.length + " wrong answers, " +
      ms(mix.ms / REQUESTS) + " ms per request on average");
    const seen = new Set<string>();
    for (const f of mix.failures) {
      if (seen.has(f.what)) continue;
      seen.add(f.what);
      console.log("  " + f.what + ": " + f.got + " (" + mix.failures.filter((x) => x.what === f.what).length + "×)");
    }

    const si = stats(inside);
    const sw = stats(wall);
    console.log("\nGET /api/v1/device, " + SAMPLES + " requests" + lpad("median", 10) + lpad("p95", 9) + lpad("min", 9) + lpad("max", 9));
    const w1 = ("GET /api/v1/device, " + SAMPLES + " requests").length;
    console.log(pad("  in the interpreter, ms", w1) + lpad(ms(si.median), 10) + lpad(ms(si.p95), 9) + lpad(ms(si.min), 9) + lpad(ms(si.max), 9));
    console.log(pad("  round trip from Node, ms", w1) + lpad(ms(sw.median), 10) + lpad(ms(sw.p95), 9) + lpad(ms(sw.min), 9) + lpad(ms(sw.max), 9));
    console.log("  (this machine; the ESP32 is roughly ten times slower)");

    const kinds = Object.keys(idle.kinds).map((k) => [k, idle.kinds[k] - (before.kinds[k] || 0)] as [string, number])
      .filter((k) => k[1] !== 0).sort((a, b) => b[1] - a[1]);
    console.log("\nfirmware idle by kind (less the stand-ins; " + fmt(idle.functions - before.functions) + " functions)");
    for (const [k, n] of kinds) console.log(pad("  " + k, 48) + lpad(fmt(n), 8));

    if (uncaught.length) {
      console.log("\nerrors printed by the interpreter:");
      for (const l of uncaught.slice(0, 20)) console.log("  " + l);
    }

    const out = path.join(ROOT, "bench", "out");
    fs.mkdirSync(out, { recursive: true });
    const file = path.join(out, "espruino-" + board + ".json");
    const strip = (d: DumpFigures) => ({ usage: d.usage, functions: d.functions, kinds: d.kinds });
    fs.writeFileSync(file, JSON.stringify({
      board, espruino: version, bundleBytes, date: new Date().toISOString(),
      memory: { total: poolSize, standins, before: strip(before), loaded: strip(loaded), idle: strip(idle),
        preLoad: strip(preLoad), postLoad: strip(postLoad), afterTiming: memAfterTiming, idleFirmware: idleFw, idlePages: idlePages.pages, mostOverTurn: idleTurn,
        budget: IDLE_BUDGET },
      load: { requests: REQUESTS, wrong: mix.failures.length, failures: mix.failures.slice(0, 50), msTotal: mix.ms,
        growth, growthPercent: pct * 100 },
      getDevice: { inside: si, wall: sw },
      interpreterErrors: uncaught,
    }, null, 2) + "\n");
    if (process.argv.includes("--keep-dumps")) {
      for (const label of Object.keys(t.dumps)) {
        fs.writeFileSync(path.join(out, "dump-" + board + "-" + label + ".csv"), t.dumps[label].lines.join("\n") + "\n");
      }
      console.log("variable dumps saved in bench/out/dump-" + board + "-*.csv");
    }
    console.log("\nmodules (variables while loaded, left after release, median time to load)");
    process.stdout.write(moduleTable(measureModules(process.env.ESPRUINO as string)));
    console.log("\nfigures saved in " + path.relative(ROOT, file));
  } finally {
    await t.stop();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
