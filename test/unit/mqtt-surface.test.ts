// The MQTT surface against a stand-in link: every command topic beside its HTTP twin (the same
// handler modules, so the same state and the same verdict), the topics that get no result, the
// message count, the retained state topics and their pace, and the Home Assistant document.
//
// A whole clock is assembled as main.ts does it (stores, runtime, display; the render loop is not
// started), on stand-ins for Espruino's modules and globals and on a clock and timers the tests
// turn by hand. The firmware is loaded afresh for this suite and put back afterwards, so that
// other suites keep the modules bound to their own stand-ins.
//
// Two more suites run the built bundle behind the real client and a broker on 127.0.0.1: in the
// simulator, and (with ESPRUINO set) in the real interpreter, where the memory figures are taken.
import Module from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";
import { suite, test } from "uvu";
import * as assert from "uvu/assert";
import { installGraphics } from "../harness/graphics";
import { SimBme280, SimI2C } from "../harness/sensors";
import { crc32 } from "../harness/crc32";
import { fontFiles } from "./text-support";
import { Observer, startAedes, waitFor, type Broker } from "./mqtt-support";
import { startSimulator, ROOT } from "../harness/simulator";
import { startEspruino, killAll, type EspruinoTarget } from "../espruino/launch";
import { firmwareUsage, sleep } from "../memory/probe";
import { runInEspruino } from "../espruino/script";
import { dimTables } from "../../build/tables.mjs";
import esp32, { chip as esp32Chip } from "../../boards/esp32";
import { chip as esp32s3Chip } from "../../boards/esp32s3";
import type { App } from "../../firmware/app";
import type { MqttLink } from "../../firmware/mqtt/link";
import type { SystemConfig } from "../../firmware/system/schema";

const P = "clock7";
const UID = "a4cf12ab34cd";
const START_MS = 1767225600000;

// ---- a clock and timers turned by hand --------------------------------------------------------

interface Timer { id: number; at: number; every: number; fn: () => void }
let now = START_MS;
let timers: Timer[] = [];
let nextTimer = 1;

function addTimer(fn: () => void, ms: number | undefined, every: boolean): number {
  const t: Timer = { id: nextTimer++, at: now + (ms || 0), every: every ? Math.max(1, ms || 0) : 0, fn };
  timers.push(t);
  return t.id;
}

function clearTimer(id?: number): void {
  timers = timers.filter((t) => t.id !== id);
}

/** Moves the clock on by `ms`, running every timer that falls due, in time order. */
function advance(ms: number): void {
  const end = now + ms;
  for (;;) {
    let due: Timer | null = null;
    for (const t of timers) if (t.at <= end && (!due || t.at < due.at || (t.at === due.at && t.id < due.id))) due = t;
    if (!due) break;
    if (due.at > now) now = due.at;
    if (due.every) due.at += due.every;
    else timers = timers.filter((t) => t !== due);
    due.fn();
  }
  now = end;
}

// ---- Espruino's Storage, Wifi and globals ------------------------------------------------------

class MemStorage {
  files: { [name: string]: string } = {};
  read(name: string, offset?: number, length?: number): string | undefined {
    const d = this.files[name];
    if (d === undefined) return undefined;
    const from = Math.min(offset || 0, d.length);
    return length && length > 0 ? d.substr(from, length) : d.substr(from);
  }
  /** As Espruino's: with `offset`, into a file made `size` bytes long (0xFF) by the write at 0. */
  write(name: string, data: unknown, offset?: number, size?: number): boolean {
    const text = typeof data === "string" ? data : String(data);
    if (offset === undefined) {
      this.files[name] = text;
      return true;
    }
    let d = offset === 0 || this.files[name] === undefined ? "\xFF".repeat(size || text.length) : this.files[name];
    d = d.substr(0, offset) + text + d.substr(offset + text.length);
    this.files[name] = d.substr(0, Math.max(d.length, size || 0));
    return true;
  }
  erase(name: string): void {
    delete this.files[name];
  }
  list(pattern?: RegExp): string[] {
    const names = Object.keys(this.files);
    return pattern ? names.filter((n) => pattern.test(n)) : names;
  }
  getFree(): number {
    return 500000;
  }
}

let storage = new MemStorage();
const storageModule = {
  read: (name: string, offset?: number, length?: number) => storage.read(name, offset, length),
  write: (name: string, data: unknown, offset?: number, size?: number) =>
    offset === undefined ? storage.write(name, data) : storage.write(name, data, offset, size),
  erase: (name: string) => storage.erase(name),
  list: (pattern?: RegExp) => storage.list(pattern),
  getFree: () => storage.getFree(),
};
const wifiModule = {
  getIP: () => ({ ip: "192.168.1.50", netmask: "255.255.255.0", gw: "192.168.1.1", mac: "a4:cf:12:ab:34:cd" }),
  getAPIP: () => ({ ip: "0.0.0.0", netmask: "0.0.0.0", gw: "0.0.0.0", mac: "a4:cf:12:ab:34:cd" }),
  getDetails: () => ({ status: "connected", rssi: -55, ssid: "home" }),
  setHostname: () => undefined,
  setSNTP: () => undefined,
  on: () => undefined,
};
const espruinoModules: { [name: string]: unknown } = {
  Storage: storageModule, Wifi: wifiModule, neopixel: { write: () => undefined },
};

/** Pin levels (buttons idle high) and the watches set on them. */
let levels: { [pin: number]: number } = {};
let watches: { pin: number; fn: (e: { state: boolean; pin: number }) => void }[] = [];
let printed: string[] = [];

/** A button on `pin` pressed (pulled low) or let go, as its watch reports it. */
function setButton(pin: number, pressed: boolean): void {
  levels[pin] = pressed ? 0 : 1;
  for (const w of watches) if (w.pin === pin) w.fn({ state: !pressed, pin });
}

const standIns: { [name: string]: unknown } = {
  getTime: () => now / 1000,
  setTimeout: (fn: () => void, ms?: number) => addTimer(fn, ms, false),
  setInterval: (fn: () => void, ms?: number) => addTimer(fn, ms, true),
  clearTimeout: clearTimer,
  clearInterval: clearTimer,
  print: (...a: unknown[]) => { printed.push(a.map(String).join(" ")); },
  analogRead: () => 0.5,
  digitalRead: (pin: number) => (levels[pin] === 0 ? 0 : 1),
  pinMode: () => undefined,
  setWatch: (fn: (e: { state: boolean }) => void, pin: number) => { watches.push({ pin, fn }); return watches.length; },
  clearWatch: () => undefined,
  I2C: SimI2C,
  PIXLOOP_VERSION: "1.2.3",
  PIXLOOP_FILES: "index.html,routes",
  E: {
    CRC32: (s: string) => crc32(Buffer.from(s, "latin1")),
    reboot: () => undefined,
    getSizeOf: () => 1,
    getErrorFlags: () => [],
    mapInPlace: (from: Uint8Array, to: Uint8Array, map: Uint8Array) => {
      for (let i = 0; i < from.length; i++) to[i] = map[from[i]];
    },
    toArrayBuffer: (s: string) => Uint8Array.from(Buffer.from(s, "latin1")).buffer,
    toString: (...a: unknown[]) => a.map((x) => (x instanceof Uint8Array ? Buffer.from(x).toString("latin1") : String(x))).join(""),
  },
};

type Loader = { _load: (request: string, ...rest: unknown[]) => unknown };
declare const require: { (id: string): unknown; cache: { [path: string]: unknown } };
const FIRMWARE_PATH = /[\\/](firmware|boards)[\\/]/;
const restore: (() => void)[] = [];

