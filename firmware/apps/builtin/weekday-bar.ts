// The seven-segment weekday bar under (or over) the clock and the date. Resident: the pages reach
// it through their TextKit (../text-kit.ts) rather than carrying a copy each.
import type { Canvas } from "../../display/canvas";
import type { WeekdayBar } from "../../settings/types";

/**
 * Seven equal segments with one dark column between them, centred in the `width` columns from
 * `x`, on row `y`. startOnMonday only moves Sunday from the first segment to the last.
 */
export function drawWeekdayBar(c: Canvas, bar: WeekdayBar, today: number, x: number, width: number, y: number): void {
  if (!bar.show) return;
  const pitch = Math.floor((width + 1) / 7);
  const last = pitch > 1 ? pitch - 2 : 0;
  let left = x + ((width - 7 * pitch + 1) >> 1);
  for (let i = 0; i < 7; i++) {
    // The calendar day (0 = Sunday) of the segment, and its colour on two axes: weekend or
    // workday, today or not.
    const day = bar.startOnMonday ? (i + 1) % 7 : i;
    const weekend = bar.weekendDays.indexOf(day) >= 0;
    c.color(day === today ? (weekend ? bar.weekendActiveColor : bar.activeColor) :
      weekend ? bar.weekendInactiveColor : bar.inactiveColor);
    c.g.fillRect(left, y, left + last, y);
    left += pitch;
  }
}
