import Module from "node:module";
import { test } from "uvu";
import * as assert from "uvu/assert";
import esp32, { chip as esp32Chip } from "../../boards/esp32";
import esp32s3, { chip as esp32s3Chip } from "../../boards/esp32s3";
import { SystemStore } from "../../firmware/system/store";
import { defaultConfig } from "../../firmware/system/schema";
import type { SystemConfig } from "../../firmware/system/schema";
import type { Route, ApiRequest, Reply, MethodSpec, Handler } from "../../firmware/http/types";
import { loadModule } from "../../firmware/platform/modules";
import type { Failure } from "../../firmware/core/failure";
import { MemFlash, boardFlash } from "./mem-flash";
import { LocalClock } from "../../firmware/time/clock";

/** Writes one stored copy the way AtomicRecord lays it out. */
function plant(flash: MemFlash, slot: number, seq: number, value: unknown): void {
  flash.plant("sys", slot, seq, value);
}

function withChange(c: SystemConfig, over: object): SystemConfig {
  return Object.assign({}, c, over) as SystemConfig;
}

test("empty flash: factory defaults of the board", () => {
  const s = new SystemStore(boardFlash(), esp32);
  s.load();
  assert.equal(s.config, defaultConfig(esp32Chip));
  assert.is(s.pinFallback, false);
  const t = new SystemStore(boardFlash(), esp32s3);
  t.load();
  assert.is(t.config.pinMatrix, 21);
});

test("save then load round-trips", () => {
  const flash = boardFlash();
  const s = new SystemStore(flash, esp32);
  s.load();
  const next = withChange(s.config, { wifiSsid: "home", wifiPass: "pw", tempOffset: -2.5, panelStart: "bottomRight" });
  assert.ok(s.save(next));
  assert.is(s.config, next);
  const again = new SystemStore(flash, esp32);
  again.load();
  assert.equal(again.config, next);
  // A second save goes to the other slot; the newest wins.
  assert.ok(s.save(withChange(next, { hostname: "clock" })));
  assert.ok(flash.files["sys.0"] !== undefined && flash.files["sys.1"] !== undefined);
  const third = new SystemStore(flash, esp32);
  third.load();
  assert.is(third.config.hostname, "clock");
});

test("write failure: false, previous config kept in memory and on flash", () => {
  const flash = boardFlash();
  const s = new SystemStore(flash, esp32);
  s.load();
  const first = withChange(s.config, { wifiSsid: "one" });
  assert.ok(s.save(first));
  flash.refuse = true;
  assert.is(s.save(withChange(first, { wifiSsid: "two" })), false);
  assert.is(s.config, first);
  assert.is(s.config.wifiSsid, "one");
  flash.refuse = false;
  const again = new SystemStore(flash, esp32);
  again.load();
  assert.is(again.config.wifiSsid, "one");
});

test("a corrupted newest copy falls back to the older one", () => {
  const flash = boardFlash();
  const s = new SystemStore(flash, esp32);
  s.load();
  assert.ok(s.save(withChange(s.config, { wifiSsid: "older" })));
  assert.ok(s.save(withChange(s.config, { wifiSsid: "newer" })));
  const newestSlot = flash.files["sys.1"].indexOf("newer") > 0 ? "sys.1" : "sys.0";
  flash.files[newestSlot] = flash.files[newestSlot].replace("newer", "nawer");
  const again = new SystemStore(flash, esp32);
  again.load();
  assert.is(again.config.wifiSsid, "older");
});

test("missing fields take defaults, unknown keys dropped, wrong types fall back", () => {
  const flash = boardFlash();
  plant(flash, 0, 3, {
    wifiSsid: "home", mqttPort: "1883x", webPort: 8080, tempOffset: 99, panelStart: "BOTTOMLEFT",
    panelWiring: "spiral", netStatic: "yes", gateway: "not-an-ip", bogus: 1, scriptLimit: 4,
    pinBuzzer: 13,
  });
  const s = new SystemStore(flash, esp32);
  s.load();
  const c = s.config as SystemConfig & { [k: string]: unknown };
  assert.is(c.wifiSsid, "home");
  assert.is(c.webPort, 8080);
  assert.is(c.mqttPort, 1883);
  assert.is(c.tempOffset, -9);
  assert.is(c.panelStart, "bottomLeft");
  assert.is(c.panelWiring, "rows");
  assert.is(c.netStatic, false);
  assert.is(c.gateway, "");
  assert.is(c.haPrefix, "homeassistant");
  assert.is(c.bogus, undefined);
  assert.is(c.scriptLimit, undefined);
  assert.is(c.pinBuzzer, 13);
  assert.is(s.pinFallback, false);
  assert.is(Object.keys(c).length, 70);
});

