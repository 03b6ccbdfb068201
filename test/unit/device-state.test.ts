// GET /api/v1/device, capabilities and the device routes, against a fake App. The firmware's
// platform layer reads Espruino's globals and modules; this file installs small stand-ins for
// them (Wifi, Storage, process.memory, getTime, analogRead, I2C) and only then loads the firmware
// modules (uvu runs TypeScript through tsx as CommonJS, so `require` resolves them in order).
import Module from "node:module";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { SimAdc, SimBme280, SimI2C, SimSht31 } from "../harness/sensors";
import { crc32 } from "../harness/crc32";
import esp32, { chip as esp32Chip } from "../../boards/esp32";
import esp32s3, { chip as esp32s3Chip } from "../../boards/esp32s3";
import type { Board } from "../../boards/board";
import { defaultConfig } from "../../firmware/system/schema";
import type { SystemConfig } from "../../firmware/system/schema";
import { defaultSettings } from "../../firmware/settings/schema";
import type { App } from "../../firmware/app";
import type { ApiRequest, Handler, Reply, Route } from "../../firmware/http/types";
import type { Failure } from "../../firmware/core/failure";

// ---- Espruino stand-ins -----------------------------------------------------------------------

const files: { [name: string]: string } = {};
const memory = { free: 9000, usage: 3000, total: 12000, history: 0, gc: 0, gctime: 0, blocksize: 14 };
let clockMs = 1000;
const adc = new SimAdc();
const fakeWifi = {
  getIP: () => ({ ip: "192.168.1.42", netmask: "255.255.255.0", gw: "192.168.1.1", mac: "a4:cf:12:ab:34:cd" }),
  getDetails: () => ({ status: "connected", rssi: -58, ssid: "MyNetwork" }),
};
const fakeStorage = {
  read: (n: string) => files[n],
  list: () => Object.keys(files),
  write: (n: string, d: string) => { files[n] = String(d); return true; },
  erase: (n: string) => { delete files[n]; },
};
const espruinoModules: { [name: string]: unknown } = { Wifi: fakeWifi, Storage: fakeStorage };
const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const nodeLoad = loader._load;
loader._load = function (request: string, ...rest: unknown[]) {
  if (Object.prototype.hasOwnProperty.call(espruinoModules, request)) return espruinoModules[request];
  return nodeLoad.call(this, request, ...rest);
};
const g = globalThis as unknown as { [k: string]: unknown };
g.getTime = () => clockMs / 1000;
// The build's constants (build/espruino-bundle.mjs), for version.ts.
g.PIXLOOP_VERSION = "1.2.3";
g.PIXLOOP_FILES = "index.html,routes";
g.analogRead = (pin: number) => adc.read(pin);
g.I2C = SimI2C;
// Espruino's E as far as platform/flash takes it when it loads (its CRC32), unless a suite before
// this one left its own.
if (!g.E) g.E = { CRC32: (s: string) => crc32(Buffer.from(s, "latin1")) };
(process as unknown as { memory: (gc?: boolean) => typeof memory }).memory = () => Object.assign({}, memory);

declare const require: { (id: string): unknown; cache: { [path: string]: unknown } };
// Modules another test file loaded against its own stand-ins are loaded afresh against these.
for (const path of Object.keys(require.cache)) {
  if (/[\\/]firmware[\\/](platform|device)[\\/]/.test(path)) delete require.cache[path];
}
const { Runtime } = require("../../firmware/device/runtime") as typeof import("../../firmware/device/runtime");
const { deviceState, derivedHostname, psramFreeBytes } =
  require("../../firmware/device/state") as typeof import("../../firmware/device/state");
const { capabilities } = require("../../firmware/device/capabilities") as typeof import("../../firmware/device/capabilities");
const { deviceRoutes } = require("../../firmware/device/routes") as typeof import("../../firmware/device/routes");
const { markBoot } = require("../../firmware/platform/bootmark") as typeof import("../../firmware/platform/bootmark");
const { loadModule } = require("../../firmware/platform/modules") as typeof import("../../firmware/platform/modules");
const { ConnectionStatus } = require("../../firmware/net/status") as typeof import("../../firmware/net/status");

// ---- fixtures -----------------------------------------------------------------------------------

interface Calls { restart: number; sleep: number[] }

