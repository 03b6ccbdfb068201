// What the simulated clock shows reacts at once to settings, system config and its own hardware:
// settings and time zone changes, the buttons, the light sensor driving the brightness.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTarget, call, type Target } from "./target";
import { SIM_LIGHT_RAW } from "../harness/wiring";
import { autoBrightnessTarget } from "../../firmware/display/brightness";
import { chip as esp32 } from "../../boards/esp32";

const t = suite("the display reacts");
let dut: Target;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.before(async () => {
  dut = await startTarget();
  const r = await call(dut, "PATCH", "/api/v1/settings", { body: { transitionDurationMs: 0, autoTransition: false } });
  assert.is(r.status, 200, r.text);
});
t.after(async () => { await dut.stop(); });

async function pixels(): Promise<number[]> {
  await sleep(60);
  return (await call(dut, "GET", "/api/v1/display/screen")).body.pixels;
}

async function current(): Promise<string> {
  await sleep(60);
  return (await call(dut, "GET", "/api/v1/device")).body.currentApp;
}

const lit = (p: number[]) => p.filter((v) => v !== 0).length;

t("a settings change shows on the next frame", async () => {
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Time", fast: true } });
  await call(dut, "PATCH", "/api/v1/settings", { body: { timeMode: 0 } });
  const small = lit(await pixels());
  await call(dut, "PATCH", "/api/v1/settings", { body: { timeMode: 5 } });
  const big = await pixels();
  // The big clock punches black digits out of a field of the clock colour.
  assert.ok(lit(big) > 150 && lit(big) > small * 3, "lit pixels " + small + " then " + lit(big));
  assert.ok(big.every((p) => p === 0 || p === 0xffffff || (p & 0xffffff) === p));
  await call(dut, "PATCH", "/api/v1/settings", { body: { timeColor: "#00FF00" } });
  assert.ok((await pixels()).filter((p) => p === 0x00ff00).length > 150, "the field turns green");
  await call(dut, "PATCH", "/api/v1/settings", { body: { timeMode: 1, timeColor: null } });
});

t("a new time zone applies at once", async () => {
  await call(dut, "PATCH", "/api/v1/settings", { body: { timeMode: 0 } });
  assert.is((await call(dut, "PUT", "/api/v1/system", { body: { tz: "UTC0" } })).status, 200);
  const utc = await pixels();
  await call(dut, "PUT", "/api/v1/system", { body: { tz: "<+0530>-5:30" } });
  const india = await pixels();
  assert.is.not(india.join(), utc.join(), "the clock moved by five and a half hours");
  await call(dut, "PUT", "/api/v1/system", { body: { tz: "UTC0" } });
  const back = await pixels();
  // The minute may have turned meanwhile; the hours' digits (left of the colon) are back.
  assert.equal(back.slice(32, 32 + 14), utc.slice(32, 32 + 14));
});

t("the right and left buttons step through the loop; blockNavigation stops them", async () => {
  const sim = dut.sim;
  if (!sim) return;
  const pins = esp32.defaults;
  const press = async (pin: number) => {
    sim.device.setPin(pin, false);
    sim.device.setPin(pin, true);
    await sleep(20);
  };
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Time", fast: true } });
  await press(pins.pinBtnRight);
  assert.is(await current(), "Date");
  await press(pins.pinBtnLeft);
  await press(pins.pinBtnLeft);
  assert.is(await current(), "Battery");
  await call(dut, "PATCH", "/api/v1/settings", { body: { blockNavigation: true } });
  await press(pins.pinBtnRight);
  assert.is(await current(), "Battery");
  await call(dut, "PATCH", "/api/v1/settings", { body: { blockNavigation: false } });
  await press(pins.pinBtnRight);
  assert.is(await current(), "Time");
});

t("with swapButtons the right button steps back (after the reboot that applies it)", async () => {
  const sim = dut.sim;
  if (!sim) return;
  assert.is((await call(dut, "PUT", "/api/v1/system", { body: { swapButtons: true } })).status, 200);
  const booted = dut.nextBoot();
  await call(dut, "POST", "/api/v1/device/reboot");
  await booted;
  await dut.waitForServer();
  await call(dut, "PATCH", "/api/v1/settings", { body: { transitionDurationMs: 0 } });
  sim.device.setPin(esp32.defaults.pinBtnRight, false);
  sim.device.setPin(esp32.defaults.pinBtnRight, true);
  assert.is(await current(), "Battery");
  await call(dut, "PUT", "/api/v1/system", { body: { swapButtons: false } });
});

t("auto-brightness follows the light sensor between minBrightness and maxBrightness", async () => {
  const sim = dut.sim;
  if (!sim) return;
  const system = { brightnessSmoothing: 0, minBrightness: 20, maxBrightness: 200, ldrGamma: 1, ldrFactor: 1 };
  assert.is((await call(dut, "PUT", "/api/v1/system", { body: system })).status, 200);
  await call(dut, "PATCH", "/api/v1/settings", { body: { autoBrightness: true, brightness: 90 } });
  const cfg = Object.assign({}, system, { ldrOnGround: false });
  const expected = autoBrightnessTarget(cfg as Parameters<typeof autoBrightnessTarget>[0], SIM_LIGHT_RAW);
  await sleep(100);
  let d = (await call(dut, "GET", "/api/v1/device")).body;
  assert.is(d.brightness, Math.round(expected));
  assert.ok(d.brightness > 20 && d.brightness < 200, "" + d.brightness);
  // Full light: the next sample (every two seconds) takes it to the top.
  sim.device.hardware.adc.set(esp32.defaults.pinLdr, 4095);
  for (let i = 0; i < 30 && d.brightness !== 200; i++) {
    await sleep(150);
    d = (await call(dut, "GET", "/api/v1/device")).body;
  }
  assert.is(d.brightness, 200);
  assert.is((await call(dut, "GET", "/api/v1/display")).body.brightness, 200);
  await call(dut, "PATCH", "/api/v1/settings", { body: { autoBrightness: false } });
  await sleep(60);
  assert.is((await call(dut, "GET", "/api/v1/device")).body.brightness, 90);
  sim.device.hardware.adc.set(esp32.defaults.pinLdr, SIM_LIGHT_RAW);
});

t.run();

// ---------------------------------------------------------------------------------------------
const setup = suite("setup screen");

setup("a fresh clock shows how to reach it instead of the loop", async () => {
  const fresh = await startTarget({ setup: true });
  try {
    await sleep(300);
    const d = (await call(fresh, "GET", "/api/v1/device")).body;
    assert.is(d.wifi.state, "accessPoint");
    assert.is(d.currentApp, "Setup");
    const sim = fresh.sim;
    if (sim) {
      const frames = sim.device.frames;
      const lit = frames[frames.length - 1].data.filter((b) => b !== 0).length;
      assert.ok(lit > 20, "the text is on the LEDs: " + lit + " bytes lit");
    }
  } finally {
    await fresh.stop();
  }
});

setup.run();
