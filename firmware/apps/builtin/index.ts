// The five built-in apps, in the loop's default order. Each page is a module of this folder, named
// after its app (time.mod.ts, ...), loaded only while it is on screen or about to come; what stays in
// memory is the list below.
import type { LoopApp } from "../types";
import type { AppHost } from "../module-app";
import { ModuleApp } from "../module-app";
import { NEEDS_BATTERY, NEEDS_HUMIDITY, NEEDS_NOTHING, NEEDS_TEMPERATURE } from "../present";

/** Time, Date, Temperature, Humidity, Battery; the last three are present only with their hardware. */
export function builtinApps(host: AppHost): LoopApp[] {
  return [
    new ModuleApp("Time", NEEDS_NOTHING, host),
    new ModuleApp("Date", NEEDS_NOTHING, host),
    new ModuleApp("Temperature", NEEDS_TEMPERATURE, host),
    new ModuleApp("Humidity", NEEDS_HUMIDITY, host),
    new ModuleApp("Battery", NEEDS_BATTERY, host),
  ];
}