test("a stored invalid pin map is replaced by the board defaults as a whole", () => {
  const flash = boardFlash();
  // pinBtnLeft on an input-only pin; other pins moved too.
  plant(flash, 1, 9, Object.assign({}, esp32Chip.defaults, { wifiSsid: "home", pinBtnLeft: 36, pinBuzzer: 13 }));
  const s = new SystemStore(flash, esp32);
  s.load();
  assert.is(s.pinFallback, true);
  assert.is(s.config.wifiSsid, "home");
  assert.is(s.config.pinBtnLeft, 26);
  assert.is(s.config.pinBuzzer, 15);
  // The stored copy is not rewritten.
  assert.ok(flash.files["sys.1"].indexOf('"pinBtnLeft":36') > 0);
  // An ESP32 map on an ESP32-S3.
  const other = boardFlash();
  plant(other, 0, 1, Object.assign({ wifiSsid: "x" }, esp32Chip.defaults));
  const t = new SystemStore(other, esp32s3);
  t.load();
  assert.is(t.pinFallback, true);
  assert.equal(
    [t.config.pinMatrix, t.config.pinBattery, t.config.pinI2sBclk],
    [esp32s3Chip.defaults.pinMatrix, esp32s3Chip.defaults.pinBattery, esp32s3Chip.defaults.pinI2sBclk]);
  // A broken I2S set counts as an unusable map too.
  const third = boardFlash();
  plant(third, 0, 1, { pinI2sBclk: 4 });
  const u = new SystemStore(third, esp32);
  u.load();
  assert.is(u.pinFallback, true);
  assert.is(u.config.pinI2sBclk, -1);
  // Saving a valid map clears the flag.
  assert.ok(s.save(s.config));
  assert.is(s.pinFallback, false);
});

// --- the routes, through their handlers --------------------------------------------------------

// The scan handler reaches the radio through platform/wifi, which requires Espruino's "Wifi":
// a stand-in that finds two networks, loaded afresh in case another suite loaded its own.
const fakeWifi = {
  scan: (cb: (aps: { ssid: string; rssi: number; authMode: string }[]) => void) => {
    setTimeout(() => cb([{ ssid: "net", rssi: -60, authMode: "wpa2" }, { ssid: "cafe", rssi: -80, authMode: "open" }]), 1);
  },
};
declare const require: { cache: { [path: string]: unknown } };
/** Loads the radio afresh on top of every other suite's stand-ins (the newest hook answers first). */
function freshRadio(): void {
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const before = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    return request === "Wifi" ? fakeWifi : before.call(this, request, ...rest);
  };
  for (const path of Object.keys(require.cache)) {
    if (/[\\/]firmware[\\/](platform[\\/]wifi|system[\\/]wifi-scan)/.test(path)) delete require.cache[path];
  }
}

function request(method: "GET" | "PUT", path: string, query: { [k: string]: string }, body?: unknown): ApiRequest {
  return { method, path, query, body, params: {}, header: () => "" };
}

function fakeApp(mode: "station" | "setup", flash: MemFlash) {
  const system = new SystemStore(flash, esp32);
  system.load();
  system.save(withChange(system.config, { wifiSsid: "home", wifiPass: "secret", authPass: "a" }));
  const display = { clock: new LocalClock(() => Date.UTC(2025, 6, 1)) };
  return { board: esp32, mode, system, display, runtime: {} } as unknown as import("../../firmware/app").App;
}

async function routes(): Promise<Route[]> {
  const m = await import("../../firmware/system/routes");
  return m.systemRoutes;
}

function route(all: Route[], path: string): Route {
  const r = all.find((x) => x.path === path);
  if (!r) throw new Error("no route " + path);
  return r;
}

/** The handler module a route method names, as the transport loads it. */
function handler(spec: MethodSpec): Handler {
  return loadModule<Handler>(spec.handler);
}

test("routes: GET omits secrets unless secrets=1; refused in setup mode", async () => {
  const all = await routes();
  const get = route(all, "/api/v1/system").methods.GET!;
  assert.is(get.setup, true);
  assert.is(get.guarded, "secrets");
  const app = fakeApp("station", boardFlash());
  let r = handler(get)(request("GET", "/api/v1/system", {}), app) as Reply;
  assert.is(r.status, 200);
  const plain = r.json as { [k: string]: unknown };
  assert.is(plain.wifiPass, undefined);
  assert.is(plain.wifiSsid, "home");
  assert.is(Object.keys(plain).length, 67);
  r = handler(get)(request("GET", "/api/v1/system", { secrets: "1" }), app) as Reply;
  assert.is((r.json as { [k: string]: unknown }).wifiPass, "secret");
  const setup = fakeApp("setup", boardFlash());
  const f = handler(get)(request("GET", "/api/v1/system", { secrets: "1" }), setup) as Failure;
  assert.equal([f.status, f.code, f.message], [403, "forbidden", "not available during provisioning"]);
  assert.is((handler(get)(request("GET", "/api/v1/system", {}), setup) as Reply).status, 200);
});

