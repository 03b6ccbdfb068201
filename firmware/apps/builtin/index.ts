// The five built-in apps, in the loop's default order.
import type { LoopApp } from "../types";
import { DateApp } from "./date";
import { BATTERY, HUMIDITY, ReadingApp, TEMPERATURE } from "./readings";
import type { ReadingConfig } from "./readings";
import type { SensorSource } from "./sensors";
import { TimeApp } from "./time";

export type { ReadingConfig } from "./readings";
export type { SensorCalibration, SensorSource } from "./sensors";
export { runtimeSensors } from "./sensors";

/** Time, Date, Temperature, Humidity, Battery; the last three are present only with their hardware. */
export function createBuiltinApps(src: SensorSource, cfg: () => ReadingConfig): LoopApp[] {
  return [
    new TimeApp(),
    new DateApp(),
    new ReadingApp(TEMPERATURE, src, cfg),
    new ReadingApp(HUMIDITY, src, cfg),
    new ReadingApp(BATTERY, src, cfg),
  ];
}