/** Installs the stand-ins and loads the firmware afresh; undone in test.after. */
function install(): void {
  const g = globalThis as unknown as { [k: string]: unknown };
  for (const k of Object.keys(standIns)) {
    const had = Object.prototype.hasOwnProperty.call(g, k);
    const old = g[k];
    g[k] = standIns[k];
    restore.push(() => { if (had) g[k] = old; else delete g[k]; });
  }
  const proc = process as unknown as { memory?: unknown };
  const memory = proc.memory;
  proc.memory = () => ({ free: 9000, usage: 3000, total: 12000, history: 0, gc: 0, gctime: 0, blocksize: 14 });
  restore.push(() => { proc.memory = memory; });
  const hadGraphics = (g as { Graphics?: unknown }).Graphics;
  installGraphics();
  restore.push(() => { g.Graphics = hadGraphics; });
  const loader = Module as unknown as Loader;
  const load = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    if (Object.prototype.hasOwnProperty.call(espruinoModules, request)) return espruinoModules[request];
    return load.call(this, request, ...rest);
  };
  restore.push(() => { loader._load = load; });
  const theirs: { [path: string]: unknown } = {};
  for (const p of Object.keys(require.cache)) {
    if (!FIRMWARE_PATH.test(p)) continue;
    theirs[p] = require.cache[p];
    delete require.cache[p];
  }
  restore.push(() => {
    for (const p of Object.keys(require.cache)) if (FIRMWARE_PATH.test(p)) delete require.cache[p];
    Object.assign(require.cache, theirs);
  });
}

test.before(install);
test.after(() => {
  while (restore.length) (restore.pop() as () => void)();
  SimI2C.reset();
});

/** The firmware, loaded once the stand-ins are in place. */
function fw() {
  return {
    flash: (require("../../firmware/platform/flash") as typeof import("../../firmware/platform/flash")).flash,
    ...(require("../../firmware/system/store") as typeof import("../../firmware/system/store")),
    ...(require("../../firmware/settings/store") as typeof import("../../firmware/settings/store")),
    ...(require("../../firmware/device/runtime") as typeof import("../../firmware/device/runtime")),
    ...(require("../../firmware/display/display") as typeof import("../../firmware/display/display")),
    ...(require("../../firmware/mqtt/start") as typeof import("../../firmware/mqtt/start")),
    pipeline: (require("../../firmware/http/pipeline.mod") as typeof import("../../firmware/http/pipeline.mod")).default,
    ...(require("../../firmware/http/router") as typeof import("../../firmware/http/router")),
    ...(require("../../firmware/routes") as typeof import("../../firmware/routes")),
    ...(require("../../firmware/settings/schema") as typeof import("../../firmware/settings/schema")),
    ...(require("../../firmware/device/names") as typeof import("../../firmware/device/names")),
  };
}

// ---- the link --------------------------------------------------------------------------------

interface Sent { topic: string; payload: string; retain: boolean; qos: number; at: number }

/** The client as the surface sees it; what it publishes under <P>/cmd/ comes back as a broker would send it. */
class FakeLink implements MqttLink {
  up = false;
  full = false;
  sent: Sent[] = [];
  echoes: Sent[] = [];
  onMessage: ((topic: string, payload: string) => void) | null = null;
  onConnect: (() => void) | null = null;
  prefix(): string { return P; }
  connected(): boolean { return this.up; }
  publish(topic: string, payload: string, retain: boolean, qos: 0 | 1): boolean {
    if (!this.up || this.full) return false;
    const m = { topic, payload, retain, qos, at: now };
    this.sent.push(m);
    if (topic.startsWith(P + "/cmd/")) this.echoes.push(m);
    return true;
  }
  connect(): void {
    this.up = true;
    (this.onConnect as () => void)();
  }
  /** A message from the broker, then whatever came back of the device's own publishes. */
  deliver(topic: string, payload: string): void {
    (this.onMessage as (t: string, p: string) => void)(topic, payload);
    while (this.echoes.length) {
      const m = this.echoes.shift() as Sent;
      (this.onMessage as (t: string, p: string) => void)(m.topic, m.payload);
    }
  }
  on(topic: string): Sent[] {
    return this.sent.filter((m) => m.topic === topic);
  }
}

// ---- a clock -----------------------------------------------------------------------------------

interface Device {
  app: App;
  link: FakeLink;
  storage: MemStorage;
  routes: string;
  calls: { restart: number; sleep: number[] };
}

interface Fitting {
  /** Pins changed from the board's defaults before the clock starts. */
  config?: Partial<SystemConfig>;
  /** A BME280 on the I2C bus. */
  bme280?: boolean;
  /** Leave the link down. */
  offline?: boolean;
}

let F: ReturnType<typeof fw>;
let baseFiles: { [name: string]: string } | null = null;

function firmwareFiles(): { [name: string]: string } {
  if (!baseFiles) {
    F = fw();
    baseFiles = Object.assign({
      "chip.esp32": JSON.stringify(esp32Chip),
      "chip.esp32s3": JSON.stringify(esp32s3Chip),
      "dim.lut": dimTables().toString("latin1"),
      routes: F.encodeRoutes(F.ROUTES),
    }, fontFiles());
  }
  return baseFiles;
}

/** A clock started as main.ts starts one, with the MQTT surface on a stand-in link. */
function boot(fit: Fitting = {}): Device {
  const files = firmwareFiles();
  // A fresh world: the previous clock's timers, pins and bus go with it.
  now = START_MS;
  timers = [];
  watches = [];
  levels = {};
  printed = [];
  SimI2C.reset();
  if (fit.bme280) SimI2C.attach(new SimBme280({ env: { temperature: 21.5, humidity: 40, pressureHpa: 1010 } }), 0x76, 21, 22);
  storage = new MemStorage();
  Object.assign(storage.files, files);
  const system = new F.SystemStore(F.flash, esp32);
  system.load();
  if (fit.config) system.save(Object.assign({}, system.config, fit.config));
  const settings = new F.SettingsStore(F.flash);
  settings.load();
  const runtime = new F.Runtime(system.config);
  const display = new F.Display(system, settings, runtime, () => null);
  const calls = { restart: 0, sleep: [] as number[] };
  const app: App = {
    board: esp32, version: "1.2.3", mode: "station", system, settings, runtime, display,
    ownHosts: () => ["192.168.1.50"],
    accessPointIp: () => "0.0.0.0",
    restart: () => { calls.restart++; },
    sleep: (ms: number) => { calls.sleep.push(ms); },
  };
  display.clock.setZone(system.config.tz);
  const link = new FakeLink();
  F.startMqttSurface(app, link);
  if (!fit.offline) link.connect();
  return { app, link, storage, routes: files.routes, calls };
}

interface Answer { status: number; text: string; json: unknown }

/** One HTTP request through the request pipeline, as the server hands it over. */
function http(dev: Device, method: string, path: string, body?: string): Answer {
  const on: { [ev: string]: (chunk?: string) => void } = {};
  const headers: { [k: string]: string } = { Host: "192.168.1.50" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    headers["Content-Length"] = String(body.length);
  }
  const req = { url: path, method, headers, on: (ev: string, fn: (chunk?: string) => void) => { on[ev] = fn; } };
  let out: Answer = { status: 0, text: "", json: undefined };
  const res = {
    writeHead: (status: number) => { out = { status, text: "", json: undefined }; },
    end: (text?: string) => {
      out.text = text || "";
      try { out.json = JSON.parse(out.text); } catch (e) { out.json = undefined; }
    },
  };
  F.pipeline(dev.app, dev.routes, req as unknown as EspRequest, res as unknown as EspResponse, () => {});
  if (body && on.data) on.data(body);
  if (on.end) on.end();
  advance(0);
  return out;
}

