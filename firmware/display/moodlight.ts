// The mood light: the whole panel in one colour at its own brightness, instead of the apps.
import type { Failure } from "../core/failure";
import { failure, invalid } from "../core/failure";
import { COLOR_MESSAGE, formatColor, parseColor } from "../color/color";

const KELVIN_MIN = 1000;
const KELVIN_MAX = 40000;

function channel(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/**
 * The colour of a black body at `kelvin`, by the usual curve fit of the blackbody table
 * (accurate to a few percent between 1000 K and 40000 K).
 */
export function kelvinToRgb(kelvin: number): number {
  const t = kelvin / 100;
  const r = t <= 66 ? 255 : 329.698727446 * Math.pow(t - 60, -0.1332047592);
  const g = t <= 66 ? 99.4708025861 * Math.log(t) - 161.1195681661 : 288.1221695283 * Math.pow(t - 60, -0.0755148492);
  const b = t >= 66 ? 255 : t <= 19 ? 0 : 138.5177312231 * Math.log(t - 10) - 305.0447927307;
  return (channel(r) << 16) | (channel(g) << 8) | channel(b);
}

export class Moodlight {
  on = false;
  /** Until a colour is set the light is white at 120. */
  color = 0xffffff;
  brightness = 120;

  /**
   * PUT: both fields are sticky; kelvin (clamped) wins over color; brightness is taken as an
   * 8-bit value without a range check. Turns the light on.
   */
  apply(body: unknown): Failure | null {
    if (typeof body !== "object" || body === null || Array.isArray(body) || Object.keys(body).length === 0) {
      return failure(422, "validationFailed", "a JSON body is required (use DELETE to turn the moodlight off)");
    }
    const b = body as { [k: string]: unknown };
    let color = this.color;
    if (typeof b.kelvin === "number" && isFinite(b.kelvin)) {
      color = kelvinToRgb(Math.min(KELVIN_MAX, Math.max(KELVIN_MIN, Math.round(b.kelvin))));
    } else if ("color" in b) {
      color = parseColor(b.color);
      if (color < 0) return invalid("color", COLOR_MESSAGE);
    }
    if (typeof b.brightness === "number" && isFinite(b.brightness)) this.brightness = Math.floor(b.brightness) & 255;
    this.color = color;
    this.on = true;
    return null;
  }

  off(): void {
    this.on = false;
  }

  view(): object | null {
    return this.on ? { color: formatColor(this.color), brightness: this.brightness } : null;
  }
}
