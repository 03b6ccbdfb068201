// Where the sensor apps get their readings: one function per reading over the device runtime,
// calibrated the way GET /api/v1/device reports it, so the apps never touch the samplers or the
// bus themselves. Each reading app's module hands its page the one it shows, so a page carries
// no other reading's code. Whether the hardware is fitted is the rule of ../present.ts,
// which needs no page. `cal` is called on every reading, so it should return
// the held system config, not build an object.
import type { Runtime } from "../../device/runtime";
import { adcToMillivolts, batteryPercent, cellVoltage } from "../../device/battery";

/** The system configuration keys the readings are calibrated with. */
export interface SensorCalibration {
  tempOffset: number;
  humOffset: number;
  batteryDividerRatio: number;
}

/** Degrees C with tempOffset applied, as the device state reports it; null before a reading. */
export function temperatureC(rt: Runtime, cal: () => SensorCalibration): number | null {
  return rt.env && rt.env.valid ? rt.env.t + cal().tempOffset : null;
}

/** % RH with humOffset applied, 0-100; null before a reading or without a humidity sensor. */
export function relativeHumidity(rt: Runtime, cal: () => SensorCalibration): number | null {
  const env = rt.env;
  if (!env || !env.valid || !env.sensor.humidity) return null;
  const h = env.h + cal().humOffset;
  return h < 0 ? 0 : h > 100 ? 100 : h;
}

/** State of charge 0-100; null before a reading. */
export function batteryLevel(rt: Runtime, cal: () => SensorCalibration): number | null {
  const b = rt.battery;
  if (!b || b.size() === 0) return null;
  return batteryPercent(cellVoltage(adcToMillivolts(b.median()), cal().batteryDividerRatio));
}
