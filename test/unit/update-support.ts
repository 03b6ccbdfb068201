// The update's firmware code on the host: Espruino's Storage (a SimStorage on a temporary folder),
// crypto, E and process.memory stood in for, the firmware files loaded afresh on them, and the
// boot stage run in a context of its own as Espruino runs .bootcde.
import Module from "node:module";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vm from "node:vm";
import { SimStorage } from "../harness/storage";
import { crc32 } from "../harness/crc32";
import { ROOT } from "../harness/root";
import type { App } from "../../firmware/app";
import type { MakeUpload, UploadSink } from "../../firmware/http/upload";
import type { Reply } from "../../firmware/http/types";
import type { Failure } from "../../firmware/core/failure";
import { multipart } from "../espruino/update-support";

type Loader = { _load: (request: string, ...rest: unknown[]) => unknown };

export function sha256(data: string | Uint8Array): ArrayBuffer {
  const d = createHash("sha256").update(typeof data === "string" ? Buffer.from(data, "latin1") : Buffer.from(data)).digest();
  return d.buffer.slice(d.byteOffset, d.byteOffset + d.length);
}

export const espruinoE = {
  CRC32: (s: string | Uint8Array) => crc32(typeof s === "string" ? Buffer.from(s, "latin1") : Buffer.from(s)),
  toString: (...a: unknown[]) => a.map((x) => (x instanceof Uint8Array ? Buffer.from(x).toString("latin1") : String(x))).join(""),
  getSizeOf: () => 1,
};

export interface UpdateHost {
  storage: SimStorage;
  app: App;
  make: MakeUpload;
  /** Times app.restart() was called. */
  restarts: number;
  /** Lines the firmware printed. */
  printed: string[];
  /** Free interpreter variables process.memory reports. */
  memory: { free: number; usage: number; total: number };
  slotState(): { run: string; good: string; tries: number; last: string; release: string; error: string; wait: number } | undefined;
  /** Puts back what was stood in for (the loader, the slot prefix) and removes the folder. */
  dispose(): void;
}

const FIRMWARE = path.join(ROOT, "firmware") + path.sep;

/**
 * The firmware's update module on stand-ins: Storage in a fresh folder holding the running slot
 * `running` ("a"), the clock at `version`.
 */
export function updateHost(opts: { version?: string; running?: string; capacity?: number } = {}): UpdateHost {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-update-"));
  const storage = new SimStorage(dir, opts.capacity);
  const printed: string[] = [];
  const memory = { free: 9000, usage: 3000, total: 12000 };
  const g = globalThis as unknown as { [k: string]: unknown };
  const before = { E: g.E, print: g.print, memory: (process as unknown as { memory?: unknown }).memory };
  g.E = espruinoE;
  g.print = (...a: unknown[]) => { printed.push(a.map(String).join(" ")); };
  g.PIXLOOP_SLOT = (opts.running || "a") + "/";
  (process as unknown as { memory: () => object }).memory = () => Object.assign({ history: 0, gc: 0, gctime: 0, blocksize: 14 }, memory);
  const loader = Module as unknown as Loader;
  const load = loader._load;
  const crypto = { SHA256: sha256 };
  loader._load = function (request: string, ...rest: unknown[]) {
    if (request === "Storage") return storage;
    if (request === "crypto") return crypto;
    return load.call(this, request, ...rest);
  };
  // The firmware afresh, so that what takes Storage at load (platform/flash) takes this one.
  for (const p of Object.keys(require.cache)) if (p.startsWith(FIRMWARE)) delete require.cache[p];
  const make = (require("../../firmware/update/upload.mod") as { default: MakeUpload }).default;
  const { loadRecord } = require("../../firmware/update/record") as typeof import("../../firmware/update/record");
  const board = (require("../../boards/esp32") as typeof import("../../boards/esp32")).default;
  const host: UpdateHost = {
    storage, make, restarts: 0, printed, memory,
    app: undefined as unknown as App,
    dispose: () => {
      loader._load = load;
      delete g.PIXLOOP_SLOT;
      g.E = before.E;
      g.print = before.print;
      (process as unknown as { memory?: unknown }).memory = before.memory;
      fs.rmSync(dir, { recursive: true, force: true });
    },
    slotState: () => {
      const s = loadRecord().state;
      return storage.read(".slots.0") === undefined && storage.read(".slots.1") === undefined ? undefined : s;
    },
  };
  host.app = {
    board, version: opts.version || "0.1.0", mode: "station",
    restart: () => { host.restarts++; },
  } as unknown as App;
  return host;
}

