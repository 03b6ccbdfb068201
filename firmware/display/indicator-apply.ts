// What the indicator routes do to the dots' state (display/indicators.ts): PUT validates and
// sets, DELETE resets, device state shows them. Used only by the handler modules.
import type { Failure } from "../core/failure";
import { failure, invalid } from "../core/failure";
import { COLOR_MESSAGE, formatColor, parseColor } from "../color/color";
import type { Indicators } from "./indicators";
import { INDICATOR_COUNT } from "./indicators";

const U16_MAX = 65535;

/** The period keys, checked in this order before anything changes. */
const PERIODS = ["blinkMs", "fadeMs"];

/** blinkMs and fadeMs: whole milliseconds 0-65535; a value of another type is ignored. */
function checkPeriods(b: { [k: string]: unknown }): Failure | null {
  for (const key of PERIODS) {
    const v = b[key];
    if (typeof v !== "number") continue;
    if (Math.floor(v) !== v) return invalid(key, "must be an integer");
    if (v < 0 || v > U16_MAX) return invalid(key, "out of range");
  }
  return null;
}

function period(v: unknown, old: number): number {
  return typeof v === "number" ? v : old;
}

/** Slot for an API id ("1".."3"), or -1. */
export function indicatorSlot(id: string): number {
  return id === "1" || id === "2" || id === "3" ? +id - 1 : -1;
}

/**
 * PUT semantics: only a present `color` changes on/off (0 or null switches off and keeps the
 * stored colour); absent blinkMs/fadeMs stay. Validated before anything changes.
 */
export function applyIndicator(dots: Indicators, slot: number, body: unknown): Failure | null {
  if (typeof body !== "object" || body === null || Array.isArray(body) || Object.keys(body).length === 0) {
    return failure(422, "validationFailed", "a JSON body is required (use DELETE to turn the indicator off)");
  }
  const b = body as { [k: string]: unknown };
  let color = -1;
  if ("color" in b && b.color !== null && b.color !== 0) {
    color = parseColor(b.color);
    if (color < 0) return invalid("color", COLOR_MESSAGE);
  }
  const bad = checkPeriods(b);
  if (bad) return bad;
  const ind = dots.slots[slot];
  if ("color" in b) {
    ind.on = color >= 0;
    if (color >= 0) ind.color = color;
  }
  ind.blinkMs = period(b.blinkMs, ind.blinkMs);
  ind.fadeMs = period(b.fadeMs, ind.fadeMs);
  return null;
}

/** DELETE: off, black, no blink, no fade. */
export function resetIndicator(dots: Indicators, slot: number): void {
  const ind = dots.slots[slot];
  ind.on = false;
  ind.color = 0;
  ind.blinkMs = 0;
  ind.fadeMs = 0;
}

/** As device state shows them. */
export function indicatorsView(dots: Indicators): object[] {
  const out: object[] = [];
  for (let i = 0; i < INDICATOR_COUNT; i++) {
    const s = dots.slots[i];
    out.push({ on: s.on, color: formatColor(s.color), blinkMs: s.blinkMs, fadeMs: s.fadeMs });
  }
  return out;
}
