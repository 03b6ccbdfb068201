import { test } from "uvu";
import * as assert from "uvu/assert";
import esp32, { chip as esp32Chip } from "../../boards/esp32";
import esp32s3, { chip as esp32s3Chip } from "../../boards/esp32s3";
import type { Board } from "../../boards/board";
import { isFailure } from "../../firmware/core/failure";
import type { Failure } from "../../firmware/core/failure";
import { applySystemPut, isDottedQuad, prefixToMask } from "../../firmware/system/validate";
import { defaultConfig, publicView, fieldRows, findField } from "../../firmware/system/schema";
import type { SystemConfig } from "../../firmware/system/schema";

type Cfg = SystemConfig & { [k: string]: unknown };

function base(board?: Board, over?: object): SystemConfig {
  return Object.assign(defaultConfig(board === esp32s3 ? esp32s3Chip : esp32Chip), { wifiSsid: "home" }, over || {});
}

function put(body: unknown, current?: SystemConfig, board?: Board): SystemConfig | Failure {
  const b = board || esp32;
  return applySystemPut(current || base(b), body, b === esp32 ? esp32Chip : esp32s3Chip);
}

function ok(body: unknown, current?: SystemConfig, board?: Board): Cfg {
  const r = put(body, current, board);
  if (isFailure(r)) throw new Error("unexpected failure: " + JSON.stringify(r));
  return r as Cfg;
}

/** Asserts a failure and returns [status, code, field, message]. */
function fail(body: unknown, current?: SystemConfig, board?: Board): [number, string, string | undefined, string] {
  const r = put(body, current, board);
  assert.ok(isFailure(r), "expected a failure for " + JSON.stringify(body));
  const f = r as Failure;
  return [f.status, f.code, f.field, f.message];
}

function v422(field: string, message: string): [number, string, string, string] {
  return [422, "validationFailed", field, message];
}

const IP_MSG = 'must be an IPv4 address like 192.168.1.50, or "" to leave it unset';
const CIDR_MSG = 'must be an IPv4 address like 192.168.1.50 or 192.168.1.50/24, or "" to leave it unset';

test("schema: 70 fields, defaults from the table and the board", () => {
  assert.is(fieldRows().length, 70);
  const d = defaultConfig(esp32Chip) as Cfg;
  assert.is(Object.keys(d).length, 70);
  assert.is(d.haPrefix, "homeassistant");
  assert.is(d.ntpServer, "pool.ntp.org");
  assert.is(d.tz, "CET-1CEST,M3.5.0,M10.5.0/3");
  assert.is(d.tzName, "Europe/Berlin");
  assert.is(d.tempOffset, -9);
  assert.is(d.batteryDividerRatio, 1.79);
  assert.is(d.ldrGamma, 2.2);
  assert.is(d.wifiConnectTimeout, 15000);
  assert.is(d.statsInterval, 10000);
  assert.is(d.panelSerpentine, true);
  assert.is(d.scriptingEnabled, true);
  assert.is(d.panelColorOrder, "grb");
  assert.is(d.panelStart, "topLeft");
  assert.is(d.mqttTlsPin, "");
  assert.is(d.pinMatrix, 32);
  assert.is(d.pinI2sBclk, -1);
  const s = defaultConfig(esp32s3Chip);
  assert.is(s.pinMatrix, 21);
  assert.is(s.pinI2sDout, 4);
  const spec = findField("wifiPass")!;
  assert.is(spec.secret, true);
  assert.is(findField("panelChainReverse"), null);
  assert.is(findField("scriptLimit"), null);
});

test("public view: table order, secrets only on request", () => {
  const c = base(esp32, { wifiPass: "w", mqttPass: "m", authPass: "a" });
  const v = publicView(c, false);
  assert.is(Object.keys(v).length, 67);
  assert.is(v.wifiPass, undefined);
  assert.is(v.mqttPass, undefined);
  assert.is(v.authPass, undefined);
  assert.equal(Object.keys(v).slice(0, 4), ["wifiSsid", "netStatic", "ip", "gateway"]);
  assert.is(Object.keys(v)[66], "pinAmpEnable");
  const s = publicView(c, true);
  assert.is(Object.keys(s).length, 70);
  assert.equal([s.wifiPass, s.mqttPass, s.authPass], ["w", "m", "a"]);
  assert.equal(Object.keys(s).slice(0, 2), ["wifiSsid", "wifiPass"]);
});

