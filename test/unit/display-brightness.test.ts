import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  BrightnessControl, autoBrightnessTarget, type BrightnessConfig, type BrightnessSettings,
} from "../../firmware/display/brightness";

const NO_SENSOR = -1;

function setup(cfg: Partial<BrightnessConfig>, s: Partial<BrightnessSettings>) {
  const config: BrightnessConfig = Object.assign({
    minBrightness: 10, maxBrightness: 220, ldrFactor: 1, ldrGamma: 2.2, ldrOnGround: false, brightnessSmoothing: 10000,
  }, cfg);
  const settings: BrightnessSettings = Object.assign({ brightness: 120, autoBrightness: false }, s);
  return { config, settings, control: new BrightnessControl(() => config, () => settings) };
}

test("manual: settings.brightness, changes apply at once", () => {
  const { settings, control } = setup({}, {});
  assert.is(control.update(0, 2000), 120);
  settings.brightness = 30;
  assert.is(control.update(25, 2000), 30, "no smoothing for a manual level");
  settings.brightness = 0;
  assert.is(control.update(50, 2000), 0);
  settings.brightness = 300;
  assert.is(control.update(75, 2000), 255, "clamped");
});

test("autoBrightness without a light sensor keeps the manual level", () => {
  const { control } = setup({}, { autoBrightness: true, brightness: 77 });
  assert.is(control.update(0, NO_SENSOR), 77);
  assert.is(control.update(60000, NO_SENSOR), 77);
});

test("auto: light level shaped by ldrGamma, mapped into min..max", () => {
  const { config, control } = setup({ brightnessSmoothing: 0 }, { autoBrightness: true });
  assert.is(control.update(0, 0), 10, "dark: minBrightness");
  assert.is(control.update(25, 4095), 220, "full light: maxBrightness");
  assert.is(control.update(50, 2048), 56, "50 % light: 10 + 210 x 0.5^2.2");
  config.ldrGamma = 1;
  assert.is(control.update(75, 2048), 115, "gamma 1: linear");
  config.ldrGamma = 2.2;
  config.ldrFactor = 2;
  assert.is(control.update(100, 1024), 56, "ldrFactor 2: 1024 reads as 50 %");
  config.ldrFactor = 1;
  config.ldrOnGround = true;
  assert.is(control.update(125, 0), 220, "sensor to ground: a low reading is bright");
  config.minBrightness = 40;
  config.maxBrightness = 40;
  assert.is(control.update(150, 1000), 40);
});

test("auto target function", () => {
  const cfg: BrightnessConfig = {
    minBrightness: 10, maxBrightness: 220, ldrFactor: 1, ldrGamma: 2.2, ldrOnGround: false, brightnessSmoothing: 0,
  };
  assert.ok(Math.abs(autoBrightnessTarget(cfg, 1200) - 24.1) < 0.1, "1200 reads as 29.3 %");
  assert.is(autoBrightnessTarget(cfg, 9999), 220);
  assert.is(autoBrightnessTarget(cfg, -5), 10);
});

test("smoothing: exponential approach with brightnessSmoothing as time constant", () => {
  const { control } = setup({ brightnessSmoothing: 10000 }, { autoBrightness: true });
  assert.is(control.update(1000, 0), 10, "the first auto reading is taken as it is");
  assert.is(control.update(3500, 4095), 56, "after a quarter time constant: 220 - 210 e^-0.25");
  assert.is(control.update(11000, 4095), 143, "after one: 220 - 210 e^-1");
  assert.is(control.update(101000, 4095), 220, "settled");
});

test("smoothing does not depend on the frame rate", () => {
  const slow = setup({ brightnessSmoothing: 10000 }, { autoBrightness: true }).control;
  const fast = setup({ brightnessSmoothing: 10000 }, { autoBrightness: true }).control;
  slow.update(1000, 0);
  fast.update(1000, 0);
  let last = 0;
  for (let t = 1025; t <= 11000; t += 25) last = fast.update(t, 4095);
  assert.is(slow.update(11000, 4095), 143);
  assert.is(last, 143);
});

test("smoothing follows light going down as well", () => {
  const { control } = setup({ brightnessSmoothing: 2000 }, { autoBrightness: true });
  assert.is(control.update(0, 4095), 220);
  assert.is(control.update(2000, 0), 87, "10 + 210 e^-1");
});

test("a clock that steps back holds the level", () => {
  const { control } = setup({ brightnessSmoothing: 10000 }, { autoBrightness: true });
  control.update(50000, 0);
  assert.is(control.update(40000, 4095), 10);
  assert.is(control.update(50000, 4095), 143, "measured from the last update");
});

test("switching to auto starts at the target; back to manual is instant", () => {
  const { settings, control } = setup({ brightnessSmoothing: 10000 }, { autoBrightness: false, brightness: 200 });
  assert.is(control.update(0, 4095), 200);
  settings.autoBrightness = true;
  assert.is(control.update(25, 0), 10, "no glide from the manual level");
  settings.autoBrightness = false;
  assert.is(control.update(50, 0), 200);
  settings.autoBrightness = true;
  assert.is(control.update(75, 4095), 220, "starts over at the target");
});

test.run();
