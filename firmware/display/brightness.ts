// The effective panel brightness (0-255) the colour grading scales by.
//
// Manual (autoBrightness off, or no light sensor): settings.brightness, at once.
// Auto: the light level (lightLevel: linear in the raw reading, ldrFactor, ldrOnGround) as 0..1,
// raised to ldrGamma (1 = linear; above 1 keeps dim rooms dim), mapped into
// minBrightness..maxBrightness. Changes of the light are followed with an exponential approach
// whose time constant is brightnessSmoothing ms (0 = at once), measured on the clock passed in,
// so the pace does not depend on the frame rate. Switching to auto starts at the target (the
// switch is not a change of light to ease into).
import type { SystemConfig } from "../system/schema";
import type { Settings } from "../settings/types";
import { lightLevel } from "../device/light";

export type BrightnessConfig = Pick<SystemConfig, "minBrightness" | "maxBrightness" | "ldrFactor" | "ldrGamma" |
  "ldrOnGround" | "brightnessSmoothing">;
export type BrightnessSettings = Pick<Settings, "brightness" | "autoBrightness">;

function clampByte(v: number): number {
  return v > 255 ? 255 : v > 0 ? v : 0;
}

/** Where auto-brightness heads for a raw light reading (0-4095), unrounded. */
export function autoBrightnessTarget(cfg: BrightnessConfig, raw: number): number {
  const light = lightLevel(raw, cfg.ldrFactor, cfg.ldrOnGround) / 100;
  const shaped = Math.pow(light, cfg.ldrGamma > 0 ? cfg.ldrGamma : 1);
  const lo = clampByte(cfg.minBrightness);
  return lo + (clampByte(cfg.maxBrightness) - lo) * shaped;
}

export class BrightnessControl {
  private config: () => BrightnessConfig;
  private settings: () => BrightnessSettings;
  /** The smoothed level, unrounded; NaN while the brightness is manual (auto starts at its target). */
  private level: number;
  private lastMs: number;

  /** Both are read at every update, so changes apply without telling this object. */
  constructor(config: () => BrightnessConfig, settings: () => BrightnessSettings) {
    this.config = config;
    this.settings = settings;
    this.level = NaN;
    this.lastMs = 0;
  }

  /** The brightness for now (integer 0-255); `lightRaw` is the sensor's reading, -1 for none. */
  update(nowMs: number, lightRaw: number): number {
    const s = this.settings();
    if (!s.autoBrightness || lightRaw < 0) {
      this.level = NaN;
      return Math.round(clampByte(s.brightness));
    }
    const cfg = this.config();
    const target = autoBrightnessTarget(cfg, lightRaw);
    const elapsed = nowMs - this.lastMs;
    if (isNaN(this.level) || cfg.brightnessSmoothing <= 0) this.level = target;
    else if (elapsed > 0) this.level = target + (this.level - target) * Math.exp(-elapsed / cfg.brightnessSmoothing);
    this.lastMs = nowMs;
    return Math.round(this.level);
  }
}