function makeApp(board: Board, edit?: (c: SystemConfig) => void): { app: App; calls: Calls } {
  const config = defaultConfig(board === esp32 ? esp32Chip : esp32s3Chip);
  if (edit) edit(config);
  const calls: Calls = { restart: 0, sleep: [] };
  const app = {
    board,
    version: "1.2.3",
    mode: "station",
    system: { config, chip: () => (board === esp32 ? esp32Chip : esp32s3Chip) },
    settings: { current: defaultSettings() },
    runtime: new Runtime(config),
    ownHosts: () => [],
    accessPointIp: () => "192.168.4.1",
    restart: () => { calls.restart++; },
    sleep: (ms: number) => { calls.sleep.push(ms); },
  } as unknown as App;
  return { app, calls };
}

function state(app: App): { [k: string]: unknown } {
  return deviceState(app) as { [k: string]: unknown };
}

const ALWAYS_HEAD = [
  "version", "uid", "boardType", "soc", "updateImage", "ipAddress", "macAddress", "hostname",
  "wifiRssi", "uptimeSeconds", "freeHeapBytes", "minFreeHeapBytes",
];
const ALWAYS_MID = ["scriptingRunning", "scriptHeapPool", "scriptHeapBudgetBytes", "resetReason", "fps", "brightness"];
const ALWAYS_TAIL = ["matrixPower", "currentApp", "indicators", "messageCount", "wifi", "mqtt", "update"];
const LIGHT = ["lightLevel", "ldrRaw"];
const BATTERY = ["batteryPercent", "batteryVoltage", "batteryPinMillivolts", "lowBattery"];
const ENV = ["temperature", "humidity", "pressureHpa"];
const PSRAM = ["psramTotalBytes", "psramFreeBytes"];

test.before.each(() => {
  SimI2C.reset();
  adc.clear();
  for (const k of Object.keys(files)) delete files[k];
  memory.free = 9000;
  clockMs = 1000;
});

// ---- device state -------------------------------------------------------------------------------

test("stock ESP32 wiring with a BME280: every key, in order", () => {
  SimI2C.attach(new SimBme280({ env: { temperature: 22.5, humidity: 45, pressureHpa: 1008.44 } }), 0x76, 21, 22);
  adc.set(34, 2912);
  adc.set(35, 1200);
  const { app } = makeApp(esp32);
  const s = state(app);
  assert.equal(Object.keys(s), ALWAYS_HEAD.concat(ALWAYS_MID, LIGHT, BATTERY, ENV, ALWAYS_TAIL));
  assert.is(s.version, "1.2.3");
  assert.is(s.uid, "a4cf12ab34cd");
  assert.is(s.boardType, "pixloop");
  assert.is(s.soc, "esp32");
  assert.is(s.updateImage, "pixloop-esp32.bin");
  assert.is(s.ipAddress, "192.168.1.42");
  assert.is(s.macAddress, "A4:CF:12:AB:34:CD");
  assert.is(s.hostname, "pixloop-ab34cd");
  assert.is(s.wifiRssi, -58);
  assert.is(s.uptimeSeconds, 0);
  assert.is(s.freeHeapBytes, 9000 * 14);
  assert.is(s.minFreeHeapBytes, 9000 * 14);
  assert.is(s.resetReason, "poweron");
  assert.is(s.scriptingRunning, false);
  assert.is(s.scriptHeapPool, "internal");
  assert.is(s.scriptHeapBudgetBytes, 98304);
  assert.is(s.fps, 0);
  assert.is(s.brightness, 120);
  // analogRead gives raw / 4096 and the platform scales by 4095: one count lower at most.
  assert.ok(s.ldrRaw === 1200 || s.ldrRaw === 1199, "ldrRaw " + s.ldrRaw);
  assert.is(s.lightLevel, 29.3);
  assert.ok(s.batteryPinMillivolts === 2347 || s.batteryPinMillivolts === 2346);
  assert.is(s.batteryVoltage, 4.2);
  assert.is(s.batteryPercent, 100);
  assert.is(s.lowBattery, false);
  assert.is(s.temperature, 13.5, "22.5 plus the default offset of -9");
  assert.is(s.humidity, 45);
  assert.is(s.pressureHpa, 1008.4);
  assert.is(s.matrixPower, true);
  assert.is(s.currentApp, "");
  assert.equal(s.indicators, [
    { on: false, color: "#000000", blinkMs: 0, fadeMs: 0 },
    { on: false, color: "#000000", blinkMs: 0, fadeMs: 0 },
    { on: false, color: "#000000", blinkMs: 0, fadeMs: 0 },
  ]);
  assert.is(s.messageCount, 0);
  for (const k of ["wifi", "mqtt"]) {
    assert.equal(Object.keys(s[k] as object),
      ["enabled", "state", "host", "endpoint", "attempts", "retryInMs", "connects", "error", "lastError"]);
  }
  for (const k of Object.keys(s)) assert.ok(s[k] !== null && s[k] !== undefined, k + " has a value");
  // JSON round trip: nothing that does not serialise.
  assert.equal(JSON.parse(JSON.stringify(s)), s);
});

