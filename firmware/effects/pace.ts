// What the background effects share about time and colour. An effect's base rate is in steps a
// second (one step is one visible change: a pixel of travel, a flip, a palette step); the page
// hands it time already multiplied by effectSpeed, so counting whole steps of t is all an effect
// does with time, and a frame stays a function of t alone.
import { STEPS } from "./types";

/** Whole steps taken by effect time `t` (ms) at `rate` steps a second (0 before t = 0). */
export function steps(t: number, rate: number): number {
  const s = Math.floor((t * rate) / 1000);
  return s > 0 ? s : 0;
}

/** `n` wrapped into 0 .. m-1, for any integer n. */
export function wrap(n: number, m: number): number {
  return ((n % m) + m) % m;
}

/**
 * Stock colours of the hue-wheel effects: the stops are placed so that the 16 entries fall at
 * even hues (the last one 22.5 degrees short of red), so a sweep that wraps from entry 15 back
 * to entry 0 turns at the same pace all round the wheel.
 */
export const HUE_WHEEL = "FF0000@0 FFFF00@18 00FF00@36 00FFFF@53 0000FF@71 FF00FF@89 FF0060@100";

/**
 * A wire colour (as the ink hands it out) with every channel scaled by `k` (0..1). The LEDs are
 * driven linearly by what the wire carries, so this dims a palette colour without its logical
 * value, which the ink does not give out.
 */
export function scaleWire(c: number, k: number): number {
  return (Math.round(((c >> 16) & 255) * k) << 16) | (Math.round(((c >> 8) & 255) * k) << 8) | Math.round((c & 255) * k);
}

/**
 * The palette position (0-255, for Ink.tone) of palette step `p` (any integer, wrapping round the
 * STEPS steps of Ink.map): the first position that Ink.tone reads from that step.
 */
export function place(p: number): number {
  return Math.ceil((wrap(p, STEPS) * 256) / STEPS);
}
