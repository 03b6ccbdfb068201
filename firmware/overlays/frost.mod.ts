// frost: a still, irregular crust of ice along the top and bottom edges, brightest at the edge
// and dimmer where it reaches further in. It does not move: every t draws the same frame.
//
// Each column's crust is 0-3 rows deep at either edge (a hash of the column). The crust is made
// once into horizontal runs of one tone, so a frame is a few dozen lines in three colours.
import type { EffectModule } from "../effects/types";
import { hash } from "../effects/noise";
import { tone } from "./weather";

/** Depth of the crust by the low three bits of a column's hash: mostly one row, now and then none or three. */
const DEPTHS = "01111223";
const TOP = 0xf05;
const BOTTOM = 0xf0b;

/**
 * The crust's runs as (x0, x1, y) triples, the edge rows' first, then the rows one and two in;
 * `ends[d]` is where the runs of rows `d` in from the edge end. A function of its own, so that
 * the list it builds on is gone once the runs are made.
 */
function crust(w: number, h: number, rows: number, ends: Uint16Array): Uint8Array {
  const list: number[] = [];
  for (let d = 0; d < rows; d++) {
    for (let edge = 0; edge < 2; edge++) {
      const seed = edge ? BOTTOM : TOP;
      const y = edge ? h - 1 - d : d;
      let start = -1;
      for (let x = 0; x <= w; x++) {
        const on = x < w && +DEPTHS.charAt(hash(x, seed) & 7) > d;
        if (on && start < 0) start = x;
        if (!on && start >= 0) {
          list.push(start, x - 1, y);
          start = -1;
        }
      }
    }
    ends[d] = list.length;
  }
  return new Uint8Array(list);
}

const frost: EffectModule = {
  // Tones (weather.ts tone): the crust's inner, middle and edge rows.
  stock: "3C78B4@0 3C78B4@30 8CC3EB@40 8CC3EB@60 E6F5FF@70 E6F5FF@100",
  make: (w, h) => {
    // Never more than half the panel from each edge, so the two crusts do not meet.
    const rows = Math.min(3, h >> 1);
    const ends = new Uint16Array(3);
    const runs = crust(w, h, rows, ends);
    return {
      draw: (g, t, ink) => {
        const m = ink.map(0);
        let k = 0;
        for (let d = 0; d < rows; d++) {
          // The bright tone at the edge, then the middle and the dim one.
          g.setColor(tone(m, 3 - d));
          for (; k < ends[d]; k += 3) g.drawLine(runs[k], runs[k + 2], runs[k + 1], runs[k + 2]);
        }
      },
    };
  },
};
export default frost;