test("partial merge, unknown keys ignored, fresh object, current untouched", () => {
  const cur = base();
  const before = JSON.stringify(cur);
  const r = ok({ mqttHost: "broker", mqttPort: 1884, bogus: 1, panelChainReverse: true, scriptLimit: 3 }, cur);
  assert.is(r.mqttHost, "broker");
  assert.is(r.mqttPort, 1884);
  assert.is(r.hostname, "");
  assert.is(r.bogus, undefined);
  assert.is(r.panelChainReverse, undefined);
  assert.is(r.scriptLimit, undefined);
  assert.ok(r !== cur);
  assert.is(JSON.stringify(cur), before);
  // A rejected request leaves current alone as well.
  fail({ mqttHost: "x", webPort: -1 }, cur);
  assert.is(JSON.stringify(cur), before);
  // Empty object: a copy of current.
  assert.equal(ok({}, cur), cur);
});

test("body must be an object", () => {
  for (const body of [[], [1], 5, "x", null, true, undefined]) {
    const r = put(body);
    assert.ok(isFailure(r));
    const f = r as Failure;
    assert.is(f.status, 422);
    assert.is(f.code, "validationFailed");
    assert.is(f.field, undefined);
    assert.is(f.message, "the body must be a JSON object of system fields");
  }
});

test("every integer field: type and range", () => {
  const ranges: [string, number, number, object][] = [
    ["wifiConnectTimeout", 5000, 120000, {}], ["wifiRoamRssi", -90, 0, {}], ["mqttPort", 1, 65535, {}],
    ["webPort", 0, 65535, {}], ["minBrightness", 0, 255, { maxBrightness: 255 }],
    ["maxBrightness", 0, 255, { minBrightness: 0 }], ["brightnessSmoothing", 0, 60000, {}],
    ["lowBatteryThreshold", 0, 100, {}], ["statsInterval", 1000, 600000, {}], ["tempDecimals", 0, 2, {}],
  ];
  for (const [f, lo, hi, over] of ranges) {
    const cur = base(esp32, over);
    const body = (v: unknown) => { const o: { [k: string]: unknown } = {}; o[f] = v; return o; };
    assert.equal(fail(body(lo - 1), cur), v422(f, "out of range"), f + " low");
    assert.equal(fail(body(hi + 1), cur), v422(f, "out of range"), f + " high");
    assert.equal(fail(body(1.5), cur), v422(f, "must be an integer"), f + " 1.5");
    assert.equal(fail(body("80"), cur), v422(f, "must be an integer"), f + " string");
    assert.equal(fail(body(true), cur), v422(f, "must be an integer"), f + " bool");
    assert.equal(fail(body(null), cur), v422(f, "must be an integer"), f + " null");
    assert.is(ok(body(lo), cur)[f], lo, f + " lo");
    assert.is(ok(body(hi), cur)[f], hi, f + " hi");
  }
  // panelWidth and panels: 1-128 each (their product has its own rule).
  for (const f of ["panelWidth", "panels"]) {
    const body = (v: unknown) => { const o: { [k: string]: unknown } = {}; o[f] = v; return o; };
    assert.equal(fail(body(0)), v422(f, "out of range"), f);
    assert.equal(fail(body(129)), v422(f, "out of range"), f);
    assert.equal(fail(body(2.5)), v422(f, "must be an integer"), f);
    assert.equal(fail(body("4")), v422(f, "must be an integer"), f);
  }
  assert.is(ok({ panelWidth: 1, panels: 32 }).panelWidth, 1);
  assert.is(ok({ panelWidth: 1, panels: 128 }).panels, 128);
  assert.equal(fail({ webPort: 70000 }), v422("webPort", "out of range"));
  assert.equal(fail({ mqttPort: "eighty" }), v422("mqttPort", "must be an integer"));
  assert.equal(fail({ tempDecimals: 1.5 }), v422("tempDecimals", "must be an integer"));
});

