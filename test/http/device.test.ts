// GET /api/v1/device, /capabilities and /system through HTTP, with the simulated hardware.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTarget, call, type Target } from "./target";
import { SIM_ENVIRONMENT } from "../harness/wiring";

const t = suite("device and system");
let dut: Target;

t.before(async () => { dut = await startTarget(); });
t.after(async () => { await dut.stop(); });

const ALWAYS = ["version", "uid", "boardType", "soc", "updateImage", "ipAddress", "macAddress", "hostname",
  "wifiRssi", "uptimeSeconds", "resetReason", "freeHeapBytes", "minFreeHeapBytes", "scriptingRunning",
  "scriptHeapPool", "scriptHeapBudgetBytes", "fps", "brightness", "matrixPower", "currentApp", "indicators",
  "messageCount", "wifi", "mqtt"];
const STATUS_KEYS = ["enabled", "state", "host", "endpoint", "attempts", "retryInMs", "connects", "error", "lastError"];

async function waitForSensors(): Promise<any> {
  for (let i = 0; i < 40; i++) {
    const d = (await call(dut, "GET", "/api/v1/device")).body;
    if ("temperature" in d) return d;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("no sensor reading arrived");
}

t("GET /api/v1/device has every always-present key with live values", async () => {
  const r = await call(dut, "GET", "/api/v1/device");
  assert.is(r.status, 200);
  const d = r.body;
  for (const k of ALWAYS) assert.ok(k in d, k);
  assert.is(d.version, (await call(dut, "GET", "/api/v1/version")).body.version);
  assert.match(d.uid, /^[0-9a-f]{12}$/);
  assert.is(d.macAddress, d.uid.match(/../g).join(":").toUpperCase());
  assert.is(d.boardType, "pixloop");
  assert.is(d.soc, "esp32");
  assert.is(d.updateImage, "pixloop-esp32.bin");
  assert.is(d.hostname, "pixloop-" + d.uid.slice(6));
  assert.is(d.ipAddress, "127.0.0.1");
  assert.ok(Number.isInteger(d.wifiRssi) && d.wifiRssi < 0);
  assert.ok(d.freeHeapBytes > 0 && d.minFreeHeapBytes <= d.freeHeapBytes);
  assert.not.ok("largestFreeBlockBytes" in d, "Espruino has no separate heap");
  assert.is(d.indicators.length, 3);
  for (const ind of d.indicators) assert.equal(ind, { on: false, color: "#000000", blinkMs: 0, fadeMs: 0 });
  assert.equal(Object.keys(d.wifi), STATUS_KEYS);
  assert.equal(Object.keys(d.mqtt), STATUS_KEYS);
  assert.is(d.wifi.state, "connected");
  assert.is(d.wifi.host, "pixloop-sim");
  assert.is(d.mqtt.enabled, false);
  assert.not.ok("psramTotalBytes" in d || "psramFreeBytes" in d, "a plain ESP32 has no PSRAM");
});

t("the fitted parts show up: light sensor, battery, BME280 with the calibration offsets", async () => {
  // The Linux interpreter has no ADC or I2C parts to read.
  if (!dut.sim) return;
  const d = await waitForSensors();
  assert.is(d.ldrRaw, 1200);
  assert.is(d.lightLevel, Math.round((1200 / 4095) * 1000) / 10);
  // 2850 counts of 4096 at 3.3 V full scale, median of the last readings.
  assert.ok(Math.abs(d.batteryPinMillivolts - 2296) <= 1, String(d.batteryPinMillivolts));
  assert.is(d.batteryVoltage, Math.round(d.batteryPinMillivolts / 1000 * 1.79 * 100) / 100);
  assert.ok(d.batteryPercent > 90 && d.batteryPercent <= 100);
  assert.is(d.lowBattery, false);
  // tempOffset defaults to -9.0
  assert.is(d.temperature, Math.round((SIM_ENVIRONMENT.temperature - 9) * 10) / 10);
  assert.is(d.humidity, SIM_ENVIRONMENT.humidity);
  assert.is(d.pressureHpa, SIM_ENVIRONMENT.pressureHpa);
  assert.is((await call(dut, "PUT", "/api/v1/system", { body: { lowBatteryThreshold: 100, batteryDividerRatio: 1.5 } })).status, 200);
  const after = (await call(dut, "GET", "/api/v1/device")).body;
  assert.is(after.batteryVoltage, Math.round(after.batteryPinMillivolts / 1000 * 1.5 * 100) / 100);
  assert.is(after.lowBattery, true);
});

t("parts whose pins are -1 disappear from device state after a reboot", async () => {
  const put = await call(dut, "PUT", "/api/v1/system", { body: { pinBattery: -1, pinLdr: -1, pinI2cSda: -1 } });
  assert.is(put.status, 200, put.text);
  const booted = dut.nextBoot();
  await call(dut, "POST", "/api/v1/device/reboot");
  await booted;
  await dut.waitForServer();
  await new Promise((r) => setTimeout(r, 300));
  const d = (await call(dut, "GET", "/api/v1/device")).body;
  for (const k of ["lightLevel", "ldrRaw", "batteryPinMillivolts", "batteryVoltage", "batteryPercent", "lowBattery",
    "temperature", "humidity", "pressureHpa"]) {
    assert.not.ok(k in d, k);
  }
});

t("GET /api/v1/capabilities lists the names in order and the chip's gpio rules", async () => {
  const c = (await call(dut, "GET", "/api/v1/capabilities")).body;
  assert.equal(Object.keys(c).slice(0, 5), ["effects", "transitions", "overlays", "palettes", "audio"]);
  assert.is(c.effects.length, 19);
  assert.equal([...c.effects].sort(), c.effects);
  assert.is(c.transitions.length, 22);
  assert.is(c.transitions[0], "Random");
  assert.is(c.transitions[21], "Interlace");
  assert.equal(c.overlays, ["drizzle", "frost", "rain", "snow", "storm", "thunder"]);
  assert.equal(c.palettes, ["Cloud", "Lava", "Ocean", "Forest", "Stripe", "Party", "Heat", "Rainbow"]);
  assert.equal(c.audio, { buzzer: true, track: false, mp3: false, radio: false });
  assert.is(c.gpio.soc, "esp32");
  assert.is(c.gpio.max, 39);
  assert.equal(c.gpio.inputOnly, [[34, 39]]);
  assert.equal(c.gpio.reserved, [{ lo: 6, hi: 11, why: "the SPI flash" }]);
  assert.equal(c.gpio.matrix, [2, 4, 5, 13, 14, 15, 16, 18, 21, 25, 26, 27, 32, 33]);
  assert.is(c.gpio.defaults.pinMatrix, 32);
});

t("GET /api/v1/system: 67 keys without secrets, 70 with, defaults from the table", async () => {
  const plain = (await call(dut, "GET", "/api/v1/system")).body;
  const all = (await call(dut, "GET", "/api/v1/system?secrets=1")).body;
  assert.is(Object.keys(all).length, 70);
  assert.is(Object.keys(plain).length, 67);
  assert.is(plain.tz, "CET-1CEST,M3.5.0,M10.5.0/3");
  assert.is(plain.mqttPort, 1883);
  assert.is(plain.wifiConnectTimeout, 15000);
  assert.is(plain.panelStart, "topLeft");
});

t("PUT /api/v1/system: a bad value is 422 with its field, a bad pin map 400, nothing saved", async () => {
  const before = (await call(dut, "GET", "/api/v1/system")).body;
  const r = await call(dut, "PUT", "/api/v1/system", { body: { hostname: "changed", webPort: 70000 } });
  assert.is(r.status, 422);
  assert.equal(r.body, { error: { code: "validationFailed", message: "out of range", field: "webPort" } });
  const pins = await call(dut, "PUT", "/api/v1/system", { body: { hostname: "changed", pinBuzzer: 34 } });
  assert.is(pins.status, 400);
  assert.equal(pins.body, { error: { code: "invalidPinConfig", message: "pinBuzzer: GPIO 34-39 are input-only" } });
  assert.equal((await call(dut, "GET", "/api/v1/system")).body, before);
});

t.run();
