// The three indicator dots on the right edge: their state (what PUT and DELETE set, what device
// state shows) and how they are drawn, blinking and fading by the clock.
import type { Canvas } from "./canvas";
import type { Failure } from "../core/failure";
import { failure, invalid } from "../core/failure";
import { COLOR_MESSAGE, formatColor, parseColor } from "../color/color";

export interface Indicator {
  on: boolean;
  /** Packed 0xRRGGBB; kept while the dot is off so it can come back unchanged. */
  color: number;
  blinkMs: number;
  fadeMs: number;
}

export const INDICATOR_COUNT = 3;
const U16_MAX = 65535;

/** blinkMs and fadeMs are 16-bit: a value that does not fit reads as 0, a non-number is ignored. */
function period(v: unknown, old: number): number {
  if (typeof v !== "number") return old;
  return v >= 0 && v <= U16_MAX && Math.floor(v) === v ? v : 0;
}

function dotLevel(ind: Indicator, now: number): number {
  if (ind.blinkMs > 0 && Math.floor(now / ind.blinkMs) % 2 === 1) return 0;
  if (ind.fadeMs > 0) return 0.5 - 0.5 * Math.cos((2 * Math.PI * (now % ind.fadeMs)) / ind.fadeMs);
  return 1;
}

/** Slot for an API id ("1".."3"), or -1. */
export function indicatorSlot(id: string): number {
  return id === "1" || id === "2" || id === "3" ? +id - 1 : -1;
}

export class Indicators {
  readonly slots: Indicator[];

  constructor() {
    this.slots = [];
    for (let i = 0; i < INDICATOR_COUNT; i++) this.slots.push({ on: false, color: 0, blinkMs: 0, fadeMs: 0 });
  }

  /**
   * PUT semantics: only a present `color` changes on/off (0 or null switches off and keeps the
   * stored colour); absent blinkMs/fadeMs stay. Validated before anything changes.
   */
  apply(slot: number, body: unknown): Failure | null {
    if (typeof body !== "object" || body === null || Array.isArray(body) || Object.keys(body).length === 0) {
      return failure(422, "validationFailed", "a JSON body is required (use DELETE to turn the indicator off)");
    }
    const b = body as { [k: string]: unknown };
    let color = -1;
    if ("color" in b && b.color !== null && b.color !== 0) {
      color = parseColor(b.color);
      if (color < 0) return invalid("color", COLOR_MESSAGE);
    }
    const ind = this.slots[slot];
    if ("color" in b) {
      ind.on = color >= 0;
      if (color >= 0) ind.color = color;
    }
    ind.blinkMs = period(b.blinkMs, ind.blinkMs);
    ind.fadeMs = period(b.fadeMs, ind.fadeMs);
    return null;
  }

  /** DELETE: off, black, no blink, no fade. */
  reset(slot: number): void {
    const ind = this.slots[slot];
    ind.on = false;
    ind.color = 0;
    ind.blinkMs = 0;
    ind.fadeMs = 0;
  }

  /** As device state shows them. */
  view(): object[] {
    const out: object[] = [];
    for (let i = 0; i < INDICATOR_COUNT; i++) {
      const s = this.slots[i];
      out.push({ on: s.on, color: formatColor(s.color), blinkMs: s.blinkMs, fadeMs: s.fadeMs });
    }
    return out;
  }

  /** Indicator 1 in the top right corner, 2 in the middle of the right edge, 3 bottom right. */
  draw(c: Canvas, now: number): void {
    const x = c.width - 1;
    const bottom = c.height - 1;
    const mid = bottom >> 1;
    for (let i = 0; i < INDICATOR_COUNT; i++) {
      const ind = this.slots[i];
      if (!ind.on) continue;
      const level = dotLevel(ind, now);
      if (level <= 0) continue;
      c.color(ind.color, level);
      if (i === 0) c.g.fillRect(x - 1, 0, x, 0).setPixel(x, 1);
      else if (i === 1) c.g.fillRect(x, mid, x, mid + 1);
      else c.g.fillRect(x - 1, bottom, x, bottom).setPixel(x, bottom - 1);
    }
  }
}