test("every float field: type and range, fractions accepted", () => {
  const ranges: [string, number, number][] = [
    ["tempOffset", -20, 20], ["humOffset", -50, 50], ["batteryDividerRatio", 0.1, 10],
    ["ldrFactor", 0, 10], ["ldrGamma", 0.1, 10],
  ];
  for (const [f, lo, hi] of ranges) {
    const body = (v: unknown) => { const o: { [k: string]: unknown } = {}; o[f] = v; return o; };
    assert.equal(fail(body(lo - 0.01)), v422(f, "out of range"), f);
    assert.equal(fail(body(hi + 0.01)), v422(f, "out of range"), f);
    assert.equal(fail(body("1")), v422(f, "must be a number"), f);
    assert.equal(fail(body(false)), v422(f, "must be a number"), f);
    assert.is(ok(body(lo))[f], lo);
    assert.is(ok(body(hi))[f], hi);
    assert.is(ok(body(1.25))[f], 1.25);
  }
  assert.is(ok({ tempOffset: -2.5 }).tempOffset, -2.5);
});

test("booleans and strings: type checks", () => {
  const bools = ["netStatic", "mqttEnabled", "mqttTls", "haDiscovery", "authEnabled", "ldrOnGround",
    "panelSerpentine", "mirror", "rotate", "swapButtons", "modulePlayer", "artnet", "debugMode", "scriptingEnabled"];
  for (const f of bools) {
    const o: { [k: string]: unknown } = {};
    o[f] = 1;
    assert.equal(fail(o), v422(f, "must be a boolean"), f);
    o[f] = "true";
    assert.equal(fail(o), v422(f, "must be a boolean"), f);
  }
  assert.is(ok({ rotate: true }).rotate, true);
  assert.is(ok({ panelSerpentine: false }).panelSerpentine, false);
  const strings = ["wifiSsid", "wifiPass", "mqttHost", "mqttUser", "mqttPass", "mqttPrefix", "haPrefix",
    "ntpServer", "tz", "tzName", "hostname", "authUser", "authPass", "buttonCallback",
    "ip", "gateway", "subnet", "dns1", "dns2", "mqttTlsPin"];
  for (const f of strings) {
    const o: { [k: string]: unknown } = {};
    o[f] = 5;
    assert.equal(fail(o), v422(f, "must be a string"), f);
    o[f] = null;
    assert.equal(fail(o), v422(f, "must be a string"), f);
  }
  // Free strings are stored as sent, and can be blanked.
  const r = ok({ tz: "not a zone", hostname: "kitchen-clock", buttonCallback: "http://x/y", ntpServer: "" });
  assert.equal([r.tz, r.hostname, r.buttonCallback, r.ntpServer], ["not a zone", "kitchen-clock", "http://x/y", ""]);
  assert.is(ok({ mqttHost: "" }, base(esp32, { mqttHost: "b", mqttEnabled: true })).mqttHost, "");
  assert.is(ok({ authUser: "" }, base(esp32, { authUser: "u", authPass: "p", authEnabled: true })).authUser, "");
});

test("enums: case-insensitive, stored canonically", () => {
  assert.is(ok({ panelStart: "BOTTOMRIGHT" }).panelStart, "bottomRight");
  assert.is(ok({ panelStart: "topright" }).panelStart, "topRight");
  assert.is(ok({ panelWiring: "Columns" }).panelWiring, "columns");
  assert.is(ok({ panelColorOrder: "RGB" }).panelColorOrder, "rgb");
  assert.equal(fail({ panelStart: "middle" }), v422("panelStart", "must be one of: topLeft, topRight, bottomLeft, bottomRight"));
  assert.equal(fail({ panelStart: 1 }), v422("panelStart", "must be one of: topLeft, topRight, bottomLeft, bottomRight"));
  assert.equal(fail({ panelWiring: "diagonal" }), v422("panelWiring", "must be one of: rows, columns"));
  assert.equal(fail({ panelColorOrder: "rgbw" }), v422("panelColorOrder", "must be one of: rgb, rbg, grb, gbr, brg, bgr"));
});