/** Publishes `payload` on `<P>/cmd/<rest>` and returns the results that came of it. */
function command(dev: Device, rest: string, payload: string): unknown[] {
  const from = dev.link.sent.length;
  const topic = P + "/cmd/" + rest;
  dev.link.deliver(topic, payload);
  advance(0);
  return dev.link.sent.slice(from).filter((m) => m.topic === topic + "/result").map((m) => {
    assert.is(m.retain, false, "a result is not retained");
    assert.is(m.qos, 0);
    return JSON.parse(m.payload);
  });
}

/** What a GET route answers, through its handler. */
function get(dev: Device, path: string): unknown {
  return http(dev, "GET", path).json;
}

/** Everything a command may change, as the API and the stores show it. */
function snapshot(dev: Device): unknown {
  const app = dev.app;
  const loop = app.display.loop as unknown as { [k: string]: unknown; apps: { name: string }[] };
  const records: { [name: string]: string } = {};
  const base = firmwareFiles();
  for (const name of Object.keys(dev.storage.files)) if (!(name in base)) records[name] = dev.storage.files[name];
  const device = get(dev, "/api/v1/device") as { [k: string]: unknown };
  return {
    apps: get(dev, "/api/v1/apps"),
    settings: get(dev, "/api/v1/settings"),
    display: get(dev, "/api/v1/display"),
    device: { matrixPower: device.matrixPower, indicators: device.indicators },
    loop: {
      index: loop.index, target: loop.target, ahead: loop.ahead, order: loop.order, off: loop.off,
      effect: loop.effect, reverse: loop.reverse, expires: loop.expires, shownAt: loop.shownAt,
      rotation: (loop.rotation as { name: string }[]).map((a) => a.name), apps: loop.apps.map((a) => a.name),
    },
    notices: app.display.notices.items.map((n) => JSON.stringify(n.p) + " " + [n.du, n.rp, n.hd, n.wk].join(",")),
    calls: JSON.parse(JSON.stringify(dev.calls)),
    records,
  };
}

const MQTT_MESSAGES: { [code: string]: string } = {
  notFound: "not found", invalidJson: "payload is not valid JSON", internalError: "command failed",
};

/** The result an HTTP answer stands for over MQTT (the reference's shape and messages). */
function resultOf(a: Answer): unknown {
  if (a.status === 200) return { ok: true };
  const e = (a.json as { error: { code: string; message: string; field?: string } }).error;
  const error: { code: string; message: string; field?: string } = { code: e.code, message: MQTT_MESSAGES[e.code] || e.message };
  if (e.field) error.field = e.field;
  return { ok: false, error };
}

// ---- every command beside its HTTP twin ---------------------------------------------------------

interface Twin {
  topic: string;
  payload: string;
  /** Method, path and body of the same operation over HTTP. */
  http: [string, string, string?];
  /** Requests both clocks get first. */
  setup?: [string, string, string?][];
  /** The error code expected (none: success). */
  code?: string;
  field?: string;
  /** Whether the operation changes what the clock shows or stores. */
  changes: boolean;
}

const HELD = '{"name":"door","text":"Ding","hold":true}';
const PUSHED: [string, string, string] = ["PUT", "/api/v1/apps/pushed/weather", '{"text":"21C","textColor":"#00AAFF"}'];

