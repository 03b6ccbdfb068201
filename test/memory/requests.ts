// Requests the memory suites send: one of every route (valid and refused), and the mixed load.
import type { EspruinoTarget } from "../espruino/launch";

export interface RequestCase {
  method: string;
  path: string;
  body?: unknown;
  /** Sent as is (not JSON-encoded). */
  raw?: string;
  expect: number;
  /**
   * Sent 500 ms later to finish what this one started: a write undone, or a scan's results
   * fetched (they are held until then).
   */
  then?: RequestCase;
}

/** One request of each route, and the usual refusals. Writes leave the state as they found it. */
export const ROUTE_CASES: RequestCase[] = [
  { method: "GET", path: "/api/v1/device", expect: 200 },
  { method: "GET", path: "/api/v1/version", expect: 200 },
  { method: "GET", path: "/version", expect: 200 },
  { method: "GET", path: "/api/v1/capabilities", expect: 200 },
  { method: "GET", path: "/api/v1/system", expect: 200 },
  {
    method: "PUT", path: "/api/v1/system", body: { minBrightness: 11 }, expect: 200,
    then: { method: "PUT", path: "/api/v1/system", body: { minBrightness: 10 }, expect: 200 },
  },
  { method: "PUT", path: "/api/v1/system", body: { minBrightness: 999 }, expect: 422 },
  { method: "PUT", path: "/api/v1/system", raw: "{\"tzName\": ", expect: 400 },
  { method: "GET", path: "/api/v1/settings", expect: 200 },
  {
    method: "PATCH", path: "/api/v1/settings", body: { brightness: 121, timeMode: 2 }, expect: 200,
    then: { method: "PATCH", path: "/api/v1/settings", body: { brightness: 120, timeMode: 1 }, expect: 200 },
  },
  { method: "PATCH", path: "/api/v1/settings", body: { timeMode: 99 }, expect: 422 },
  { method: "GET", path: "/api/v1/display", expect: 200 },
  { method: "PATCH", path: "/api/v1/display", body: { power: true }, expect: 200 },
  { method: "GET", path: "/api/v1/display/screen", expect: 200 },
  {
    method: "PUT", path: "/api/v1/display/moodlight", body: { kelvin: 2700, brightness: 90 }, expect: 200,
    then: { method: "DELETE", path: "/api/v1/display/moodlight", expect: 200 },
  },
  {
    method: "PUT", path: "/api/v1/indicators/1", body: { color: "#00FF00", blinkMs: 500 }, expect: 200,
    then: { method: "DELETE", path: "/api/v1/indicators/1", expect: 200 },
  },
  { method: "PUT", path: "/api/v1/indicators/7", body: { color: "#00FF00" }, expect: 404 },
  { method: "GET", path: "/api/v1/apps", expect: 200 },
  { method: "PUT", path: "/api/v1/apps/active", raw: "Time", expect: 200 },
  {
    method: "POST", path: "/api/v1/apps/next", expect: 200,
    then: { method: "POST", path: "/api/v1/apps/previous", expect: 200 },
  },
  {
    method: "GET", path: "/api/v1/system/wifi-scan", expect: 202,
    then: { method: "GET", path: "/api/v1/system/wifi-scan", expect: 200 },
  },
  { method: "GET", path: "/", expect: 200 },
  { method: "GET", path: "/api/v1/nothing-here", expect: 404 },
  { method: "DELETE", path: "/api/v1/system", expect: 405 },
  { method: "POST", path: "/api/v1/device/sleep", body: { durationMs: -1 }, expect: 422 },
];

/**
 * How long the firmware keeps the results of a Wi-Fi scan nobody came for (SCAN_KEEP_MS of
 * firmware/system/wifi-scan.mod.ts): a reading that must not count them waits this long after the
 * last scan request.
 */
export const SCAN_KEEP_MS = 10000;

/** Sends `c`; null when the answer has the expected status, else what went wrong. */
export async function send(t: EspruinoTarget, c: RequestCase): Promise<string | null> {
  try {
    const body = c.raw !== undefined ? c.raw : c.body === undefined ? undefined : JSON.stringify(c.body);
    const headers: { [k: string]: string } = body === undefined ? {} : { "Content-Type": "application/json" };
    const r = await fetch(t.url + c.path, { method: c.method, headers, body, signal: AbortSignal.timeout(10000) });
    const text = await r.text();
    return r.status === c.expect ? null : "status " + r.status + " (expected " + c.expect + "): " + text.slice(0, 120);
  } catch (e) {
    return String(e);
  }
}