test("pin fields: -1 or 0..max of the chip (422)", () => {
  assert.equal(fail({ pinLdr: 40 }), v422("pinLdr", "must be -1 (disabled) or a GPIO in 0..39"));
  assert.equal(fail({ pinLdr: -2 }), v422("pinLdr", "must be -1 (disabled) or a GPIO in 0..39"));
  assert.equal(fail({ pinBuzzer: 49 }, undefined, esp32s3), v422("pinBuzzer", "must be -1 (disabled) or a GPIO in 0..48"));
  assert.equal(fail({ pinBuzzer: 1.5 }), v422("pinBuzzer", "must be an integer"));
  assert.equal(fail({ pinBuzzer: "15" }), v422("pinBuzzer", "must be an integer"));
  assert.equal(fail({ pinMatrix: true }), v422("pinMatrix", "must be an integer"));
  // 40 passes the S3 range check; 23 is in range but not bonded out: the pin map answers.
  assert.is(ok({ pinBuzzer: 40 }, undefined, esp32s3).pinBuzzer, 40);
  assert.equal(fail({ pinBuzzer: 23 }, undefined, esp32s3),
    [400, "invalidPinConfig", undefined, "pinBuzzer: not a valid ESP32-S3 GPIO (0-48 except 22-25, or -1 = disabled)"]);
  assert.is(ok({ pinBuzzer: -1 }).pinBuzzer, -1);
});

test("IP fields: dotted quad or empty", () => {
  const r = ok({ gateway: "192.168.1.1", dns1: "1.1.1.1", dns2: "", subnet: "255.255.255.0" });
  assert.equal([r.gateway, r.dns1, r.dns2, r.subnet], ["192.168.1.1", "1.1.1.1", "", "255.255.255.0"]);
  for (const f of ["gateway", "subnet", "dns1", "dns2"]) {
    for (const bad of ["1.2.3", "1.2.3.4.5", "256.1.1.1", "a.b.c.d", "1.2.3.4/24", " 1.2.3.4", "01.2.3.4", "1..2.3", "-1.2.3.4"]) {
      const o: { [k: string]: unknown } = {};
      o[f] = bad;
      assert.equal(fail(o), v422(f, IP_MSG), f + " " + bad);
    }
  }
  assert.is(ok({ ip: "10.0.0.5" }).ip, "10.0.0.5");
  assert.is(ok({ ip: "" }, base(esp32, { ip: "10.0.0.5" })).ip, "");
  for (const bad of ["10.0.0", "10.0.0.300", "10.0.0.5/33", "10.0.0.5/", "10.0.0.5/2a", "10.0.0.5/24/1", "/24", "10.0.0.5/08"]) {
    assert.equal(fail({ ip: bad }), v422("ip", CIDR_MSG), bad);
  }
  assert.ok(isDottedQuad("0.0.0.0"));
  assert.ok(isDottedQuad("255.255.255.255"));
  assert.not.ok(isDottedQuad("1.2.3.04"));
});

test("CIDR suffix on ip is split into ip + mask", () => {
  let r = ok({ ip: "192.168.1.50/24" });
  assert.equal([r.ip, r.subnet], ["192.168.1.50", "255.255.255.0"]);
  r = ok({ ip: "10.1.2.3/0" });
  assert.equal([r.ip, r.subnet], ["10.1.2.3", "0.0.0.0"]);
  r = ok({ ip: "10.1.2.3/32" });
  assert.equal([r.ip, r.subnet], ["10.1.2.3", "255.255.255.255"]);
  r = ok({ ip: "172.16.0.9/20" }, base(esp32, { subnet: "255.0.0.0" }));
  assert.equal([r.ip, r.subnet], ["172.16.0.9", "255.255.240.0"]);
  assert.is(prefixToMask(25), "255.255.255.128");
  assert.is(prefixToMask(1), "128.0.0.0");
  assert.is(prefixToMask(9), "255.128.0.0");
  // An empty subnet next to a prefix is no conflict; the prefix names the mask.
  r = ok({ subnet: "", ip: "10.0.0.2/8" });
  assert.is(r.subnet, "255.0.0.0");
  r = ok({ ip: "10.0.0.2/8", subnet: "" });
  assert.is(r.subnet, "255.0.0.0");
});

test("CIDR suffix plus a non-empty subnet in the same request: 422 on subnet", () => {
  const msg = 'the /prefix on "ip" already names the mask; send one or the other';
  assert.equal(fail({ ip: "192.168.1.50/24", subnet: "255.255.255.0" }), v422("subnet", msg));
  assert.equal(fail({ subnet: "255.255.0.0", ip: "192.168.1.50/16" }), v422("subnet", msg));
  // A stored subnet is no conflict: it is replaced.
  assert.is(ok({ ip: "1.2.3.4/16" }, base(esp32, { subnet: "255.255.255.0" })).subnet, "255.255.0.0");
});

