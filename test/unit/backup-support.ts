// A clock to restore into, for the backup suites: the system and settings stores, the app
// arrangement and Storage, with the route handlers that write them, on stand-ins for Espruino's
// globals. The archives themselves are made in backup-archives.ts.
import * as fs from "node:fs";
import Module from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { crc32 } from "../harness/crc32";
import { SimStorage } from "../harness/storage";
import { chip as esp32Chip } from "../../boards/esp32";
import type { App } from "../../firmware/app";
import { AppLoop } from "../../firmware/apps/loop";
import type { RecordFlash } from "../../firmware/core/persist";

export * from "./backup-archives";

// ---- a clock to restore into -----------------------------------------------------------------

type Loader = { _load: (request: string, ...rest: unknown[]) => unknown };
declare const require: { (id: string): unknown; cache: { [path: string]: unknown } };
const FIRMWARE_PATH = /[\\/](firmware|boards)[\\/]/;

/** Free variables the clocks report (process.memory). */
export const clockMemory = { free: 8000 };

export interface Clock {
  app: App;
  storage: SimStorage;
  /** The zones the display was told to use, in order. */
  zones: string[];
  /** Puts everything back; `keep` leaves its Storage folder for a clock started on it next. */
  close(keep?: boolean): void;
}

/** The user's files and records in Storage: everything but what the clock came with. */
export function userFiles(storage: SimStorage): { [name: string]: string } {
  const out: { [name: string]: string } = {};
  for (const name of storage.list().sort()) if (!name.startsWith("chip.")) out[name] = storage.read(name) as string;
  return out;
}

/**
 * A clock with empty (or the given) Storage: the stores are the firmware's own, loaded afresh on
 * stand-ins for Storage and E, with the app arrangement as the loop keeps it.
 */
export function makeClock(capacity?: number, dir?: string): Clock {
  const g = globalThis as unknown as { [k: string]: unknown };
  const old: { [k: string]: unknown } = { E: g.E, print: g.print, getTime: g.getTime };
  const folder = dir || fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-clock-"));
  const storage = new SimStorage(folder, capacity);
  storage.write("chip.esp32", JSON.stringify(esp32Chip));
  g.E = {
    CRC32: (s: string | Uint8Array) => crc32(typeof s === "string" ? Buffer.from(s, "latin1") : Buffer.from(s)),
    toArrayBuffer: (s: string) => Uint8Array.from(Buffer.from(s, "latin1")).buffer,
    toString: (...a: unknown[]) => a.map((x) => (x instanceof Uint8Array ? Buffer.from(x).toString("latin1") : String(x))).join(""),
    getSizeOf: () => 1,
  };
  g.print = () => undefined;
  g.getTime = () => Date.now() / 1000;
  const proc = process as unknown as { memory?: unknown };
  const memory = proc.memory;
  proc.memory = () => ({ free: clockMemory.free, usage: 4000, total: 12000, history: 0, gc: 0, gctime: 0, blocksize: 14 });
  const loader = Module as unknown as Loader;
  const load = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    if (request === "Storage") return storage;
    return load.call(this, request, ...rest);
  };
  // The firmware afresh, so that what reads Storage at load (platform/flash) reads this one.
  const theirs: { [p: string]: unknown } = {};
  for (const p of Object.keys(require.cache)) {
    if (!FIRMWARE_PATH.test(p)) continue;
    theirs[p] = require.cache[p];
    delete require.cache[p];
  }
  const { SystemStore } = require("../../firmware/system/store") as typeof import("../../firmware/system/store");
  const { SettingsStore } = require("../../firmware/settings/store") as typeof import("../../firmware/settings/store");
  const board = (require("../../boards/esp32") as typeof import("../../boards/esp32")).default;
  const flash: RecordFlash = {
    read: (name) => storage.read(name),
    write: (name, data) => storage.write(name, data),
    erase: (name) => storage.erase(name),
    crc: (data) => crc32(Buffer.from(data, "latin1")),
    writeAt: (name, data, offset, size) => storage.write(name, data, offset, size),
    readAt: (name, offset, length) => storage.read(name, offset, length),
  };
  const system = new SystemStore(flash, board);
  system.load();
  const settings = new SettingsStore(flash);
  settings.load();
  const zones: string[] = [];
  const loop = new AppLoop([], () => ({ autoTransition: false, appDurationMs: 10000, transitionDurationMs: 0 }), () => 0, () => false);
  const app = {
    board, version: "1.2.3", mode: "station", system, settings,
    runtime: { uid: "a4cf12ab34cd" },
    display: { loop, clock: { setZone: (tz: string) => zones.push(tz) } },
    ownHosts: () => ["127.0.0.1"],
    accessPointIp: () => "192.168.4.1",
    restart: () => undefined,
    sleep: () => undefined,
  } as unknown as App;
  return {
    app, storage, zones,
    close: (keep?: boolean) => {
      loader._load = load;
      for (const p of Object.keys(require.cache)) if (FIRMWARE_PATH.test(p)) delete require.cache[p];
      Object.assign(require.cache, theirs);
      g.E = old.E;
      g.print = old.print;
      g.getTime = old.getTime;
      proc.memory = memory;
      if (!keep) fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
