// The `progress` key of a pushed app or notification: a bar along the bottom row.
import type { Canvas } from "../display/canvas";

/**
 * The bar on the bottom row: `percent` of it (clamped to 100; below 0 or not a number draws
 * nothing) in `color`, the rest in `track`. Beside an icon it starts a column left of `left`,
 * in the icon's gap. With `ramp`, the filled part shows the ramp (0 at the bar's first column,
 * 1 at its last) up to where it ends, a column at a time.
 */
export function drawProgress(c: Canvas, percent: number, left: number, color: number, track: number, ramp?: (t: number) => number): void {
  if (!(percent >= 0)) return;
  const x0 = left > 0 ? left - 1 : 0;
  const width = c.width - x0;
  if (width <= 0) return;
  const filled = Math.floor(width * (percent > 100 ? 100 : percent) / 100);
  const y = c.height - 1;
  const g = c.g;
  if (filled > 0 && ramp) {
    for (let i = 0; i < filled; i++) {
      c.color(ramp(width > 1 ? i / (width - 1) : 0));
      g.setPixel(x0 + i, y);
    }
  } else if (filled > 0) {
    c.color(color);
    g.fillRect(x0, y, x0 + filled - 1, y);
  }
  if (filled < width) {
    c.color(track);
    g.fillRect(x0 + filled, y, x0 + width - 1, y);
  }
}
