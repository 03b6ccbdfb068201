// Whether an app exists on this device now. Only the requests that re-read the rotation or list the
// apps ask (modules), so the rule lives here rather than as a method of every resident app.
import type { AppHost } from "./module-app";

/** The fitted part a built-in app needs (module-app.ts): none, a temperature or humidity sensor, a battery. */
export const NEEDS_NOTHING = 0;
export const NEEDS_TEMPERATURE = 1;
export const NEEDS_HUMIDITY = 2;
export const NEEDS_BATTERY = 3;

/** What a built-in app (ModuleApp) holds for the rule; other apps have neither. */
interface Needing {
  needs?: number;
  host?: AppHost;
}

/**
 * From the parts the runtime found at boot; no page is loaded for it. A built-in app is present
 * when the part it needs is fitted; every other app (pushed, the setup screen) always is.
 */
export function isPresent(app: object): boolean {
  const a = app as Needing;
  const needs = a.needs;
  if (!needs || !a.host) return true;
  const rt = a.host.runtime;
  if (needs === NEEDS_BATTERY) return !!rt.battery;
  return !!rt.env && (needs === NEEDS_TEMPERATURE || rt.env.sensor.humidity);
}
