// Back-and-forth motion as a function of time: where something that moves one cell a step and
// turns round at both ends of a run of cells is after a number of steps. The balls and pupils of
// the effects move so, which keeps their frames a function of the step alone.
import { wrap } from "./pace";

/** Steps of one round trip over `n` cells (0 for a single cell: nothing moves). */
export function roundTrip(n: number): number {
  return n > 1 ? 2 * (n - 1) : 0;
}

/**
 * The cell 0 .. n-1 reached after `p` steps (any integer) by something that starts at cell 0
 * moving up: cells 0, 1, .., n-1, n-2, .., 1, 0, 1, ... Phase `p` and `roundTrip(n) - p` give the
 * same cell travelled the other way.
 */
export function bounce(p: number, n: number): number {
  const period = roundTrip(n);
  if (!period) return 0;
  const q = wrap(p, period);
  return q < n ? q : period - q;
}