test("routes: PUT saves, answers without secrets; 507 keeps the old config", async () => {
  const all = await routes();
  const put = route(all, "/api/v1/system").methods.PUT!;
  assert.equal([put.setup, put.guarded, put.emptyBody], [true, true, "invalidJson"]);
  const flash = boardFlash();
  const app = fakeApp("station", flash);
  const r = handler(put)(request("PUT", "/api/v1/system", {}, { hostname: "clock", authPass: "new" }), app) as Reply;
  assert.is(r.status, 200);
  const view = r.json as { [k: string]: unknown };
  assert.is(view.hostname, "clock");
  assert.is(view.authPass, undefined);
  assert.is(app.system.config.hostname, "clock");
  assert.is(app.system.config.authPass, "new");
  // A new zone is compiled by the PUT, before the next frame reads it.
  handler(put)(request("PUT", "/api/v1/system", {}, { tz: "EST5EDT,M3.2.0,M11.1.0" }), app);
  assert.is(app.display.clock.tz.src, "EST5EDT,M3.2.0,M11.1.0");
  assert.is(app.display.clock.tz.dst, -4 * 3600000);
  const bad = handler(put)(request("PUT", "/api/v1/system", {}, { webPort: 70000 }), app) as Failure;
  assert.equal([bad.status, bad.code, bad.field], [422, "validationFailed", "webPort"]);
  flash.refuse = true;
  const full = handler(put)(request("PUT", "/api/v1/system", {}, { hostname: "other" }), app) as Failure;
  assert.equal([full.status, full.code, full.message], [507, "insufficientStorage", "storage capacity reached"]);
  assert.is(app.system.config.hostname, "clock");
});

test("routes: wifi scan answers 202 until results are ready, then hands them out once", async () => {
  // The scan's staleness check reads Espruino's clock.
  const g = globalThis as unknown as { getTime?: () => number };
  if (!g.getTime) g.getTime = () => Date.now() / 1000;
  const all = await routes();
  const scan = route(all, "/api/v1/system/wifi-scan").methods.GET!;
  freshRadio();
  assert.is(scan.setup, true);
  const app = fakeApp("setup", boardFlash());
  const req = request("GET", "/api/v1/system/wifi-scan", {});
  const first = handler(scan)(req, app) as Reply;
  assert.equal([first.status, first.json], [202, { scanning: true }]);
  let r = first;
  for (let i = 0; i < 100 && r.status === 202; i++) {
    await new Promise((done) => setTimeout(done, 5));
    r = handler(scan)(req, app) as Reply;
  }
  assert.is(r.status, 200);
  const list = r.json as { ssid: string; rssi: number; enc: boolean }[];
  assert.ok(Array.isArray(list));
  for (const n of list) {
    assert.is(typeof n.ssid, "string");
    assert.is(typeof n.rssi, "number");
    assert.is(typeof n.enc, "boolean");
  }
  // Nothing is kept once the results are out.
  assert.is(app.runtime.wifiScan, undefined);
  // Served once: the next call starts over.
  assert.is((handler(scan)(req, app) as Reply).status, 202);
});

test("routes: wifi scan results nobody comes for are dropped after 10 s, not kept for good", async () => {
  const g = globalThis as unknown as { getTime?: () => number; setTimeout: typeof setTimeout };
  if (!g.getTime) g.getTime = () => Date.now() / 1000;
  const all = await routes();
  const scan = route(all, "/api/v1/system/wifi-scan").methods.GET!;
  freshRadio();
  const app = fakeApp("station", boardFlash());
  const req = request("GET", "/api/v1/system/wifi-scan", {});
  // The scan the test before left running ends first (the stand-in radio takes 200 ms): its
  // results would start a timer of their own.
  await new Promise((done) => setTimeout(done, 300));
  // The handler's own timers are caught (the radio's short one still runs).
  const real = g.setTimeout;
  const caught: { fn: () => void; ms: number }[] = [];
  g.setTimeout = ((fn: () => void, ms: number) => {
    if (ms < 1000) return real(fn, ms);
    caught.push({ fn, ms });
    return 0;
  }) as unknown as typeof setTimeout;
  try {
    assert.is((handler(scan)(req, app) as Reply).status, 202);
    for (let i = 0; i < 100 && !(app.runtime.wifiScan && app.runtime.wifiScan.found); i++) {
      await new Promise((done) => real(done, 5));
    }
    assert.ok(app.runtime.wifiScan && app.runtime.wifiScan.found, "results came");
    assert.equal(caught.map((c) => c.ms), [10000]);
    caught[0].fn();
    assert.is(app.runtime.wifiScan, undefined);
    // A later request starts a fresh scan.
    assert.is((handler(scan)(req, app) as Reply).status, 202);
    assert.ok(app.runtime.wifiScan, "a new scan runs");
    // The timer of results handed out in time leaves the next scan alone.
    const next = app.runtime.wifiScan;
    for (let i = 0; i < 100 && !(next && next.found); i++) await new Promise((done) => real(done, 5));
    assert.is((handler(scan)(req, app) as Reply).status, 200);
    assert.is((handler(scan)(req, app) as Reply).status, 202);
    const third = app.runtime.wifiScan;
    caught[1].fn();
    assert.is(app.runtime.wifiScan, third);
  } finally {
    g.setTimeout = real;
  }
});

test.run();