const TWINS: Twin[] = [
  { topic: "notify", payload: '{"text":"Doorbell","durationMs":5000}', http: ["POST", "/api/v1/notifications", '{"text":"Doorbell","durationMs":5000}'], changes: true },
  { topic: "notify", payload: '{"text":"x","bogus":1}', http: ["POST", "/api/v1/notifications", '{"text":"x","bogus":1}'], code: "validationFailed", field: "bogus", changes: false },
  { topic: "notify", payload: '{"text":', http: ["POST", "/api/v1/notifications", '{"text":'], code: "invalidJson", changes: false },
  { topic: "notify", payload: "", http: ["POST", "/api/v1/notifications"], code: "invalidJson", changes: false },
  { topic: "notify", payload: '[{"text":"a"},{"text":"b"}]', http: ["POST", "/api/v1/notifications", '[{"text":"a"},{"text":"b"}]'], code: "validationFailed", changes: false },
  { topic: "notify/dismiss", payload: "whatever", setup: [["POST", "/api/v1/notifications", HELD]], http: ["DELETE", "/api/v1/notifications/active"], changes: true },
  {
    topic: "notify/dismiss/door", payload: "", setup: [["POST", "/api/v1/notifications", '{"name":"other","text":"a","hold":true}'], ["POST", "/api/v1/notifications", HELD]],
    http: ["DELETE", "/api/v1/notifications/door"], changes: true,
  },
  { topic: "notify/dismiss/nobody", payload: "", setup: [["POST", "/api/v1/notifications", HELD]], http: ["DELETE", "/api/v1/notifications/nobody"], code: "notFound", changes: false },
  { topic: "notify/dismiss/active", payload: "", setup: [["POST", "/api/v1/notifications", HELD]], http: ["DELETE", "/api/v1/notifications/active"], changes: true },
  { topic: "apps/pushed/weather", payload: PUSHED[2], http: PUSHED, changes: true },
  { topic: "apps/pushed/weather", payload: "", setup: [PUSHED], http: ["DELETE", "/api/v1/apps/weather"], changes: true },
  { topic: "apps/pushed/weather", payload: "{}", setup: [PUSHED], http: ["DELETE", "/api/v1/apps/weather"], changes: true },
  { topic: "apps/pushed/weather", payload: " { } ", setup: [PUSHED], http: ["DELETE", "/api/v1/apps/weather"], changes: true },
  { topic: "apps/pushed/multi", payload: '[{"text":"a"},7,{"text":"b"}]', http: ["PUT", "/api/v1/apps/pushed/multi", '[{"text":"a"},7,{"text":"b"}]'], changes: true },
  { topic: "apps/pushed/multi", payload: "", setup: [["PUT", "/api/v1/apps/pushed/multi", '[{"text":"a"},{"text":"b"}]']], http: ["DELETE", "/api/v1/apps/multi"], changes: true },
  { topic: "apps/pushed/we!ther", payload: '{"text":"x"}', http: ["PUT", "/api/v1/apps/pushed/we!ther", '{"text":"x"}'], code: "invalidName", field: "name", changes: false },
  { topic: "apps/pushed/Time", payload: '{"text":"x"}', http: ["PUT", "/api/v1/apps/pushed/Time", '{"text":"x"}'], code: "invalidName", field: "name", changes: false },
  { topic: "apps/pushed/weather", payload: '{"text":"x","textColor":"nope"}', http: ["PUT", "/api/v1/apps/pushed/weather", '{"text":"x","textColor":"nope"}'], code: "validationFailed", field: "textColor", changes: false },
  { topic: "apps/pushed/weather", payload: "[]", http: ["PUT", "/api/v1/apps/pushed/weather", "[]"], code: "validationFailed", changes: false },
  { topic: "apps/pushed/weather", payload: "{\"text\":", http: ["PUT", "/api/v1/apps/pushed/weather", "{\"text\":"], code: "invalidJson", changes: false },
  { topic: "apps/switch", payload: "Date", http: ["PUT", "/api/v1/apps/active", "Date"], changes: true },
  { topic: "apps/switch", payload: '{"name":"Date","fast":true}', http: ["PUT", "/api/v1/apps/active", '{"name":"Date","fast":true}'], changes: true },
  { topic: "apps/switch", payload: "Nope", http: ["PUT", "/api/v1/apps/active", "Nope"], code: "notFound", changes: false },
  { topic: "apps/switch", payload: '{"fast":true}', http: ["PUT", "/api/v1/apps/active", '{"fast":true}'], code: "notFound", changes: false },
  { topic: "apps/next", payload: "ignored", http: ["POST", "/api/v1/apps/next"], changes: true },
  { topic: "apps/previous", payload: "", http: ["POST", "/api/v1/apps/previous"], changes: true },
  {
    topic: "apps/order", payload: '{"order":["Date","Time"],"disabled":["Battery"]}',
    http: ["PUT", "/api/v1/apps/order", '{"order":["Date","Time"],"disabled":["Battery"]}'], changes: true,
  },
  { topic: "apps/order", payload: '{"disabled":["Date"]}', http: ["PUT", "/api/v1/apps/order", '{"disabled":["Date"]}'], changes: true },
  { topic: "apps/order", payload: '{"order":["Time"]}', http: ["PUT", "/api/v1/apps/order", '{"order":["Time"]}'], code: "invalidJson", changes: false },
  { topic: "apps/order", payload: "", http: ["PUT", "/api/v1/apps/order"], code: "invalidJson", changes: false },
  { topic: "apps/Date/enabled", payload: "false", http: ["PUT", "/api/v1/apps/Date/enabled", "false"], changes: true },
  { topic: "apps/Date/enabled", payload: '"no"', http: ["PUT", "/api/v1/apps/Date/enabled", '"no"'], code: "validationFailed", field: "enabled", changes: false },
  { topic: "settings", payload: '{"brightness":50,"textColor":"#FF0000"}', http: ["PATCH", "/api/v1/settings", '{"brightness":50,"textColor":"#FF0000"}'], changes: true },
  { topic: "settings", payload: '{"brightness":300}', http: ["PATCH", "/api/v1/settings", '{"brightness":300}'], code: "validationFailed", field: "brightness", changes: false },
  { topic: "settings", payload: '{"brightness":50,"nope":1}', http: ["PATCH", "/api/v1/settings", '{"brightness":50,"nope":1}'], code: "validationFailed", field: "nope", changes: false },
  { topic: "settings", payload: "", http: ["PATCH", "/api/v1/settings"], code: "invalidJson", changes: false },
  { topic: "settings/reset", payload: "", setup: [["PATCH", "/api/v1/settings", '{"brightness":40}']], http: ["POST", "/api/v1/settings/reset"], changes: true },
  { topic: "display", payload: '{"power":false}', http: ["PATCH", "/api/v1/display", '{"power":false}'], changes: true },
  { topic: "display", payload: '{"overlay":"bogus"}', http: ["PATCH", "/api/v1/display", '{"overlay":"bogus"}'], code: "validationFailed", field: "overlay", changes: false },
  { topic: "display/moodlight", payload: '{"color":"#3366FF","brightness":100}', http: ["PUT", "/api/v1/display/moodlight", '{"color":"#3366FF","brightness":100}'], changes: true },
  {
    topic: "display/moodlight", payload: "", setup: [["PUT", "/api/v1/display/moodlight", '{"color":"#3366FF"}']],
    http: ["DELETE", "/api/v1/display/moodlight"], changes: true,
  },
  { topic: "display/moodlight", payload: "{}", http: ["PUT", "/api/v1/display/moodlight", "{}"], code: "validationFailed", changes: false },
  { topic: "indicators/2", payload: '{"color":"#FF0000","blinkMs":500}', http: ["PUT", "/api/v1/indicators/2", '{"color":"#FF0000","blinkMs":500}'], changes: true },
  { topic: "indicators/2", payload: '{"color":0}', setup: [["PUT", "/api/v1/indicators/2", '{"color":"#FF0000"}']], http: ["PUT", "/api/v1/indicators/2", '{"color":0}'], changes: true },
  { topic: "indicators/1", payload: "", setup: [["PUT", "/api/v1/indicators/1", '{"color":"#00FF00","fadeMs":900}']], http: ["DELETE", "/api/v1/indicators/1"], changes: true },
  { topic: "indicators/1", payload: "{}", setup: [["PUT", "/api/v1/indicators/1", '{"color":"#00FF00","fadeMs":900}']], http: ["DELETE", "/api/v1/indicators/1"], changes: true },
  { topic: "indicators/3", payload: '{"color":"zz"}', http: ["PUT", "/api/v1/indicators/3", '{"color":"zz"}'], code: "validationFailed", field: "color", changes: false },
  { topic: "device/reboot", payload: "", http: ["POST", "/api/v1/device/reboot"], changes: true },
  { topic: "device/sleep", payload: '{"durationMs":60000}', http: ["POST", "/api/v1/device/sleep", '{"durationMs":60000}'], changes: true },
  { topic: "device/sleep", payload: '{"durationMs":0}', http: ["POST", "/api/v1/device/sleep", '{"durationMs":0}'], code: "validationFailed", field: "durationMs", changes: false },
  { topic: "device/sleep", payload: "", http: ["POST", "/api/v1/device/sleep"], code: "invalidJson", changes: false },
];

for (const t of TWINS) {
  test("twin: " + t.topic + " " + JSON.stringify(t.payload) + " is " + t.http[0] + " " + t.http[1], () => {
    const run = (over: (dev: Device) => unknown) => {
      const dev = boot();
      for (const s of t.setup || []) assert.is(http(dev, s[0], s[1], s[2]).status, 200, "set-up " + s[1]);
      const before = snapshot(dev);
      const verdict = over(dev);
      // Past the moment a restart or a sleep would begin.
      advance(300);
      return { before, after: snapshot(dev), verdict };
    };
    const viaHttp = run((dev) => http(dev, t.http[0], t.http[1], t.http[2]));
    const viaMqtt = run((dev) => command(dev, t.topic, t.payload));
    const answer = viaHttp.verdict as Answer;
    const results = viaMqtt.verdict as unknown[];
    if (t.code) {
      assert.is((answer.json as { error: { code: string } }).error.code, t.code, "the HTTP twin refuses it");
      if (t.field) assert.is((answer.json as { error: { field: string } }).error.field, t.field);
    } else {
      assert.is(answer.status, 200, answer.text);
    }
    assert.equal(results, [resultOf(answer)], "one result, the HTTP verdict");
    assert.equal(viaMqtt.after, viaHttp.after, "the same state");
    if (t.changes) assert.not.equal(viaMqtt.after, viaMqtt.before, "the command changed something");
    else assert.equal(viaMqtt.after, viaMqtt.before, "a refused command changes nothing");
  });
}

// ---- topics that answer nothing -------------------------------------------------------------

test("topics that match no route get no result and change nothing; factory reset is HTTP only", () => {
  const dev = boot();
  http(dev, "PUT", "/api/v1/indicators/1", '{"color":"#00FF00"}');
  const before = snapshot(dev);
  const from = dev.link.sent.length;
  const silent: [string, string][] = [
    [P + "/cmd", '{"text":"a"}'], [P + "/cmd/", '{"text":"a"}'], [P + "/cmd/nope", "{}"], [P + "/cmd/notify/", '{"text":"a"}'],
    [P + "/cmd/indicators/4", '{"color":"#FF0000"}'], [P + "/cmd/indicators/01", ""], [P + "/cmd/indicators/", ""],
    [P + "/cmd/indicators/1/x", ""], [P + "/cmd/apps/pushed/", '{"text":"a"}'], [P + "/cmd/notify/dismiss/", ""],
    [P + "/cmd/device/factory-reset", ""], [P + "/cmd/apps", "Date"], [P + "/cmd/apps/active", "Date"],
    [P + "/cmd/settings/get", ""], [P + "/state/device", "{}"], [P + "/cmd/SETTINGS", '{"brightness":1}'],
  ];
  for (const [topic, payload] of silent) dev.link.deliver(topic, payload);
  advance(300);
  assert.equal(dev.link.sent.slice(from).filter((m) => m.topic.indexOf("/cmd/") >= 0), [], "no results");
  assert.equal(snapshot(dev), before);
  assert.is(dev.calls.restart, 0);
});