test("static addressing needs a mask in the merged config", () => {
  const msg = 'a static IP needs a mask; give it as /24 on "ip" or set "subnet"';
  assert.equal(fail({ netStatic: true, ip: "192.168.1.50" }), v422("subnet", msg));
  assert.equal(fail({ netStatic: true }, base(esp32, { ip: "192.168.1.50" })), v422("subnet", msg));
  assert.equal(fail({ ip: "192.168.1.50" }, base(esp32, { netStatic: true })), v422("subnet", msg));
  assert.equal(fail({ subnet: "" }, base(esp32, { netStatic: true, ip: "1.2.3.4", subnet: "255.0.0.0" })), v422("subnet", msg));
  let r = ok({ netStatic: true, ip: "192.168.1.50/24", gateway: "192.168.1.1" });
  assert.equal([r.netStatic, r.ip, r.subnet, r.gateway], [true, "192.168.1.50", "255.255.255.0", "192.168.1.1"]);
  r = ok({ netStatic: true, ip: "192.168.1.50", subnet: "255.255.255.0" });
  assert.is(r.subnet, "255.255.255.0");
  // netStatic with an empty ip stays on DHCP and needs nothing.
  assert.is(ok({ netStatic: true }).netStatic, true);
  // Without netStatic an ip alone is fine.
  assert.is(ok({ ip: "192.168.1.50" }).ip, "192.168.1.50");
});

test("mqttTlsPin: 64 lowercase hex digits or empty", () => {
  const msg = 'must be 64 lowercase hex digits (the SHA-256 of the broker certificate), or "" for none';
  const good = "0123456789abcdef".repeat(4);
  assert.is(ok({ mqttTlsPin: good }).mqttTlsPin, good);
  assert.is(ok({ mqttTlsPin: "" }, base(esp32, { mqttTlsPin: good })).mqttTlsPin, "");
  assert.equal(fail({ mqttTlsPin: good.toUpperCase() }), v422("mqttTlsPin", msg));
  assert.equal(fail({ mqttTlsPin: good.substr(1) }), v422("mqttTlsPin", msg));
  assert.equal(fail({ mqttTlsPin: good + "0" }), v422("mqttTlsPin", msg));
  assert.equal(fail({ mqttTlsPin: good.substr(1) + "g" }), v422("mqttTlsPin", msg));
  assert.is(ok({ mqttTls: true }).mqttTls, true);
});

test("wifiSsid cannot be blanked", () => {
  const msg = "an empty string is not a clear; use POST /api/v1/device/factory-reset instead";
  assert.equal(fail({ wifiSsid: "" }), v422("wifiSsid", msg));
  assert.equal(fail({ wifiSsid: "" }, base(esp32, { wifiSsid: "" })), v422("wifiSsid", msg));
  assert.is(ok({ wifiSsid: "other" }).wifiSsid, "other");
});

test("secrets: empty is ignored, can be set and changed", () => {
  const cur = base(esp32, { wifiPass: "w1", mqttPass: "m1", authPass: "a1" });
  let r = ok({ wifiPass: "", mqttPass: "", authPass: "" }, cur);
  assert.equal([r.wifiPass, r.mqttPass, r.authPass], ["w1", "m1", "a1"]);
  r = ok({ wifiPass: "w2", mqttPass: "m2", authPass: "a2" }, cur);
  assert.equal([r.wifiPass, r.mqttPass, r.authPass], ["w2", "m2", "a2"]);
});

test("gates: mqttEnabled needs mqttHost", () => {
  const msg = "set a broker host before enabling MQTT";
  assert.equal(fail({ mqttEnabled: true }), v422("mqttHost", msg));
  assert.equal(fail({ mqttEnabled: true, mqttHost: "" }, base(esp32, { mqttHost: "b" })), v422("mqttHost", msg));
  assert.is(ok({ mqttEnabled: true, mqttHost: "broker" }).mqttEnabled, true);
  assert.is(ok({ mqttEnabled: true }, base(esp32, { mqttHost: "b" })).mqttEnabled, true);
  // Turning it off keeps the host.
  const r = ok({ mqttEnabled: false }, base(esp32, { mqttHost: "b", mqttEnabled: true }));
  assert.equal([r.mqttEnabled, r.mqttHost], [false, "b"]);
});

