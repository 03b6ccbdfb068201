// MovingLine: one full-height line sweeping from the left edge to the right, then again from the
// left, over black. Its colour moves on a palette step per column as it goes.
import type { EffectModule } from "./types";
import { HUE_WHEEL, place, steps } from "./pace";

/** Columns a second: a sweep of 32 columns in 3.2 s. */
const RATE = 10;

const movingLine: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => ({
    draw: (g, t, ink) => {
      const s = steps(t, RATE);
      const x = s % w;
      g.setColor(0);
      g.fillRect(0, 0, w - 1, h - 1);
      g.setColor(ink.tone(place(s)));
      g.fillRect(x, 0, x, h - 1);
    },
  }),
};
export default movingLine;