test("unwired pins: the conditional keys are absent, not null or 0", () => {
  const { app } = makeApp(esp32, (c) => {
    c.pinBattery = -1;
    c.pinLdr = -1;
    c.pinI2cSda = -1;
  });
  SimI2C.attach(new SimBme280(), 0x76, 21, 22); // there, but the bus is switched off
  const s = state(app);
  assert.equal(Object.keys(s), ALWAYS_HEAD.concat(ALWAYS_MID, ALWAYS_TAIL));
});

test("each conditional group follows its own pin", () => {
  let s = state(makeApp(esp32, (c) => { c.pinBattery = -1; c.pinI2cScl = -1; }).app);
  assert.equal(Object.keys(s), ALWAYS_HEAD.concat(ALWAYS_MID, LIGHT, ALWAYS_TAIL));
  s = state(makeApp(esp32, (c) => { c.pinLdr = -1; c.pinI2cSda = -1; }).app);
  assert.equal(Object.keys(s), ALWAYS_HEAD.concat(ALWAYS_MID, BATTERY, ALWAYS_TAIL));
});

test("I2C pins set but no sensor: no environment keys", () => {
  const s = state(makeApp(esp32).app);
  for (const k of ENV) assert.not.ok(k in s, k);
  assert.ok("batteryVoltage" in s && "lightLevel" in s);
});

test("environment keys follow what the sensor measures", () => {
  SimI2C.attach(new SimBme280({ chipId: 0x58, env: { temperature: 20, humidity: 0, pressureHpa: 1000 } }), 0x76, 21, 22);
  let s = state(makeApp(esp32, (c) => { c.tempOffset = 0; }).app);
  assert.is(s.temperature, 20);
  assert.not.ok("humidity" in s);
  assert.is(s.pressureHpa, 1000);
  SimI2C.reset();
  SimI2C.attach(new SimSht31({ temperature: 24.46, humidity: 50.04, pressureHpa: 0 }), 0x44, 21, 22);
  s = state(makeApp(esp32, (c) => { c.tempOffset = 0; }).app);
  assert.is(s.temperature, 24.5);
  assert.is(s.humidity, 50);
  assert.not.ok("pressureHpa" in s);
  const keys = Object.keys(s);
  assert.ok(keys.indexOf("lowBattery") < keys.indexOf("temperature"));
  assert.ok(keys.indexOf("humidity") < keys.indexOf("matrixPower"));
});

test("calibration applies live: offsets, clamp, ratio, threshold, ldrFactor", () => {
  SimI2C.attach(new SimBme280({ env: { temperature: 20, humidity: 80, pressureHpa: 1000 } }), 0x76, 21, 22);
  adc.set(34, 2210); // about 1780 mV at the pin
  adc.set(35, 1200);
  const { app } = makeApp(esp32);
  const cfg = app.system.config;
  cfg.tempOffset = 1.2;
  cfg.humOffset = 30;
  cfg.batteryDividerRatio = 2;
  cfg.lowBatteryThreshold = 50;
  cfg.ldrFactor = 2;
  let s = state(app);
  assert.is(s.temperature, 21.2);
  assert.is(s.humidity, 100, "clamped");
  assert.is(s.batteryVoltage, Math.round((s.batteryPinMillivolts as number) / 1000 * 2 * 100) / 100);
  assert.is(s.batteryVoltage, 3.56);
  assert.is(s.batteryPercent, 7);
  assert.is(s.lowBattery, true);
  assert.is(s.lightLevel, 58.6);
  cfg.humOffset = -50;
  cfg.lowBatteryThreshold = 0;
  cfg.ldrOnGround = true;
  s = state(app);
  assert.is(s.humidity, 30);
  assert.is(s.lowBattery, false, "threshold 0 is off");
  assert.is(s.lightLevel, 100, "(4095 - 1200) x 2 is past full light");
});

test("battery sampler takes the median of the last five ticks", () => {
  adc.set(34, 2912);
  const { app } = makeApp(esp32, (c) => { c.pinLdr = -1; });
  for (let i = 0; i < 4; i++) app.runtime.tick();
  adc.set(34, 0); // one bad reading
  app.runtime.tick();
  assert.is(state(app).batteryVoltage, 4.2);
  adc.set(34, 0);
  app.runtime.tick();
  app.runtime.tick();
  assert.is(state(app).batteryVoltage, 0);
  assert.is(state(app).batteryPercent, 0);
});