test("topics outside <P>/ are ignored and not counted", () => {
  const dev = boot();
  const before = snapshot(dev);
  for (const topic of ["other/cmd/notify", P + "x/cmd/notify", "x" + P + "/cmd/notify", P.toUpperCase() + "/cmd/notify", "/" + P + "/cmd/notify"]) {
    dev.link.deliver(topic, '{"text":"a","hold":true}');
  }
  advance(300);
  assert.equal(dev.link.sent.filter((m) => m.topic.indexOf("/result") >= 0), []);
  assert.equal(snapshot(dev), before);
  assert.is(dev.app.runtime.messageCount, 0);
});

test("an invalid pushed-app name is answered, a name with a slash too, and nothing is stored", () => {
  const dev = boot();
  const before = snapshot(dev);
  for (const name of ["a/b", "x".repeat(33), "sp ace"]) {
    for (const payload of ['{"text":"a"}', ""]) {
      assert.equal(command(dev, "apps/pushed/" + name, payload), [{
        ok: false, error: { code: "invalidName", message: "name must match [A-Za-z0-9_-]{1,32}", field: "name" },
      }], name);
    }
  }
  // A word of the app routes, which HTTP would take for that route rather than for an app.
  assert.equal(command(dev, "apps/pushed/next", ""), [{ ok: false, error: { code: "invalidName", message: "name is reserved", field: "name" } }]);
  assert.equal(snapshot(dev), before);
});

test("a payload over 8192 bytes is dropped unread", () => {
  const dev = boot();
  const big = '{"text":"' + "a".repeat(8200) + '"}';
  assert.equal(command(dev, "notify", big), []);
  assert.is(dev.app.display.notices.items.length, 0);
  const fits = '{"text":"' + "a".repeat(8180) + '"}';
  assert.ok(fits.length <= 8192);
  assert.equal(command(dev, "notify", fits), [{ ok: true }]);
  assert.is(dev.app.display.notices.items.length, 1);
});

test("sound: this build has no audio routes, so playing is unavailable and stopping succeeds", () => {
  const dev = boot();
  assert.is(F.matchRoute(dev.routes, "/api/v1/audio/play"), null, "no audio route in this build");
  const unavailable = { ok: false, error: { code: "unavailable", message: "this build has no audio output" } };
  assert.equal(command(dev, "audio/play", '{"rtttl":"two:d=4,o=5,b=200:c,e"}'), [unavailable]);
  assert.equal(command(dev, "audio/stations", '{"stations":[]}'), [unavailable]);
  assert.equal(command(dev, "audio/stop", ""), [{ ok: true }]);
});

test("screen/get publishes the screen as GET /api/v1/display/screen gives it, not retained", () => {
  const dev = boot();
  http(dev, "PUT", "/api/v1/display/moodlight", '{"color":"#102030","brightness":200}');
  const screen = http(dev, "GET", "/api/v1/display/screen");
  assert.is(screen.status, 200);
  const from = dev.link.sent.length;
  assert.equal(command(dev, "screen/get", "ignored"), [{ ok: true }]);
  const shots = dev.link.sent.slice(from).filter((m) => m.topic === P + "/state/screen");
  assert.is(shots.length, 1);
  assert.is(shots[0].retain, false);
  assert.is(shots[0].payload, screen.text);
  const s = JSON.parse(shots[0].payload) as { width: number; height: number; pixels: number[] };
  assert.is(s.pixels.length, s.width * s.height);
});

// ---- the message count ---------------------------------------------------------------------

test("messageCount counts the command messages under <P>/, not results, not other topics, not HTTP", () => {
  const dev = boot();
  const counted: [string, string][] = [
    ["notify", '{"text":"a"}'], ["settings", '{"brightness":9}'], ["nope", ""], ["indicators/9", ""], ["settings", "{"],
    ["device/factory-reset", ""], ["apps/pushed/", ""],
  ];
  for (const [rest, payload] of counted) dev.link.deliver(P + "/cmd/" + rest, payload);
  dev.link.deliver(P + "/cmd", "");
  // Each result the device published came back on its subscription and was not counted.
  assert.ok(dev.link.sent.filter((m) => m.topic.endsWith("/result")).length >= 3);
  dev.link.deliver(P + "/cmd/settings/result", '{"ok":true}');
  dev.link.deliver("elsewhere/cmd/notify", '{"text":"a"}');
  http(dev, "POST", "/api/v1/notifications", '{"text":"b"}');
  advance(300);
  assert.is(dev.app.runtime.messageCount, counted.length + 1);
  assert.is((get(dev, "/api/v1/device") as { messageCount: number }).messageCount, counted.length + 1);
});

// ---- state topics --------------------------------------------------------------------------

function latest(dev: Device, topic: string): Sent | undefined {
  const all = dev.link.on(P + "/state/" + topic);
  return all[all.length - 1];
}

test("on connect: prefix, capabilities, settings, device and buttons, retained; nothing else", () => {
  const dev = boot({ offline: true });
  advance(1000);
  assert.equal(dev.link.sent, [], "nothing while offline");
  dev.app.runtime.currentApp = "Time";
  dev.link.connect();
  const topics = dev.link.sent.map((m) => m.topic);
  assert.equal(topics, ["prefix", "capabilities", "settings", "apps/active", "device", "buttons/left", "buttons/select", "buttons/right"]
    .map((t) => P + "/state/" + t));
  for (const m of dev.link.sent) {
    assert.is(m.retain, true, m.topic);
    assert.is(m.qos, 0);
  }
  assert.is(latest(dev, "prefix")!.payload, P);
  assert.is(latest(dev, "apps/active")!.payload, "Time");
  assert.equal(JSON.parse(latest(dev, "settings")!.payload), get(dev, "/api/v1/settings"));
  const device = JSON.parse(latest(dev, "device")!.payload) as { [k: string]: unknown };
  assert.equal(Object.keys(device), Object.keys(get(dev, "/api/v1/device") as object));
  assert.is(device.uid, UID);
  const caps = JSON.parse(latest(dev, "capabilities")!.payload) as { [k: string]: unknown };
  const http_ = get(dev, "/api/v1/capabilities") as { [k: string]: unknown; audio: { radio: boolean } };
  assert.equal(Object.keys(caps), ["effects", "transitions", "overlays", "palettes", "radio", "gpio"]);
  assert.equal(caps.transitions, F.TRANSITIONS);
  assert.is(caps.radio, http_.audio.radio);
  assert.equal(caps.gpio, http_.gpio);
  for (const b of ["left", "select", "right"]) assert.is(latest(dev, "buttons/" + b)!.payload, "0");
  // Nothing on the discovery topic while discovery is off, and availability is the client's.
  assert.not.ok(dev.link.sent.some((m) => m.topic.startsWith("homeassistant/") || m.topic.endsWith("/availability")));
  // A reconnect publishes all of it again.
  const first = dev.link.sent.length;
  dev.link.up = false;
  dev.link.connect();
  assert.is(dev.link.sent.length - first, first);
});

