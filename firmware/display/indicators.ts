// The three indicator dots on the right edge: their state and how they are drawn, blinking and
// fading by the clock. What PUT and DELETE do to the state, and the view device state shows, are
// display/indicator-apply.ts, used by the handler modules.
import type { Canvas } from "./canvas";

export interface Indicator {
  on: boolean;
  /** Packed 0xRRGGBB; kept while the dot is off so it can come back unchanged. */
  color: number;
  blinkMs: number;
  fadeMs: number;
}

export const INDICATOR_COUNT = 3;

// Plain data and functions rather than a class: the one set of dots lives as long as the
// firmware, and a class would add its constructor and prototype to what stays in memory.
export interface Indicators {
  readonly slots: Indicator[];
}

/** All three dots off. */
export function newIndicators(): Indicators {
  const slots: Indicator[] = [];
  for (let i = 0; i < INDICATOR_COUNT; i++) slots.push({ on: false, color: 0, blinkMs: 0, fadeMs: 0 });
  return { slots };
}

/** Indicator 1 in the top right corner, 2 in the middle of the right edge, 3 bottom right. */
export function drawIndicators(dots: Indicators, c: Canvas, now: number): void {
  const x = c.width - 1;
  const bottom = c.height - 1;
  const mid = bottom >> 1;
  for (let i = 0; i < INDICATOR_COUNT; i++) {
    const ind = dots.slots[i];
    // Off in the dark half of a blink; a fade breathes from 0 to 1 and back.
    if (!ind.on || (ind.blinkMs > 0 && Math.floor(now / ind.blinkMs) % 2 === 1)) continue;
    const level = ind.fadeMs > 0 ? 0.5 - 0.5 * Math.cos((2 * Math.PI * (now % ind.fadeMs)) / ind.fadeMs) : 1;
    if (level <= 0) continue;
    c.color(ind.color, level);
    if (i === 0) c.g.fillRect(x - 1, 0, x, 0).setPixel(x, 1);
    else if (i === 1) c.g.fillRect(x, mid, x, mid + 1);
    else c.g.fillRect(x - 1, bottom, x, bottom).setPixel(x, bottom - 1);
  }
}