test("uid and hostname derivation", () => {
  assert.is(derivedHostname("a4cf12ab34cd"), "pixloop-ab34cd");
  const s = state(makeApp(esp32, (c) => { c.hostname = "kitchen-clock"; }).app);
  assert.is(s.uid, "a4cf12ab34cd");
  assert.is(s.hostname, "kitchen-clock");
});

test("PSRAM board: psram keys after minFreeHeapBytes, script heap in PSRAM", () => {
  const { app } = makeApp(esp32s3, (c) => { c.pinBattery = -1; c.pinLdr = -1; c.pinI2cSda = -1; });
  const s = state(app);
  assert.equal(Object.keys(s), ALWAYS_HEAD.concat(PSRAM, ALWAYS_MID, ALWAYS_TAIL));
  assert.is(s.soc, "esp32s3");
  assert.is(s.updateImage, "pixloop-esp32s3-octal.bin");
  assert.is(s.psramTotalBytes, 8388608);
  assert.is(s.psramFreeBytes, 8388608 - 12000 * 14);
  assert.is(s.scriptHeapPool, "psram");
  assert.is(s.scriptHeapBudgetBytes, Math.floor((8388608 - 12000 * 14) / 2));
  assert.is(psramFreeBytes(100, 50, 0, 0), 0, "never negative");
});

test("minimum free heap only falls; sampled by ticks and reads", () => {
  const { app } = makeApp(esp32);
  memory.free = 5000;
  app.runtime.tick();
  memory.free = 8000;
  const s = state(app);
  assert.is(s.freeHeapBytes, 8000 * 14);
  assert.is(s.minFreeHeapBytes, 5000 * 14);
  memory.free = 4000;
  assert.is(state(app).minFreeHeapBytes, 4000 * 14);
});

test("uptime counts elapsed time and ignores the clock being set", () => {
  const { app } = makeApp(esp32);
  clockMs += 1500;
  app.runtime.tick();
  clockMs += 1500;
  assert.is(state(app).uptimeSeconds, 3);
  clockMs += 1.7e12; // SNTP sets the clock
  app.runtime.tick();
  clockMs += 2000;
  app.runtime.tick();
  assert.is(state(app).uptimeSeconds, 5);
});

test("reset reason from the boot marker, which is consumed", () => {
  markBoot("software");
  assert.is(state(makeApp(esp32).app).resetReason, "software");
  assert.is(state(makeApp(esp32).app).resetReason, "poweron", "marker erased at boot");
  markBoot("deepSleep");
  assert.is(state(makeApp(esp32).app).resetReason, "deepSleep");
  files["pixloop.bootmark"] = "garbage";
  assert.is(state(makeApp(esp32).app).resetReason, "poweron");
});

test("wifi and mqtt status objects are the runtime's; MQTT never started reads disabled", () => {
  const { app } = makeApp(esp32);
  const idle = state(app).mqtt as { [k: string]: unknown };
  assert.equal(idle, { enabled: false, state: "disabled", host: "", endpoint: "", attempts: 0, retryInMs: 0, connects: 0,
    error: null, lastError: null });
  const mqtt = new ConnectionStatus();
  app.runtime.mqtt = mqtt;
  mqtt.connecting("broker.local");
  mqtt.failed("refused", clockMs + 5000);
  const m = state(app).mqtt as { [k: string]: unknown };
  assert.is(m.enabled, true);
  assert.is(m.host, "broker.local");
  assert.is(m.retryInMs, 5000);
  assert.is(m.error, "refused");
});

// ---- capabilities -------------------------------------------------------------------------------

test("capabilities: names, audio flags, gpio", () => {
  const { app } = makeApp(esp32);
  const c = capabilities(app) as { [k: string]: unknown };
  assert.equal(Object.keys(c), ["effects", "transitions", "overlays", "palettes", "audio", "gpio"]);
  const effects = c.effects as string[];
  assert.is(effects.length, 19);
  assert.equal(effects.slice().sort(), effects, "ASCII-sorted");
  const transitions = c.transitions as string[];
  assert.is(transitions.length, 22);
  assert.is(transitions[0], "Random");
  assert.is(transitions[21], "Interlace");
  assert.equal(c.overlays, ["drizzle", "frost", "rain", "snow", "storm", "thunder"]);
  assert.equal(c.palettes, ["Cloud", "Lava", "Ocean", "Forest", "Stripe", "Party", "Heat", "Rainbow"]);
  assert.equal(c.audio, { buzzer: true, track: false, mp3: false, radio: false });
  assert.is((c.gpio as { soc: string }).soc, "esp32");
  const cfg = app.system.config;
  cfg.modulePlayer = true;
  assert.equal((capabilities(app) as { audio: object }).audio, { buzzer: true, track: true, mp3: false, radio: false });
  cfg.pinModuleTx = -1;
  cfg.pinBuzzer = -1;
  assert.equal((capabilities(app) as { audio: object }).audio, { buzzer: false, track: false, mp3: false, radio: false });
});

