// Where the sensor apps get their readings: a narrow source the apps draw from, so they never
// touch the samplers or the bus themselves, and its implementation over the device runtime (made
// by each reading app's module when its page is loaded). Whether the hardware is fitted is the
// app's present() rule (module-app.ts), which needs no module.
import type { Runtime } from "../../device/runtime";
import { adcToMillivolts, batteryPercent, cellVoltage } from "../../device/battery";

export interface SensorSource {
  /** Degrees C with tempOffset applied, as the device state reports it; null before a reading. */
  temperatureC(): number | null;
  /** % RH with humOffset applied, 0-100; null before a reading. */
  humidity(): number | null;
  /** State of charge 0-100; null before a reading. */
  batteryPercent(): number | null;
}

/** The system configuration keys the readings are calibrated with. */
export interface SensorCalibration {
  tempOffset: number;
  humOffset: number;
  batteryDividerRatio: number;
}

/**
 * Readings from the runtime's samplers, calibrated the way GET /api/v1/device reports them. `cal`
 * is called on every reading, so it should return the held system config, not build an object.
 */
export function runtimeSensors(rt: Runtime, cal: () => SensorCalibration): SensorSource {
  return {
    temperatureC: () => (rt.env && rt.env.valid ? rt.env.t + cal().tempOffset : null),
    humidity: () => {
      const env = rt.env;
      if (!env || !env.valid || !env.sensor.humidity) return null;
      const h = env.h + cal().humOffset;
      return h < 0 ? 0 : h > 100 ? 100 : h;
    },
    batteryPercent: () => {
      const b = rt.battery;
      if (!b || b.size() === 0) return null;
      return batteryPercent(cellVoltage(adcToMillivolts(b.median()), cal().batteryDividerRatio));
    },
  };
}