test("gates: authEnabled needs authUser and authPass", () => {
  const msg = "set a username and password before requiring login";
  assert.equal(fail({ authEnabled: true }), v422("authUser", msg));
  assert.equal(fail({ authEnabled: true, authUser: "admin" }), v422("authUser", msg));
  assert.equal(fail({ authEnabled: true, authPass: "pw" }), v422("authUser", msg));
  // An empty password in the request keeps the stored one, and the stored one is empty.
  assert.equal(fail({ authEnabled: true, authUser: "admin", authPass: "" }), v422("authUser", msg));
  let r = ok({ authEnabled: true, authUser: "admin", authPass: "hunter2" });
  assert.equal([r.authEnabled, r.authUser, r.authPass], [true, "admin", "hunter2"]);
  r = ok({ authEnabled: true, authPass: "" }, base(esp32, { authUser: "u", authPass: "p" }));
  assert.equal([r.authEnabled, r.authPass], [true, "p"]);
  r = ok({ authEnabled: false }, base(esp32, { authUser: "u", authPass: "p", authEnabled: true }));
  assert.equal([r.authEnabled, r.authUser, r.authPass], [false, "u", "p"]);
});

test("panel width x panels must come to 32-128", () => {
  const msg = "panelWidth x panels must come to between 32 and 128 pixels";
  assert.equal(fail({ panels: 5 }), v422("panelWidth", msg));
  assert.equal(fail({ panelWidth: 8 }), v422("panelWidth", msg));
  assert.equal(fail({ panels: 2 }, base(esp32, { panelWidth: 128 })), v422("panelWidth", msg));
  let r = ok({ panelWidth: 8, panels: 4 });
  assert.equal([r.panelWidth, r.panels], [8, 4]);
  r = ok({ panelWidth: 64, panels: 2 });
  assert.equal([r.panelWidth, r.panels], [64, 2]);
  assert.is(ok({ panelWidth: 128 }).panelWidth, 128);
});

test("minBrightness must not exceed maxBrightness (merged)", () => {
  const msg = "must not be greater than maxBrightness";
  assert.equal(fail({ minBrightness: 221 }), v422("minBrightness", msg));
  assert.equal(fail({ maxBrightness: 9 }), v422("minBrightness", msg));
  assert.equal(fail({ minBrightness: 100, maxBrightness: 50 }), v422("minBrightness", msg));
  const r = ok({ minBrightness: 120, maxBrightness: 120 });
  assert.equal([r.minBrightness, r.maxBrightness], [120, 120]);
});

test("I2S pins work as a set (merged map)", () => {
  const msg = "the I2S pins work as a set: give all three, or -1 for all three";
  assert.equal(fail({ pinI2sBclk: 4 }), v422("pinI2sLrclk", msg));
  assert.equal(fail({ pinI2sBclk: 4, pinI2sLrclk: 5 }), v422("pinI2sDout", msg));
  assert.equal(fail({ pinI2sLrclk: -1 }, undefined, esp32s3), v422("pinI2sLrclk", msg));
  assert.equal(fail({ pinI2sMclk: 0 }), v422("pinI2sMclk", "needs the three I2S pins (pinI2sBclk, pinI2sLrclk, pinI2sDout) set"));
  assert.equal(fail({ pinAmpEnable: 0 }), v422("pinAmpEnable", "needs the three I2S pins (pinI2sBclk, pinI2sLrclk, pinI2sDout) set"));
  let r = ok({ pinI2sBclk: 4, pinI2sLrclk: 5, pinI2sDout: 13, pinI2sMclk: 0, pinAmpEnable: 2 });
  assert.equal([r.pinI2sBclk, r.pinI2sLrclk, r.pinI2sDout, r.pinI2sMclk, r.pinAmpEnable], [4, 5, 13, 0, 2]);
  r = ok({ pinI2sBclk: -1, pinI2sLrclk: -1, pinI2sDout: -1 }, undefined, esp32s3);
  assert.is(r.pinI2sBclk, -1);
  r = ok({ pinAmpEnable: 3 }, undefined, esp32s3);
  assert.is(r.pinAmpEnable, 3);
});

