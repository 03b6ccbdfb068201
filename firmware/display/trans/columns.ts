// What the transitions where every column moves on a clock of its own share (Rain, Melt). Columns
// start one after another (slot 0 first) and all move at the same rate, so the last one still
// lands exactly at t = 1. Rather than looking at every column, a frame works out from t which
// slots have reached which offset: the counts come straight from inverting the column clock.

/**
 * Slots (of w, starting evenly over 1 - fall, each moving for `fall`) whose progress has reached
 * c (0..1) at time t; `rate` is (w - 1) / (1 - fall).
 */
export function reached(t: number, w: number, fall: number, rate: number, c: number): number {
  const n = Math.floor((t - fall * c) * rate) + 1;
  return n < 0 ? 0 : n > w ? w : n;
}