// ---- routes -------------------------------------------------------------------------------------

function route(path: string): Route {
  const r = deviceRoutes.find((x) => x.path === path);
  assert.ok(r, path);
  return r!;
}

function call(path: string, method: "GET" | "POST", app: App, body?: unknown): Reply | Failure {
  const spec = route(path).methods[method];
  assert.ok(spec, method + " " + path);
  const req: ApiRequest = {
    method, path, query: {}, header: () => "", body, params: {},
  };
  return loadModule<Handler>(spec!.handler)(req, app);
}

test("routes: paths, methods, setup mode and guards", () => {
  assert.equal(deviceRoutes.map((r) => r.path + " " + Object.keys(r.methods).join(",")), [
    "/api/v1/device GET", "/api/v1/version GET", "/version GET", "/api/v1/capabilities GET",
    "/api/v1/device/reboot POST", "/api/v1/device/sleep POST", "/api/v1/device/factory-reset POST",
  ]);
  const setupAllowed = deviceRoutes.filter((r) => Object.values(r.methods)[0]!.setup).map((r) => r.path);
  assert.equal(setupAllowed, ["/api/v1/device", "/api/v1/version", "/version", "/api/v1/capabilities", "/api/v1/device/reboot"]);
  assert.is(route("/api/v1/device/factory-reset").methods.POST!.guarded, true);
  assert.is(route("/api/v1/device/factory-reset").methods.POST!.maxBody, 0);
  assert.is(route("/api/v1/device/reboot").methods.POST!.maxBody, 0);
  assert.is(route("/api/v1/device/sleep").methods.POST!.emptyBody, "invalidJson");
});

test("routes: version as JSON and as plain text", () => {
  const { app } = makeApp(esp32);
  assert.equal(call("/api/v1/version", "GET", app), { status: 200, json: { version: "1.2.3" } });
  assert.equal(call("/version", "GET", app), { status: 200, text: "1.2.3", contentType: "text/plain" });
  const d = call("/api/v1/device", "GET", app) as Reply;
  assert.is(d.status, 200);
  assert.is((d.json as { version: string }).version, "1.2.3");
  assert.is((call("/api/v1/capabilities", "GET", app) as Reply).status, 200);
});

test("routes: reboot and factory reset answer first, act after", () => {
  const { app, calls } = makeApp(esp32);
  const r = call("/api/v1/device/reboot", "POST", app) as Reply;
  assert.is(r.status, 200);
  assert.equal(r.json, { ok: true });
  assert.is(calls.restart, 0);
  r.after!();
  assert.is(calls.restart, 1);
  files["user.txt"] = "mine";
  files["index.html"] = "<p>page</p>";
  const f = call("/api/v1/device/factory-reset", "POST", app) as Reply;
  assert.equal(f.json, { ok: true });
  assert.is(files["user.txt"], "mine");
  f.after!();
  // The user's file is gone, the firmware's page stays, and the clock restarts.
  assert.equal(Object.keys(files), ["index.html"]);
  assert.is(calls.restart, 2);
});

test("routes: sleep takes a positive integer durationMs", () => {
  const { app, calls } = makeApp(esp32);
  const r = call("/api/v1/device/sleep", "POST", app, { durationMs: 60000 }) as Reply;
  assert.equal(r.json, { ok: true });
  assert.equal(calls.sleep, []);
  r.after!();
  assert.equal(calls.sleep, [60000]);
  const bad = [{}, { durationMs: 0 }, { durationMs: -5 }, { durationMs: 1.5 }, { durationMs: "600" },
    { durationMs: null }, { durationMs: true }, null, 42, [60000], "x"];
  for (const body of bad) {
    const f = call("/api/v1/device/sleep", "POST", app, body) as Failure;
    assert.equal(
      { status: f.status, code: f.code, field: f.field, message: f.message },
      { status: 422, code: "validationFailed", field: "durationMs", message: "must be a positive integer (milliseconds)" },
      JSON.stringify(body),
    );
  }
});

test.run();
