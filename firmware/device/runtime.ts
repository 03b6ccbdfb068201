// The live, unstored device values: everything GET /api/v1/device reports that is not read from
// the chip at request time. Reset at every boot.
import type { SystemConfig } from "../system/schema";
import { ConnectionStatus } from "../net/status";
import { openI2c, readAdc } from "../platform/io";
import { heap, nowMs } from "../platform/system";
import { macAddress } from "../platform/wifi";
import type { ScanResult } from "../platform/wifi";
import { takeBootMark } from "../platform/bootmark";
import { AdcSampler } from "./adc";
import { EnvSampler, detectSensor } from "./sensors/index";
import { derivedHostname, uidFromMac } from "./identity";
import { Indicators } from "../display/indicators";

/** The settings' default brightness; the display engine overwrites `brightness` once it runs. */
export const DEFAULT_BRIGHTNESS = 120;

/** How long the main loop waits between two calls of tick(). */
export const TICK_MS = 2000;

// A step of the wall clock larger than this between two observations is the clock being set
// (SNTP), not time passing: the uptime ignores it.
const MAX_CLOCK_STEP_MS = 60000;

export class Runtime {
  /** MAC without colons, lower case; set by begin(). */
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
  mqtt: ConnectionStatus;
  /** The Wi-Fi scan of the setup page: one at a time, its results handed out once. */
  wifiScan: { started: number; running: boolean; found: ScanResult[] | null };
  /** Present only when the pin was wired at boot. */
  battery: AdcSampler | null;
  light: AdcSampler | null;
  /** Median light reading 0-4095, -1 without a light sensor. */
  lightRaw: number;
  /** Present only when a sensor identified itself at boot. */
  env: EnvSampler | null;
  private upMs: number;
  private lastMs: number;

  /**
   * Once at boot, with the stored system config: reset reason, identity, the samplers for the
   * wired pins and environment-sensor detection. Without a config (tests) only the defaults.
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
    this.indicators = new Indicators();
    this.messageCount = 0;
    this.wifi = new ConnectionStatus();
    this.mqtt = new ConnectionStatus();
    this.wifiScan = { started: 0, running: false, found: null };
    this.battery = null;
    this.light = null;
    this.lightRaw = -1;
    this.env = null;
    this.upMs = 0;
    this.lastMs = 0;
    if (config) this.begin(config);
  }

  /** The boot work of the constructor (no sensor when either I2C pin is -1). */
  begin(config: SystemConfig): void {
    this.lastMs = nowMs();
    this.resetReason = takeBootMark();
    this.uid = uidFromMac(macAddress());
    this.hostname = config.hostname || derivedHostname(this.uid);
    this.battery = config.pinBattery >= 0 ? new AdcSampler(config.pinBattery) : null;
    this.light = config.pinLdr >= 0 ? new AdcSampler(config.pinLdr) : null;
    this.env = null;
    if (config.pinI2cSda >= 0 && config.pinI2cScl >= 0) {
      try {
        this.env = detectSensor(openI2c(config.pinI2cSda, config.pinI2cScl));
      } catch (e) {
        this.env = null;
      }
    }
    // First readings now; a sensor's first conversion arrives with the next tick.
    this.tick();
  }

  /**
   * Every TICK_MS from the main loop: heap low-water mark, battery, light and sensor. The
   * calibration (ratio, offsets, ldrFactor) is applied when device state is read.
   */
  tick(): void {
    this.clock();
    this.sampleHeap();
    if (this.battery) this.battery.push(readAdc(this.battery.pin));
    this.sampleLight();
    if (this.env) this.env.sample();
  }

  /** One light reading, and the median the brightness control reads every frame. */
  sampleLight(): void {
    if (!this.light) return;
    this.light.push(readAdc(this.light.pin));
    this.lightRaw = this.light.median();
  }

  /** Free heap in bytes now, lowering the low-water mark when it is a new minimum. */
  sampleHeap(): number {
    const free = heap().freeBytes;
    if (this.minFreeHeap < 0 || free < this.minFreeHeap) this.minFreeHeap = free;
    return free;
  }

  /** Whole seconds since boot, immune to the wall clock being set. */
  uptimeSeconds(): number {
    this.clock();
    return Math.floor(this.upMs / 1000);
  }

  private clock(): void {
    const now = nowMs();
    const step = now - this.lastMs;
    if (step > 0 && step < MAX_CLOCK_STEP_MS) this.upMs += step;
    this.lastMs = now;
  }
}
