// The live, unstored device values: everything GET /api/v1/device reports that is not read from
// the chip at request time. Reset at every boot.
import type { SystemConfig } from "../system/schema";
import { ConnectionStatus } from "../net/status";
import { readAdc } from "../platform/io";
import { heap, nowMs } from "../platform/system";
import type { ScanResult } from "../platform/wifi";
import { loadModule } from "../platform/modules";
import { AdcSampler } from "./adc";
import { sampleEnv } from "./sensors/index";
import type { EnvSampler } from "./sensors/index";
import type BootDevice from "./boot.mod";
import { newIndicators, type Indicators } from "../display/indicators";
import { log } from "../logs/log";

/** The settings' default brightness; the display engine overwrites `brightness` once it runs. */
export const DEFAULT_BRIGHTNESS = 120;

/** How long the main loop waits between two calls of tick(). */
export const TICK_MS = 2000;

// A step of the wall clock larger than this between two observations is the clock being set
// (SNTP), not time passing: the uptime ignores it.
const MAX_CLOCK_STEP_MS = 60000;

export class Runtime {
  /** MAC without colons, lower case; set at boot by the module device/boot. */
  uid: string;
  /** The hostname in use, fixed at boot (config hostname, else derived from the uid). */
  hostname: string;
  resetReason: string;
  /** Least free heap (bytes) seen since boot; -1 before the first sample. */
  minFreeHeap: number;
  fps: number;
  /** Effective brightness 0-255. */
  brightness: number;
  matrixPower: boolean;
  currentApp: string;
  indicators: Indicators;
  /** MQTT command messages received since boot. */
  messageCount: number;
  wifi: ConnectionStatus;
  // The parts this clock lacks are absent rather than null: the object lives as long as the
  // firmware, and a property costs variables even when it holds nothing.
  /** Made when the MQTT session first starts (main.ts): a clock that never uses MQTT holds none. */
  mqtt?: ConnectionStatus;
  /**
   * The Wi-Fi scan of the setup page: one at a time, its results handed out once. Absent but from
   * a scan's start to its results being handed out, or dropped when nobody comes for them (system/
   * wifi-scan makes it and deletes it).
   */
  wifiScan?: { started: number; running: boolean; found: ScanResult[] | null; forget?: number };
  /** Present only when the pin was wired at boot. */
  battery?: AdcSampler;
  light?: AdcSampler;
  /** Median light reading 0-4095, -1 without a light sensor. */
  lightRaw: number;
  /** Present only when a sensor identified itself at boot. */
  env?: EnvSampler;
  /** Milliseconds since boot as of the last sample(); uptime in whole seconds is device state's. */
  upMs: number;
  private lastMs: number;

  /**
   * Once at boot, with the stored system config: the samplers for the wired pins here; reset
   * reason, identity and environment-sensor detection in the module device/boot, which runs only
   * now. Without a config (tests) only the defaults.
   */
  constructor(config?: SystemConfig) {
    this.uid = "";
    this.hostname = "";
    this.resetReason = "poweron";
    this.minFreeHeap = -1;
    this.fps = 0;
    this.brightness = DEFAULT_BRIGHTNESS;
    this.matrixPower = true;
    this.currentApp = "";
    this.indicators = newIndicators();
    this.messageCount = 0;
    this.wifi = new ConnectionStatus();
    this.lightRaw = -1;
    this.upMs = 0;
    this.lastMs = 0;
    if (!config) return;
    this.lastMs = nowMs();
    if (config.pinBattery >= 0) this.battery = new AdcSampler(config.pinBattery);
    if (config.pinLdr >= 0) this.light = new AdcSampler(config.pinLdr);
    try {
      loadModule<typeof BootDevice>("device/boot")(this, config);
    } catch (e) {
      // The clock still runs: a power-on, no sensor, the configured hostname or a plain one.
      this.hostname = config.hostname || "pixloop";
      log("device boot: " + e);
    }
    // First readings now; a sensor's first conversion arrives with the next tick.
    this.tick();
  }

  /**
   * Every TICK_MS from the main loop: heap low-water mark, battery, light and sensor. The
   * calibration (ratio, offsets, ldrFactor) is applied when device state is read.
   */
  tick(): void {
    this.sample();
    if (this.battery) this.battery.push(readAdc(this.battery.pin));
    const light = this.light;
    if (light) {
      light.push(readAdc(light.pin));
      // The median the brightness control reads every frame.
      this.lightRaw = light.median();
    }
    if (this.env) sampleEnv(this.env);
  }

  /**
   * Brings upMs up to now, immune to the wall clock being set, and returns the free heap in bytes,
   * lowering the low-water mark when it is a new minimum. One method for the tick and device
   * state both: each method of a class that lives as long as the firmware costs variables.
   */
  sample(): number {
    const now = nowMs();
    const step = now - this.lastMs;
    if (step > 0 && step < MAX_CLOCK_STEP_MS) this.upMs += step;
    this.lastMs = now;
    const free = heap().freeBytes;
    if (this.minFreeHeap < 0 || free < this.minFreeHeap) this.minFreeHeap = free;
    return free;
  }
}