test("merged pin map: 400 invalidPinConfig without field", () => {
  assert.equal(fail({ pinBattery: 25 }),
    [400, "invalidPinConfig", undefined, "pinBattery: must be an ADC1 pin (GPIO 32-39, usable while WiFi is on)"]);
  assert.equal(fail({ pinBuzzer: 34 }), [400, "invalidPinConfig", undefined, "pinBuzzer: GPIO 34-39 are input-only"]);
  assert.equal(fail({ pinMatrix: 21 }), [400, "invalidPinConfig", undefined,
    "duplicate pin 21 (pinMatrix, pinI2cSda) - the matrix pin cannot be shared; move pinI2cSda to another GPIO in the same request"]);
  // Moving both in one request works (the AWTRIX 2 style map).
  const r = ok({
    pinMatrix: 21, pinBtnLeft: 26, pinBtnSelect: 16, pinBtnRight: 5, pinBattery: -1, pinLdr: 36,
    pinBuzzer: -1, pinI2cSda: 17, pinI2cScl: 22, pinModuleRx: 23, pinModuleTx: 18, modulePlayer: true,
  });
  assert.equal([r.pinMatrix, r.pinI2cSda, r.modulePlayer], [21, 17, true]);
  // ESP32-S3 messages.
  assert.equal(fail({ pinBtnLeft: 30 }, undefined, esp32s3),
    [400, "invalidPinConfig", undefined, "pinBtnLeft: GPIO 26-37 are reserved for the SPI flash and PSRAM"]);
  assert.equal(fail({ pinMatrix: 32 }, undefined, esp32s3), [400, "invalidPinConfig", undefined,
    "pinMatrix: unsupported pin (compiled drivers: 13,14,15,16,17,18,21,38,39,40,41,42,47)"]);
  // Not ADC1 and a duplicate: ADC1 is checked first.
  assert.equal(fail({ pinLdr: 12 }, undefined, esp32s3),
    [400, "invalidPinConfig", undefined, "pinLdr: must be an ADC1 pin (GPIO 1-10, usable while WiFi is on)"]);
  // modulePlayer does not gate validation of the module pins.
  assert.equal(fail({ pinModuleTx: 36, modulePlayer: false }), [400, "invalidPinConfig", undefined, "pinModuleTx: GPIO 34-39 are input-only"]);
});

test("order: per-key checks follow the body's key order", () => {
  assert.equal(fail({ webPort: 70000, mqttPort: 0 }), v422("webPort", "out of range"));
  assert.equal(fail({ mqttPort: 0, webPort: 70000 }), v422("mqttPort", "out of range"));
  assert.equal(fail({ pinLdr: 99, rotate: "yes" }), v422("pinLdr", "must be -1 (disabled) or a GPIO in 0..39"));
  assert.equal(fail({ rotate: "yes", pinLdr: 99 }), v422("rotate", "must be a boolean"));
  assert.equal(fail({ ip: "x", wifiSsid: "" })[2], "ip");
  assert.equal(fail({ wifiSsid: "", ip: "x" })[2], "wifiSsid");
});

test("order: per-key checks before cross-field rules before the pin map", () => {
  // A later bad value beats an earlier key that breaks a cross-field rule.
  assert.equal(fail({ mqttEnabled: true, webPort: -5 }), v422("webPort", "out of range"));
  assert.equal(fail({ panels: 5, tempOffset: 30 }), v422("tempOffset", "out of range"));
  // Cross-field rules beat the pin map.
  assert.equal(fail({ pinMatrix: 21, minBrightness: 250 })[2], "minBrightness");
  assert.equal(fail({ pinBuzzer: 34, pinI2sBclk: 4 }), v422("pinI2sLrclk",
    "the I2S pins work as a set: give all three, or -1 for all three"));
  // Range check of a pin (422) beats the pin map (400).
  assert.equal(fail({ pinMatrix: 21, pinLdr: 40 }), v422("pinLdr", "must be -1 (disabled) or a GPIO in 0..39"));
  // Cross-field order: prefix/subnet, static mask, MQTT gate, login gate, panel width, brightness, I2S.
  assert.equal(fail({ ip: "1.2.3.4/8", subnet: "255.0.0.0", mqttEnabled: true })[2], "subnet");
  assert.equal(fail({ netStatic: true, ip: "1.2.3.4", mqttEnabled: true })[2], "subnet");
  assert.equal(fail({ mqttEnabled: true, authEnabled: true })[2], "mqttHost");
  assert.equal(fail({ panels: 5, authEnabled: true })[2], "authUser");
  assert.equal(fail({ minBrightness: 250, panels: 5 })[2], "panelWidth");
  assert.equal(fail({ pinI2sBclk: 4, minBrightness: 250 })[2], "minBrightness");
});

test.run();