export function isFailure(v: unknown): v is Failure {
  return typeof v === "object" && v !== null && typeof (v as Failure).code === "string";
}

/**
 * Feeds `body` (a multipart body as multipart() makes it) to a sink the way the transport does:
 * parts as begin/data/end, `chunk` bytes at a time, then finish(); abort() after any Failure, as
 * the transport calls it. Gives the answer or the first Failure.
 */
export function feedParts(sink: UploadSink, parts: { field: string; filename: string; data: Buffer }[], chunk = 536): Reply | Failure {
  const stop = (f: Failure) => {
    sink.abort();
    return f;
  };
  for (const p of parts) {
    let f = sink.begin(p.field, p.filename, "application/octet-stream");
    if (f) return stop(f);
    for (let at = 0; at < p.data.length; at += chunk) {
      f = sink.data(p.data.subarray(at, at + chunk).toString("latin1"));
      if (f) return stop(f);
    }
    f = sink.end();
    if (f) return stop(f);
  }
  const out = sink.finish();
  if (isFailure(out)) sink.abort();
  return out;
}

/** One package in field firmware, through a fresh sink of `host`. */
export function feedPackage(host: UpdateHost, pkg: Buffer, chunk = 536): Reply | Failure {
  const sink = host.make({} as never, host.app);
  if (isFailure(sink)) return sink;
  return feedParts(sink, [{ field: "firmware", filename: "pixloop-esp32.bin", data: pkg }], chunk);
}

export { multipart };

/**
 * Runs the boot stage (the build's dist/boot.js, as .bootcde) on `storage` in a context of its own,
 * as Espruino does at a start: gives what it left (slot, restart timer) and what it did.
 */
export function runBootStage(storage: SimStorage, opts: { rebootThrows?: boolean } = {}): {
  slot: string; dueMs: number; printed: string[]; started: string; reboots: number; loads: number; watchdog: number; fireDue(): void;
} {
  const code = fs.readFileSync(path.join(ROOT, "dist", "boot.js"), "utf8");
  // As flashed: the loader reads the stage itself from .bootcde.
  if (storage.read(".bootcde") !== code) storage.write(".bootcde", code);
  const printed: string[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const out = { slot: "", dueMs: 0, printed, started: "", reboots: 0, loads: 0, watchdog: 0, fireDue: () => undefined as void };
  const context = vm.createContext({
    require: (name: string) => {
      if (name === "Storage") return storage;
      throw new Error("Module " + name + " not found");
    },
    print: (...a: unknown[]) => printed.push(a.map(String).join(" ")),
    setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }),
    load: () => { out.loads++; },
    E: Object.assign({}, espruinoE, {
      reboot: () => {
        out.reboots++;
        if (opts.rebootThrows) throw new Error("Got [ERASED] expected EOF");
      },
      enableWatchdog: (s: number) => { out.watchdog = s; },
    }),
  });
  vm.runInContext(code, context);
  const g = context as unknown as { PIXLOOP_SLOT: string; STARTED?: string };
  out.slot = g.PIXLOOP_SLOT;
  out.started = g.STARTED || "";
  // A restart due at once (after a compaction) runs now; the restart timer of a trial waits.
  for (const t of timers.filter((x) => x.ms === 0)) t.fn();
  const due = timers.filter((x) => x.ms > 0);
  out.dueMs = due.length ? due[0].ms : 0;
  out.fireDue = () => { for (const t of due) t.fn(); };
  return out;
}
