// The `barChart` and `lineChart` keys of a pushed app or notification. The values are kept in a
// typed array (a few interpreter variables instead of one or two per value) and scaled when
// drawn, since the canvas and the autoscale switch are known only then.
import type { Canvas } from "../display/canvas";

/** At most 16 chart values. */
export type ChartData = Float64Array;

/** The values of a chart key: the first 16, anything but a number read as 0; null when it is not an array (the key is skipped). */
export function compileChart(v: unknown): ChartData | null {
  if (!Array.isArray(v)) return null;
  const n = v.length < 16 ? v.length : 16;
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = v[i];
    d[i] = typeof x === "number" && isFinite(x) ? x : 0;
  }
  return d;
}

/** Bottom of the value range: 0, or the lowest value once one is negative; fixed at 0 without autoscale. */
function low(d: ChartData, autoscale: boolean): number {
  let lo = 0;
  if (autoscale) for (let i = 0; i < d.length; i++) if (d[i] < lo) lo = d[i];
  return lo;
}

/** Top of the value range: the highest value but at least 1; fixed at 8 without autoscale. */
function high(d: ChartData, autoscale: boolean): number {
  if (!autoscale) return 8;
  let hi = 1;
  for (let i = 0; i < d.length; i++) if (d[i] > hi) hi = d[i];
  return hi;
}

/**
 * One bar per value right of `left`, each at least a pixel wide with a pixel between bars (those
 * past the right edge are clipped), standing on the row boundary where zero falls: on the
 * bottom edge unless a value is negative. `ramp`, when given, colours each bar by where its value
 * lies in the range (0..1) instead of `color`.
 */
export function drawBarChart(c: Canvas, d: ChartData, left: number, autoscale: boolean, color: number, ramp?: (t: number) => number): void {
  const n = d.length;
  const span = c.width - left;
  if (n === 0 || span <= 0) return;
  const lo = low(d, autoscale);
  const hi = high(d, autoscale);
  const h = c.height;
  const scale = h / (hi - lo);
  // Row boundaries count from the top: 0 is above row 0, h below the last row. A bar of half a
  // row or more shows.
  const zero = Math.round(h + lo * scale);
  let width = Math.floor((span - n + 1) / n);
  if (width < 1) width = 1;
  if (!ramp) c.color(color);
  for (let i = 0; i < n; i++) {
    const v = d[i] < lo ? lo : d[i] > hi ? hi : d[i];
    const rows = Math.round((v < 0 ? -v : v) * scale);
    if (rows === 0) continue;
    if (ramp) c.color(ramp((v - lo) / (hi - lo)));
    const x = left + i * (width + 1);
    if (v > 0) c.g.fillRect(x, zero - rows > 0 ? zero - rows : 0, x + width - 1, zero - 1);
    else c.g.fillRect(x, zero, x + width - 1, zero + rows < h ? zero + rows - 1 : h - 1);
  }
}

/**
 * A polyline through the values, spread evenly from `left` to the right edge: the range's bottom
 * on the last row, its top on the first. Fewer than two values draw nothing. With `ramp`, each
 * segment takes the colour of the value it starts from, and each point its own.
 */
export function drawLineChart(c: Canvas, d: ChartData, left: number, autoscale: boolean, color: number, ramp?: (t: number) => number): void {
  const n = d.length;
  const span = c.width - left;
  if (n < 2 || span <= 0) return;
  const lo = low(d, autoscale);
  const hi = high(d, autoscale);
  const rows = c.height - 1;
  const g = c.g;
  if (!ramp) c.color(color);
  let px = 0;
  let py = 0;
  for (let i = 0; i < n; i++) {
    const v = d[i] < lo ? lo : d[i] > hi ? hi : d[i];
    const x = left + Math.round(i * (span - 1) / (n - 1));
    const y = Math.round((hi - v) * rows / (hi - lo));
    if (i > 0) g.drawLine(px, py, x, y);
    if (ramp) {
      c.color(ramp((v - lo) / (hi - lo)));
      g.setPixel(x, y);
    }
    px = x;
    py = y;
  }
}
