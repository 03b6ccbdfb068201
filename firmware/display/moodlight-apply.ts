// What the mood light's routes do to its state (display/moodlight.ts): PUT validates and sets,
// DELETE turns it off, GET shows it. Used only by the handler modules.
import type { Failure } from "../core/failure";
import { failure, invalid } from "../core/failure";
import { COLOR_MESSAGE, formatColor, parseColor } from "../color/color";
import type { Moodlight } from "./moodlight";

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

/**
 * PUT: both fields are sticky; kelvin (clamped) wins over color; brightness is taken as an
 * 8-bit value without a range check. Turns the light on.
 */
export function applyMoodlight(m: Moodlight, body: unknown): Failure | null {
  if (typeof body !== "object" || body === null || Array.isArray(body) || Object.keys(body).length === 0) {
    return failure(422, "validationFailed", "a JSON body is required (use DELETE to turn the moodlight off)");
  }
  const b = body as { [k: string]: unknown };
  let color = m.color;
  if (typeof b.kelvin === "number" && isFinite(b.kelvin)) {
    color = kelvinToRgb(Math.min(KELVIN_MAX, Math.max(KELVIN_MIN, Math.round(b.kelvin))));
  } else if ("color" in b) {
    color = parseColor(b.color);
    if (color < 0) return invalid("color", COLOR_MESSAGE);
  }
  if (typeof b.brightness === "number" && isFinite(b.brightness)) m.brightness = Math.floor(b.brightness) & 255;
  m.color = color;
  m.on = true;
  return null;
}

/** As GET /api/v1/display shows it: null while off. */
export function moodlightView(m: Moodlight): object | null {
  return m.on ? { color: formatColor(m.color), brightness: m.brightness } : null;
}