test("state/device: at once on power or indicator changes, at most one per 250 ms, else every statsInterval", () => {
  const dev = boot();
  advance(0);
  const devices = () => dev.link.on(P + "/state/device");
  const n0 = devices().length;
  advance(9000);
  assert.is(devices().length, n0, "nothing changed: the default statsInterval is 10 s");
  // An automation blinking an indicator as fast as it can: ten changes in 100 ms.
  for (let i = 0; i < 10; i++) {
    http(dev, "PUT", "/api/v1/indicators/1", i % 2 ? '{"color":0}' : '{"color":"#FF0000"}');
    advance(10);
  }
  advance(250);
  const blink = devices().slice(n0);
  assert.is(blink.length, 1, "one message for the burst");
  const last = JSON.parse(blink[0].payload) as { indicators: { on: boolean }[] };
  assert.is(last.indicators[0].on, false, "the state after the burst");
  for (let i = 0; i < 8; i++) {
    http(dev, "PUT", "/api/v1/indicators/2", '{"blinkMs":' + (100 + i) + "}");
    advance(100);
  }
  advance(300);
  const all = devices().slice(n0);
  assert.ok(all.length >= 3 && all.length <= 5, "about one per 250 ms: " + all.length);
  for (let i = 1; i < all.length; i++) assert.ok(all[i].at - all[i - 1].at >= 250, "spaced by 250 ms");
  assert.is((JSON.parse(all[all.length - 1].payload) as { indicators: { blinkMs: number }[] }).indicators[1].blinkMs, 107);
  // The panel switched off over MQTT shows at once.
  const before = devices().length;
  command(dev, "display", '{"power":false}');
  advance(250);
  assert.is(devices().length, before + 1);
  assert.is((JSON.parse(latest(dev, "device")!.payload) as { matrixPower: boolean }).matrixPower, false);
  // Brightness is no trigger; the timer carries it.
  const quiet = devices().length;
  dev.app.runtime.brightness = 7;
  advance(5000);
  assert.is(devices().length, quiet);
  advance(5000);
  assert.is(devices().length, quiet + 1);
  assert.is((JSON.parse(latest(dev, "device")!.payload) as { brightness: number }).brightness, 7);
});

test("statsInterval set over HTTP applies at once", () => {
  const dev = boot();
  advance(0);
  assert.is(http(dev, "PUT", "/api/v1/system", '{"statsInterval":2000}').status, 200);
  const n = dev.link.on(P + "/state/device").length;
  advance(10000);
  const got = dev.link.on(P + "/state/device").length - n;
  assert.ok(got >= 4 && got <= 5, "every 2 s: " + got);
});

test("state/settings follows every change, coalesced; state/apps/active follows the app", () => {
  const dev = boot();
  advance(0);
  const settings = () => dev.link.on(P + "/state/settings");
  const n = settings().length;
  http(dev, "PATCH", "/api/v1/settings", '{"brightness":33}');
  command(dev, "settings", '{"textColor":"#00FF00"}');
  // A refused change is no change.
  command(dev, "settings", '{"brightness":-1}');
  advance(250);
  assert.is(settings().length, n + 1);
  const s = JSON.parse(latest(dev, "settings")!.payload) as { brightness: number; textColor: string };
  assert.equal([s.brightness, s.textColor], [33, "#00FF00"]);
  advance(5000);
  assert.is(settings().length, n + 1, "not on a timer");
  const apps = () => dev.link.on(P + "/state/apps/active");
  const a = apps().length;
  dev.app.runtime.currentApp = "Date";
  advance(250);
  dev.app.runtime.currentApp = "Time";
  advance(250);
  assert.equal(apps().slice(a).map((m) => [m.payload, m.retain]), [["Date", true], ["Time", true]]);
  advance(5000);
  assert.is(apps().length, a + 2);
});

test("buttons: every edge at once, retained, also when the press is shorter than a tick", () => {
  const dev = boot();
  const cfg = dev.app.system.config;
  const from = dev.link.sent.length;
  setButton(cfg.pinBtnSelect, true);
  setButton(cfg.pinBtnSelect, false);
  setButton(cfg.pinBtnLeft, true);
  advance(0);
  assert.equal(dev.link.sent.slice(from).filter((m) => m.topic.indexOf("/buttons/") > 0).map((m) => [m.topic, m.payload, m.retain]), [
    [P + "/state/buttons/select", "1", true], [P + "/state/buttons/select", "0", true], [P + "/state/buttons/left", "1", true],
  ]);
  // A reconnect re-sends the levels as they are.
  dev.link.up = false;
  dev.link.connect();
  assert.is(latest(dev, "buttons/left")!.payload, "1");
  assert.is(latest(dev, "buttons/right")!.payload, "0");
});

test("what the link refuses (queue full) goes out at a later tick", () => {
  const dev = boot({ offline: true });
  dev.link.up = true;
  dev.link.full = true;
  (dev.link.onConnect as () => void)();
  http(dev, "PATCH", "/api/v1/settings", '{"brightness":12}');
  advance(1000);
  assert.equal(dev.link.sent, []);
  dev.link.full = false;
  advance(250);
  const topics = dev.link.sent.map((m) => m.topic.substr(P.length + 7));
  assert.equal(topics, ["prefix", "capabilities", "settings", "device", "buttons/left", "buttons/select", "buttons/right"],
    "everything pending, once");
  assert.is((JSON.parse(latest(dev, "settings")!.payload) as { brightness: number }).brightness, 12);
});

// ---- Home Assistant discovery ----------------------------------------------------------------

const HA_TOPIC = "homeassistant/device/" + UID + "/config";
const BASE_KEYS = ["mat", "ind1", "ind2", "ind3", "mood", "notify", "brimode", "transeff", "trans", "next", "prev", "dismiss", "app", "ver", "ip",
  "prefix", "rssi", "uptime", "ram", "btnl", "btnm", "btnr"];

interface Doc {
  dev: { [k: string]: string };
  o: { name: string };
  avty_t: string;
  cmps: { [key: string]: { [k: string]: unknown } };
}

function discoveryDoc(dev: Device, topic = HA_TOPIC): Doc {
  const docs = dev.link.on(topic);
  assert.ok(docs.length > 0, "a document on " + topic);
  const last = docs[docs.length - 1];
  assert.is(last.retain, true);
  return JSON.parse(Buffer.from(last.payload, "latin1").toString("utf8")) as Doc;
}

