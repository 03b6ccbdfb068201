import { test } from "uvu";
import * as assert from "uvu/assert";
import { AdcSampler } from "../../firmware/device/adc";
import {
  adcToMillivolts, batteryPercent, cellVoltage, isLowBattery,
} from "../../firmware/device/battery";

test("median of the last five readings", () => {
  const m = new AdcSampler(34);
  assert.is(m.median(), 0, "empty");
  m.push(7);
  assert.is(m.median(), 7);
  [5, 1, 4, 2].forEach((v) => m.push(v)); // 7 5 1 4 2
  assert.is(m.median(), 4);
  m.push(3); // the 7 drops out: 5 1 4 2 3
  assert.is(m.size(), 5);
  assert.is(m.median(), 3);
  m.push(3000); // a spike does not move the median much: 1 4 2 3 3000
  assert.is(m.median(), 3);
});

/** A sampler holding `values`, in that order. */
function holding(values: number[]): AdcSampler {
  const m = new AdcSampler(34);
  values.forEach((v) => m.push(v));
  return m;
}

test("median: ties, and the upper middle of an even count", () => {
  assert.is(holding([2, 2, 9, 2, 9]).median(), 2, "ties");
  assert.is(holding([9, 2, 9, 9, 2]).median(), 9, "ties");
  assert.is(holding([1, 8]).median(), 8, "even count takes the upper middle");
  assert.is(holding([8, 1, 5, 3]).median(), 5, "even count takes the upper middle");
});

test("ADC counts to millivolts at the pin (3300 mV full scale)", () => {
  assert.is(adcToMillivolts(0), 0);
  assert.is(adcToMillivolts(4095), 3300);
  assert.is(adcToMillivolts(5000), 3300);
  assert.is(adcToMillivolts(-3), 0);
  assert.is(adcToMillivolts(2912), 2347); // a full cell on a stock divider
});

test("cell voltage: two decimals, ratio fallback 1.79", () => {
  assert.is(cellVoltage(2347, 1.79), 4.2);
  assert.is(cellVoltage(2347, 0), 4.2, "0 falls back to 1.79");
  assert.is(cellVoltage(2347, -2), 4.2, "negative falls back to 1.79");
  assert.is(cellVoltage(2000, 2), 4);
  assert.is(cellVoltage(1234, 1.5), 1.85);
});

test("percent from the discharge curve: ends and blends", () => {
  assert.is(batteryPercent(4.2), 100);
  assert.is(batteryPercent(4.35), 100);
  assert.is(batteryPercent(3.27), 0);
  assert.is(batteryPercent(3.1), 0);
  assert.is(batteryPercent(NaN), 0);
  assert.is(batteryPercent(4.15), 95, "half way between 4.10 V (90) and 4.20 V (100)");
  assert.is(batteryPercent(3.845), 55, "half way between 3.82 V (50) and 3.87 V (60)");
  assert.is(batteryPercent(3.82), 50, "on a table point");
  let last = -1;
  for (let v = 3.2; v <= 4.3; v += 0.005) {
    const p = batteryPercent(v);
    assert.ok(p >= last && p >= 0 && p <= 100, "monotonic at " + v);
    last = p;
  }
});

test("low battery: below the threshold; threshold 0 is off", () => {
  assert.is(isLowBattery(0, 0), false);
  assert.is(isLowBattery(3, 0), false);
  assert.is(isLowBattery(9, 10), true);
  assert.is(isLowBattery(10, 10), false);
  assert.is(isLowBattery(100, 100), false);
});

test("battery sampler: median of the last five pin readings in mV", () => {
  const s = new AdcSampler(34);
  assert.is(s.pin, 34);
  assert.is(adcToMillivolts(s.median()), 0);
  [2912, 2912, 100, 2912, 4095].forEach((raw) => s.push(raw));
  assert.is(adcToMillivolts(s.median()), 2347);
});

test.run();
