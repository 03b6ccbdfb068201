// GET /api/v1/device: the live state snapshot. Keys come out in a fixed order; a conditional key
// is present exactly when its hardware is there (never null or 0 for something missing).
import type { App } from "../app";
import { heap, nowMs } from "../platform/system";
import { rssi, stationIp } from "../platform/wifi";
import { adcToMillivolts, batteryPercent, cellVoltage, isLowBattery } from "./battery";
import { lightLevel } from "./light";
import { BOARD_TYPE, macFromUid } from "./identity";
import { indicatorsView } from "../display/indicator-apply";
import { ConnectionStatus, statusView } from "../net/status";
import { updateView } from "../update/state";

export { derivedHostname } from "./identity";

/** Script heap ceiling when the script engine allocates from internal RAM. */
export const INTERNAL_SCRIPT_BUDGET = 98304;

// Block size of Espruino's variables on the ESP32 builds, when it cannot be read back.
const VAR_BYTES = 14;

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}

/**
 * Free PSRAM estimate. Espruino has no call reporting it; on a board with PSRAM the only large
 * allocation there is the variable pool, so free = fitted size less the whole pool.
 */
export function psramFreeBytes(psramBytes: number, totalVars: number, freeVars: number, freeBytes: number): number {
  const varBytes = freeVars > 0 ? freeBytes / freeVars : VAR_BYTES;
  const free = Math.floor(psramBytes - totalVars * varBytes);
  return free > 0 ? free : 0;
}

export function deviceState(app: App): object {
  const rt = app.runtime;
  const cfg = app.system.config;
  const board = app.board;
  const now = nowMs();
  const freeHeap = rt.sample();
  const psram = board.fitted.psram !== "none";
  let psramFree = 0;
  if (psram) {
    const mem = heap();
    psramFree = psramFreeBytes(board.fitted.psramBytes, mem.totalVars, mem.freeVars, mem.freeBytes);
  }

  const s: { [key: string]: unknown } = {
    version: app.version,
    uid: rt.uid,
    boardType: BOARD_TYPE,
    soc: board.soc,
    updateImage: board.updateImage,
    ipAddress: stationIp(),
    macAddress: macFromUid(rt.uid),
    hostname: rt.hostname,
    wifiRssi: Math.round(rssi()),
    uptimeSeconds: Math.floor(rt.upMs / 1000),
    freeHeapBytes: freeHeap,
    minFreeHeapBytes: rt.minFreeHeap,
  };
  // largestFreeBlockBytes is for builds with a separate heap; Espruino's variable pool is one
  // block-allocated store, so the key is left out.
  if (psram) {
    s.psramTotalBytes = board.fitted.psramBytes;
    s.psramFreeBytes = psramFree;
  }
  // No script engine runs yet, so scripts never run; in particular scriptingRunning stays false
  // whenever scriptingEnabled is off.
  s.scriptingRunning = false;
  s.scriptHeapPool = psram ? "psram" : "internal";
  s.scriptHeapBudgetBytes = psram ? Math.floor(psramFree / 2) : INTERNAL_SCRIPT_BUDGET;
  s.resetReason = rt.resetReason;
  s.fps = rt.fps;
  s.brightness = rt.brightness;
  if (rt.light) {
    const raw = rt.light.median();
    s.lightLevel = lightLevel(raw, cfg.ldrFactor, cfg.ldrOnGround);
    s.ldrRaw = raw;
  }
  if (rt.battery) {
    const mv = adcToMillivolts(rt.battery.median());
    const volts = cellVoltage(mv, cfg.batteryDividerRatio);
    const pct = batteryPercent(volts);
    s.batteryPercent = pct;
    s.batteryVoltage = volts;
    s.batteryPinMillivolts = mv;
    s.lowBattery = isLowBattery(pct, cfg.lowBatteryThreshold);
  }
  const env = rt.env;
  if (env && env.valid) {
    s.temperature = round1(env.t + cfg.tempOffset);
    if (env.sensor.humidity) {
      const h = round1(env.h + cfg.humOffset);
      s.humidity = h < 0 ? 0 : h > 100 ? 100 : h;
    }
    if (env.sensor.pressure) s.pressureHpa = round1(env.p);
  }
  s.matrixPower = rt.matrixPower;
  s.currentApp = rt.currentApp;
  s.indicators = indicatorsView(rt.indicators);
  s.messageCount = rt.messageCount;
  s.wifi = statusView(rt.wifi, now);
  s.mqtt = statusView(rt.mqtt || new ConnectionStatus(), now);
  s.update = updateView(app);
  return s;
}