test("discovery: one retained document with the base entities and the fitted parts", () => {
  const dev = boot({ config: { haDiscovery: true, hostname: "kitchen" }, bme280: true });
  const doc = discoveryDoc(dev);
  assert.equal(doc.dev, { ids: UID, name: "kitchen", sw: "1.2.3", mf: "pixloop", mdl: "pixloop", hw: "esp32" });
  assert.is(doc.o.name, "pixloop");
  assert.is(doc.avty_t, P + "/availability");
  // The TC001 wiring: light sensor and battery pins, and a BME280 found on the bus.
  assert.equal(Object.keys(doc.cmps), BASE_KEYS.concat(["light", "temp", "hum", "press", "bat", "batv", "lowbat"]));
  const platforms: { [p: string]: number } = {};
  for (const key of Object.keys(doc.cmps)) {
    const c = doc.cmps[key];
    platforms[c.p as string] = (platforms[c.p as string] || 0) + 1;
    assert.is(c["~"], P, key);
    assert.is(c.uniq_id, UID + "_" + key);
    assert.ok(typeof c.name === "string" && c.name !== "", key);
    for (const k of Object.keys(c)) {
      if (/_t$/.test(k)) assert.ok(/^~\/(cmd|state)\//.test(c[k] as string), key + " " + k + " " + c[k]);
    }
  }
  assert.equal(platforms, { light: 5, notify: 1, select: 2, switch: 1, button: 3, sensor: 13, binary_sensor: 4 });
  const mat = doc.cmps.mat;
  assert.equal([mat.cmd_t, mat.bri_cmd_t, mat.rgb_cmd_t, mat.bri_stat_t, mat.rgb_stat_t], ["~/cmd/display", "~/cmd/settings", "~/cmd/settings", "~/state/device", "~/state/settings"]);
  assert.equal(doc.cmps.ind2.cmd_t, "~/cmd/indicators/2");
  assert.equal(doc.cmps.transeff.ops, F.TRANSITIONS);
  assert.equal(doc.cmps.brimode.ops, ["Manual", "Auto"]);
  assert.is(doc.cmps.temp.unit_of_meas, "°C");
  assert.is(doc.cmps.app.stat_t, "~/state/apps/active");
  assert.is(doc.cmps.prefix.stat_t, "~/state/prefix");
  assert.is(doc.cmps.btnm.stat_t, "~/state/buttons/select");
  assert.is(doc.cmps.ver.ent_cat, "diagnostic");
  assert.is(doc.cmps.bat.ent_cat, undefined);
  // The payloads the entities send are commands this clock accepts.
  const sends: [string, unknown][] = [["display", mat.pl_on], ["display", mat.pl_off], ["indicators/1", doc.cmps.ind1.pl_on],
    ["indicators/1", doc.cmps.ind1.pl_off], ["settings", doc.cmps.trans.pl_off], ["settings", '{"brightness":77}'],
    ["settings", '{"textColor":[1,2,3]}'], ["settings", '{"autoBrightness":true}'], ["settings", '{"transitionEffect":"Fade"}'],
    ["display/moodlight", doc.cmps.mood.pl_on], ["display/moodlight", '{"color":[1,2,3]}'], ["display/moodlight", '{"brightness":40}'],
    ["display/moodlight", doc.cmps.mood.pl_off], ["notify", '{"text":"hello"}']];
  for (const [topic, body] of sends) assert.equal(command(dev, topic, body as string), [{ ok: true }], topic + " " + body);
  assert.is(dev.app.runtime.indicators.slots[0].on, false);
});

test("discovery: a board without the optional parts announces the 22 base entities", () => {
  const dev = boot({ config: { haDiscovery: true, pinBattery: -1, pinLdr: -1 } });
  const doc = discoveryDoc(dev);
  assert.equal(Object.keys(doc.cmps), BASE_KEYS);
  assert.is(doc.dev.name, "pixloop-ab34cd");
});

test("discovery: turned off over HTTP, an empty retained payload in the same request", () => {
  const dev = boot({ config: { haDiscovery: true } });
  const n = dev.link.on(HA_TOPIC).length;
  assert.is(http(dev, "PUT", "/api/v1/system", '{"haDiscovery":false}').status, 200);
  const after = dev.link.on(HA_TOPIC).slice(n);
  assert.equal(after.map((m) => [m.payload, m.retain]), [["", true]]);
  // Off, a reconnect publishes nothing there.
  dev.link.up = false;
  dev.link.connect();
  assert.is(dev.link.on(HA_TOPIC).length, n + 1);
  // And back on: the document again, at once.
  assert.is(http(dev, "PUT", "/api/v1/system", '{"haDiscovery":true}').status, 200);
  assert.is(dev.link.on(HA_TOPIC).length, n + 2);
  assert.ok(dev.link.on(HA_TOPIC)[n + 1].payload.length > 1000);
});

test("discovery: a new haPrefix retracts the old document first, then publishes the new one", () => {
  const dev = boot({ config: { haDiscovery: true } });
  const from = dev.link.sent.length;
  assert.is(http(dev, "PUT", "/api/v1/system", '{"haPrefix":"ha2"}').status, 200);
  const moved = dev.link.sent.slice(from).map((m) => [m.topic, m.payload === "" ? "" : "doc", m.retain]);
  assert.equal(moved, [[HA_TOPIC, "", true], ["ha2/device/" + UID + "/config", "doc", true]]);
  discoveryDoc(dev, "ha2/device/" + UID + "/config");
  // Other system changes leave the document alone.
  const n = dev.link.sent.length;
  assert.is(http(dev, "PUT", "/api/v1/system", '{"tempDecimals":1}').status, 200);
  assert.is(dev.link.sent.length, n);
  // An empty haPrefix is the default one.
  assert.is(http(dev, "PUT", "/api/v1/system", '{"haPrefix":""}').status, 200);
  assert.equal(dev.link.sent.slice(n).map((m) => [m.topic, m.payload === ""]), [["ha2/device/" + UID + "/config", true], [HA_TOPIC, false]]);
});

test("discovery: changes made while offline take effect at the next connect, the retraction first", () => {
  const dev = boot({ config: { haDiscovery: true }, offline: true });
  assert.is(http(dev, "PUT", "/api/v1/system", '{"haPrefix":"ha3"}').status, 200);
  assert.is(http(dev, "PUT", "/api/v1/system", '{"haPrefix":"ha4"}').status, 200);
  assert.equal(dev.link.sent, []);
  dev.link.connect();
  const ha = dev.link.sent.filter((m) => m.topic.endsWith("/device/" + UID + "/config"));
  // ha3 was never published from here, but a retained document may be left there from before.
  assert.equal(ha.map((m) => [m.topic, m.payload === ""]),
    [[HA_TOPIC, true], ["ha3/device/" + UID + "/config", true], ["ha4/device/" + UID + "/config", false]]);
  // Turned off offline: the retraction waits for the connect too.
  dev.link.up = false;
  assert.is(http(dev, "PUT", "/api/v1/system", '{"haDiscovery":false}').status, 200);
  const n = dev.link.sent.length;
  dev.link.connect();
  assert.equal(dev.link.sent.slice(n).filter((m) => m.topic.indexOf("/device/" + UID) > 0).map((m) => [m.topic, m.payload]),
    [["ha4/device/" + UID + "/config", ""]]);
});

test("nothing the surface does prints an error", () => {
  const dev = boot({ config: { haDiscovery: true }, bme280: true });
  for (const t of TWINS) command(dev, t.topic, t.payload);
  advance(20000);
  assert.equal(printed.filter((l) => /mqtt/.test(l)), []);
});

test.run();

// ---- behind the real client, with a broker on 127.0.0.1 ------------------------------------------

interface Clock { url: string }

async function put(c: Clock, p: string, body: object): Promise<number> {
  const r = await fetch(c.url + p, { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  await r.arrayBuffer();
  return r.status;
}

async function deviceOf(c: Clock): Promise<{ [k: string]: any }> {
  return (await fetch(c.url + "/api/v1/device")).json() as Promise<{ [k: string]: any }>;
}

/** Points the clock's MQTT at `broker`; the connection fields apply after a restart. */
async function attach(c: Clock & { nextBoot(): Promise<void>; waitForServer(): Promise<void> }, broker: Broker,
  watcher: Observer, prefix: string): Promise<void> {
  assert.is(await put(c, "/api/v1/system", {
    mqttEnabled: true, mqttHost: "127.0.0.1", mqttPort: broker.port, mqttPrefix: prefix, haDiscovery: true,
  }), 200);
  // The connection fields apply without a restart.
  await waitFor("state/device", () => watcher.on(prefix + "/state/device").length > 0, 15000);
}

/** Publishes a command and waits for its result. */
async function ask(watcher: Observer, topic: string, payload: string): Promise<unknown> {
  const n = watcher.on(topic + "/result").length;
  await watcher.publish(topic, payload, 1);
  await waitFor("a result on " + topic, () => watcher.on(topic + "/result").length > n, 15000);
  return JSON.parse(watcher.on(topic + "/result")[n]);
}

const BUNDLE = path.join(ROOT, "dist", "esp32.js");
const e2e = suite("the surface behind the client, in the simulator");

e2e("state, discovery and commands through a broker", async () => {
  if (!fs.existsSync(BUNDLE)) {
    console.log("  (skipped: no dist/esp32.js; run npm run build)");
    return;
  }
  const broker = await startAedes();
  const sim = await startSimulator({ quiet: true });
  const watcher = await Observer.connect(broker.port, "watcher");
  try {
    await watcher.subscribe("e2e/#");
    await watcher.subscribe("homeassistant/#");
    await attach({ url: sim.url, nextBoot: () => sim.device.nextBoot(), waitForServer: () => sim.device.waitForServer() },
      broker, watcher, "e2e");
    const uid = (await deviceOf(sim)).uid as string;
    await waitFor("discovery", () => watcher.on("homeassistant/device/" + uid + "/config").length > 0);
    assert.equal(watcher.on("e2e/state/prefix"), ["e2e"]);
    const doc = JSON.parse(watcher.on("homeassistant/device/" + uid + "/config")[0]) as Doc;
    // The simulated board has a light sensor, a battery and a BME280 (a barometer as well).
    assert.is(Object.keys(doc.cmps).length, 29, Object.keys(doc.cmps).join(" "));
    assert.equal(await ask(watcher, "e2e/cmd/indicators/1", '{"color":"#FF0000"}'), { ok: true });
    await waitFor("the indicator in state/device", () =>
      watcher.on("e2e/state/device").some((d) => (JSON.parse(d) as { indicators: { on: boolean }[] }).indicators[0].on));
    assert.equal(await ask(watcher, "e2e/cmd/notify", '{"text":'),
      { ok: false, error: { code: "invalidJson", message: "payload is not valid JSON" } });
    await watcher.publish("e2e/cmd/indicators/9", "", 1);
    await watcher.publish("e2e/cmd/device/factory-reset", "", 1);
    // Commands are taken in order: once this one is answered, the two before it had their turn.
    assert.equal(await ask(watcher, "e2e/cmd/apps/next", ""), { ok: true });
    assert.equal(watcher.received.filter((m) => /indicators\/9|factory-reset/.test(m.topic)).map((m) => m.topic),
      ["e2e/cmd/indicators/9", "e2e/cmd/device/factory-reset"], "no result for either");
    assert.is((await deviceOf(sim)).messageCount, 5);
    assert.is((await deviceOf(sim)).indicators[0].on, true);
    assert.is(await put(sim, "/api/v1/system", { haDiscovery: false }), 200);
    await waitFor("the retraction", () => watcher.on("homeassistant/device/" + uid + "/config").includes(""));
  } finally {
    watcher.close();
    await sim.stop();
    await broker.close();
  }
});

e2e.run();

const budgets = suite("the surface's memory in the real interpreter");

/** The least the firmware holds over a few seconds: the resting level, between page changes. */
async function restingMin(t: EspruinoTarget, ms: number): Promise<number> {
  await sleep(700);
  let min = Infinity;
  for (const end = Date.now() + ms; Date.now() < end;) {
    min = Math.min(min, await firmwareUsage(t));
    await sleep(100);
  }
  return min;
}

budgets("connected and idle, and 1,000 commands with no growth", async () => {
  if (!process.env.ESPRUINO || !fs.existsSync(BUNDLE)) {
    console.log("  (skipped: set ESPRUINO=/path/to/espruino and build)");
    return;
  }
  const broker = await startAedes();
  const t = await startEspruino("esp32", { debug: true });
  const watcher = await Observer.connect(broker.port, "watcher");
  // Each reading is taken with the loop held on the Time page: pages differ in what they hold.
  const park = async (viaMqtt: boolean) => {
    if (viaMqtt) assert.equal(await ask(watcher, "m/cmd/apps/switch", '{"name":"Time","fast":true}'), { ok: true });
    else assert.is(await put(t, "/api/v1/apps/active", { name: "Time", fast: true }), 200);
    return restingMin(t, 3000);
  };
  try {
    await watcher.subscribe("m/#");
    const r = await fetch(t.url + "/api/v1/settings", {
      method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ autoTransition: false }),
    });
    assert.is(r.status, 200);
    const off = await park(false);
    await attach(t, broker, watcher, "m");
    const connected = await park(true);
    const round = async (i: number) => {
      await ask(watcher, "m/cmd/indicators/1", i % 2 ? "" : '{"color":"#00FF00","blinkMs":500}');
      await ask(watcher, "m/cmd/apps/pushed/w", '{"text":"t' + (i % 10) + '"}');
      await ask(watcher, "m/cmd/display/moodlight", i % 2 ? "" : '{"color":"#3366FF"}');
      await ask(watcher, "m/cmd/notify", '{"text":"n' + (i % 10) + '","hold":true}');
      await ask(watcher, "m/cmd/notify/dismiss", "");
      await ask(watcher, "m/cmd/apps/switch", "Date");
      await ask(watcher, "m/cmd/settings", '{"brightness":' + (100 + (i % 2)) + "}");
      await ask(watcher, "m/cmd/notify", "{bad");
      await watcher.publish("m/cmd/indicators/7", "", 1);
      await ask(watcher, "m/cmd/apps/next", "");
    };
    // A warm-up loads once what the commands use (fonts, the pushed app's page).
    for (let i = 0; i < 10; i++) await round(i);
    const before = await park(true);
    for (let i = 0; i < 100; i++) await round(i);
    const after = await park(true);
    const count = (await deviceOf(t)).messageCount as number;
    console.log("  [mqtt] resting variables: MQTT off " + off + ", connected " + connected + " (+" + (connected - off) +
      "), before 1,000 commands " + before + ", after " + after + " (" + (after - before >= 0 ? "+" : "") + (after - before) + ")");
    // The rounds' 1,100 messages and the four switches that parked the loop.
    assert.is(count, 1103);
    // A single variable kept per round would show as 100.
    assert.ok(after - before < 10, "no growth over 1,000 commands: " + before + " -> " + after);
  } finally {
    watcher.close();
    await t.stop();
    await killAll();
    await broker.close();
  }
});

budgets("the discovery document costs its text and little more while it is published", () => {
  if (!process.env.ESPRUINO) {
    console.log("  (skipped: set ESPRUINO=/path/to/espruino)");
    return;
  }
  // A fully fitted clock: the longest document. Measured when the link takes it, after a collection.
  const lines = runInEspruino(process.env.ESPRUINO, `
    import discover from "./firmware/mqtt/discovery.mod";
    // Filled in place: the measurement itself must not allocate between the two readings.
    const at = [0, 0, 0, 0, 0];
    const link = { prefix: () => "clock7", connected: () => true, onMessage: null, onConnect: null,
      publish: (t: string, p: string) => { at[1] = process.memory().usage; at[2] = E.getSizeOf(p); at[3] = p.length; return true; } };
    const st: any = { link, drop: "", app: { version: "1.2.3", board: { soc: "esp32" },
      system: { config: { haDiscovery: true, haPrefix: "" } },
      runtime: { uid: "a4cf12ab34cd", hostname: "kitchen", light: {}, battery: {}, env: { sensor: { humidity: true, pressure: true } } } } };
    // Once before, so that the readings' own slots already hold numbers like theirs.
    discover(st, null);
    at[4] = process.memory().usage;
    at[0] = process.memory().usage;
    discover(st, null);
    at[4] = process.memory().usage;
    print("[doc] live " + (at[1] - at[0]) + " text " + at[2] + " bytes " + at[3] + " left " + (at[4] - at[0]));
  `);
  const m = /\[doc\] live (\d+) text (\d+) bytes (\d+) left (-?\d+)/.exec(lines.join("\n"));
  assert.ok(m, lines.join("\n"));
  const [live, text, bytes, left] = m!.slice(1).map(Number);
  console.log("  [mqtt] discovery document: " + bytes + " bytes, " + text + " variables of text, " + live + " live while published");
  assert.ok(live - text <= 100, "little beside the text: " + live + " for " + text);
  assert.ok(left <= 0, "nothing kept: " + left);
});

budgets.run();
