import { test } from "uvu";
import * as assert from "uvu/assert";
import { lightLevel } from "../../firmware/device/light";
import { AdcSampler } from "../../firmware/device/adc";

test("light level rises linearly with the reading", () => {
  assert.is(lightLevel(0, 1, false), 0);
  assert.is(lightLevel(4095, 1, false), 100);
  assert.is(lightLevel(1200, 1, false), 29.3);
  assert.is(lightLevel(2048, 1, false), 50);
  assert.is(lightLevel(1, 1, false), 0);
});

test("ldrFactor scales what counts as full light; 0 means 1.0", () => {
  assert.is(lightLevel(1200, 2, false), 58.6);
  assert.is(lightLevel(2048, 2, false), 100, "4095 / 2 and above is full light");
  assert.is(lightLevel(4000, 2, false), 100, "clamped");
  assert.is(lightLevel(1200, 0, false), 29.3);
  assert.is(lightLevel(1200, 0.5, false), 14.7);
});

test("ldrOnGround inverts the reading", () => {
  assert.is(lightLevel(4095, 1, true), 0);
  assert.is(lightLevel(0, 1, true), 100);
  assert.is(lightLevel(4095 - 1200, 1, true), 29.3);
});

test("out-of-range readings are clamped", () => {
  assert.is(lightLevel(-20, 1, false), 0);
  assert.is(lightLevel(9000, 1, false), 100);
});

test("light sampler: median raw reading", () => {
  const s = new AdcSampler(35);
  assert.is(s.median(), 0);
  [1200, 1210, 4095, 1190, 1205].forEach((r) => s.push(r));
  assert.is(s.median(), 1205);
  s.push(99999);
  assert.ok(s.median() <= 4095);
});

test.run();
