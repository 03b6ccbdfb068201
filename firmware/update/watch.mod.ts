// A release on trial proves itself (firmware/update/README.md): once it has run for the wait its
// package asked for (a minute unless it said otherwise) with HTTP up, the display ticking and HTTP
// answering, it records itself as the proven release and stops the boot stage's restart timer.
// Until then it checks again every second. The restart comes at twice the wait after HTTP came up
// (`watch` moves the boot stage's timer there; `started`, as the display starts, gives the network
// its time first), and after three such starts the boot stage takes the release back. Once
// confirmed, the clock restarts: the boot stage erases the release before it and compacts
// Storage, as only it can.
import type { App } from "../app";
import { loadRecord, saveRecord, WAIT_MS, type SlotState } from "./record";
import { slotPrefix } from "../platform/slot";
import { log } from "../logs/log";

declare let PIXLOOP_DUE: number | undefined;

const RETRY_MS = 1000;
/** Time for the log line and any answer under way to go out before the restart. */
const RESTART_MS = 500;
/** Beyond the time Wi-Fi may take to come up (wifiConnectTimeout), for the server to start. */
const START_MS = 10000;

type Answer = (req: EspRequest, res: EspResponse) => void;

/**
 * GET /api/v1/version through the server's own request handler, as a client on the network would
 * ask it (the Host it answers to, the login when one is set): `done(true)` when the answer is a
 * 200 naming the running version. The socket below is Espruino's, which no update replaces.
 */
function ask(app: App, answer: Answer, done: (ok: boolean) => void): void {
  const cfg = app.system.config;
  const headers: EspHeaders = { Host: app.runtime.hostname };
  if (cfg.authEnabled) headers.Authorization = "Basic " + btoa(cfg.authUser + ":" + cfg.authPass);
  let status = 0;
  let body = "";
  const req = {
    method: "GET", url: "/api/v1/version", headers,
    on: (ev: string, fn: () => void) => {
      if (ev === "end") setTimeout(fn, 0);
    },
  } as EspRequest;
  const res = {
    writeHead: (code: number) => { status = code; },
    write: (data: string) => { body += data; },
    end: (data?: string) => {
      if (data) body += data;
      let version = "";
      try {
        version = (JSON.parse(body) as { version: string }).version;
      } catch (e) {
        version = "";
      }
      done(status === 200 && version === app.version);
    },
    on: () => undefined,
  } as EspResponse;
  answer(req, res);
}

function confirm(app: App): void {
  const r = loadRecord();
  const s = r.state;
  if (s.run === s.good) return;
  s.good = s.run;
  s.tries = 0;
  s.last = "confirmed";
  s.error = "";
  // Not recorded: the restart timer runs on, and the next start is another try.
  if (!saveRecord(r, s)) return log("update: release " + s.release + " could not record that it runs");
  if (typeof PIXLOOP_DUE !== "undefined" && PIXLOOP_DUE) clearTimeout(PIXLOOP_DUE);
  log("update: release " + app.version + " confirmed; restarting to reclaim the release before it");
  // Nothing goes back to the release before it any more: the boot stage erases it and compacts
  // Storage before the firmware starts again, which it can only do then.
  setTimeout(() => app.restart(), RESTART_MS);
}

/** Moves the boot stage's restart timer to `ms` from now (the same restart, at another time). */
function rearm(app: App, ms: number): void {
  if (typeof PIXLOOP_DUE !== "undefined" && PIXLOOP_DUE) clearTimeout(PIXLOOP_DUE);
  PIXLOOP_DUE = setTimeout(() => {
    log("update: release " + app.version + " has not confirmed itself; restarting");
    app.restart();
  }, ms);
}

/** The release on trial of this slot, or null. */
function trial(): SlotState | null {
  const s = loadRecord().state;
  return s.run === s.good || slotPrefix() !== s.run + "/" ? null : s;
}

/** The display runs: twice the wait from now, and the time the network may take. */
function started(app: App): void {
  const s = trial();
  if (s) rearm(app, 2 * (s.wait > 0 ? s.wait : WAIT_MS) + app.system.config.wifiConnectTimeout + START_MS);
}

function watch(app: App, answer: Answer): void {
  const s = trial();
  if (!s) return;
  const wait = s.wait > 0 ? s.wait : WAIT_MS;
  rearm(app, 2 * wait);
  let done = false;
  const check = () => {
    if (done) return;
    setTimeout(check, RETRY_MS);
    // fps is counted by the render loop and drops to 0 when its frames fail.
    if (!(app.runtime.fps > 0)) return;
    ask(app, answer, (ok) => {
      if (!ok || done) return;
      done = true;
      confirm(app);
    });
  };
  log("update: release " + app.version + " on trial, start " + s.tries);
  setTimeout(check, wait);
}

export interface Watch {
  started: typeof started;
  watch: typeof watch;
}

const watching: Watch = { started, watch };
export default watching;
