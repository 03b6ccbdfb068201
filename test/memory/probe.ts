// Reading the firmware's memory in the real interpreter through the launcher's benchmark hook
// (scripts/espruino/boot0.js): every figure is process.memory().usage after a garbage
// collection, less what the launcher's stand-ins hold.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Test } from "uvu";
import { startEspruino, type EspruinoTarget } from "../espruino/launch";
import { ROOT } from "../harness/root";
import { send } from "./requests";

/** How long the firmware keeps its request pipeline loaded after the last request. */
export const SERVE_KEEP_MS = 500;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Gives the suite `suite` an esp32 clock with the benchmark hook, started before its tests (only
 * with ESPRUINO set) and stopped after them: `started` receives it. `files`, when given, makes the
 * Storage files it runs on (firmwareFilesWith), removed once it has stopped.
 */
export function clockFor(suite: Test, started: (t: EspruinoTarget) => void, files?: () => string): void {
  let clock: EspruinoTarget | null = null;
  let dir = "";
  suite.before(async () => {
    if (!process.env.ESPRUINO) return;
    if (files) dir = files();
    clock = await startEspruino("esp32", { debug: true, storageDir: dir || undefined });
    started(clock);
  });
  suite.after(async () => {
    if (clock) await clock.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
}

/** GET `p` of the launcher's benchmark hook, as JSON. */
export async function hook(t: EspruinoTarget, p: string): Promise<any> {
  const r = await fetch(t.debugUrl + p);
  return r.json();
}

/**
 * Variables the firmware uses now: a reading the launcher takes a few milliseconds after it was
 * asked for, once the hook's own request is gone (its request and answer objects, about 57
 * variables, would otherwise be in every figure).
 */
export async function firmwareUsage(t: EspruinoTarget): Promise<number> {
  await hook(t, "/mem/quiet");
  for (let tries = 0; tries < 50; tries++) {
    await sleep(40);
    const m = await hook(t, "/mem/quiet/read");
    if (m.usage >= 0) return m.usage - m.standins;
  }
  throw new Error("the launcher took no quiet reading");
}

/** How long one turn of the app loop takes: a page shown and the transition to the next. */
export async function loopCycleMs(t: EspruinoTarget): Promise<number> {
  const s = await (await fetch(t.url + "/api/v1/settings")).json() as { appDurationMs: number; transitionDurationMs: number };
  return s.appDurationMs + s.transitionDurationMs;
}

/**
 * The most the firmware holds over `ms` (one loop cycle: a change of page has the next page and
 * its transition in memory from LEAD_MS before it until it lands), sampled every 200 ms: what
 * the clock needs as its loop turns, whichever moment a reading falls on.
 */
export async function restingMax(t: EspruinoTarget, ms: number): Promise<number> {
  // The request pipeline stays loaded for half a second after a request (firmware/main.ts): a
  // reading right after one would count it.
  await sleep(SERVE_KEEP_MS + 200);
  let max = 0;
  for (const end = Date.now() + ms; Date.now() < end;) {
    max = Math.max(max, await firmwareUsage(t));
    await sleep(200);
  }
  return max;
}

/**
 * The firmware idle: the most it holds while a page stands alone on screen (no change of page
 * near: neither the next page nor a transition is in memory), over every page of the rotation.
 * Each is brought on screen at once (PUT /api/v1/apps/active, fast) and read once the request
 * pipeline has let go, well before its change is LEAD_MS (firmware/apps/loop.ts) away: the least
 * of six readings, so that what a frame holds for a moment is not counted. Returns the figure and
 * each page's.
 */
export async function idleUsage(t: EspruinoTarget): Promise<{ most: number; pages: { [name: string]: number } }> {
  const s = await (await fetch(t.url + "/api/v1/settings")).json() as { appDurationMs: number };
  const readMs = SERVE_KEEP_MS + 200 + 6 * 250;
  if (s.appDurationMs < readMs + 1500) throw new Error("appDurationMs " + s.appDurationMs + " is too short to read a page alone");
  const apps = await (await fetch(t.url + "/api/v1/apps")).json() as { name: string; inLoop: boolean }[];
  const pages: { [name: string]: number } = {};
  let most = 0;
  for (const a of apps) {
    if (!a.inLoop || pages[a.name] !== undefined) continue;
    const err = await send(t, { method: "PUT", path: "/api/v1/apps/active", body: { name: a.name, fast: true }, expect: 200 });
    if (err) throw new Error("could not bring " + a.name + " on screen: " + err);
    await sleep(SERVE_KEEP_MS + 200);
    pages[a.name] = await leastUsage(t, 6);
    most = Math.max(most, pages[a.name]);
  }
  return { most, pages };
}

/**
 * How far two still readings of the same state may differ: a number the loop or the runtime keeps
 * (a low-water mark, the start of the last page change, a setting just written) takes one
 * variable more or less as its value moves in or out of what the interpreter stores inline.
 */
export const NUMBER_JITTER = 1;

/**
 * The least the firmware holds over two seconds with the loop held on the Date app (the loop
 * resumes after, unless `resume` is false). Over a moving loop the most held depends on which
 * moments of which page changes the samples fall on (the next page and its transition are loaded
 * for the last second of a page), while a still page reads the same to within one variable (a
 * frame's own passing state), so the smallest of several readings compares exactly.
 */
export async function stillUsage(t: EspruinoTarget, resume = true): Promise<number> {
  const hold = await send(t, { method: "PATCH", path: "/api/v1/settings", body: { autoTransition: false }, expect: 200 });
  const date = await send(t, { method: "PUT", path: "/api/v1/apps/active", body: { name: "Date", fast: true }, expect: 200 });
  if (hold || date) throw new Error("could not hold the loop on the Date app: " + (hold || date));
  // Past the request pipeline's half second and the page change.
  await sleep(2500);
  const least = await leastUsage(t, 8);
  if (resume) await send(t, { method: "PATCH", path: "/api/v1/settings", body: { autoTransition: true }, expect: 200 });
  return least;
}

/**
 * The least of `n` readings 250 ms apart: what a frame or a timer holds for a moment (a tick of
 * the clock's page, a sample of the runtime) is not counted.
 */
export async function leastUsage(t: EspruinoTarget, n: number): Promise<number> {
  let least = Infinity;
  for (let i = 0; i < n; i++) {
    least = Math.min(least, await firmwareUsage(t));
    await sleep(250);
  }
  return least;
}

/** Starts recording, for each answer, the usage at the moment it is sent (after a collection). */
export async function recordPeaks(t: EspruinoTarget, n: number): Promise<void> {
  await hook(t, "/timing/start?n=" + n);
}

/** The usages recorded since recordPeaks, less the stand-ins' share. */
export async function peaks(t: EspruinoTarget): Promise<number[]> {
  const standins = (await hook(t, "/mem")).standins as number;
  return ((await hook(t, "/timing")).peak as number[]).map((u) => u - standins);
}

/**
 * A copy of the firmware's Storage files (dist/storage) in a temporary folder, for a clock that
 * carries test routes or modules: `routes` rewrites the route table, `files` are added. The
 * caller removes the folder.
 */
export function firmwareFilesWith(routes: (table: string) => string, files: { [name: string]: string }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-mem-"));
  const dist = path.join(ROOT, "dist", "storage");
  for (const f of fs.readdirSync(dist)) fs.copyFileSync(path.join(dist, f), path.join(dir, f));
  const table = fs.readFileSync(path.join(dir, "routes"), "latin1");
  const changed = routes(table);
  if (changed === table) throw new Error("the test route did not change the route table");
  fs.writeFileSync(path.join(dir, "routes"), changed, "latin1");
  for (const name in files) fs.writeFileSync(path.join(dir, name), files[name], "latin1");
  return dir;
}
