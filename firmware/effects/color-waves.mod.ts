// ColorWaves: the palette laid once across the panel's width, column by column, the colours
// travelling to the right a palette step at a time.
import type { EffectModule } from "./types";
import { STEPS } from "./types";
import { drawField, makeField } from "./field";
import { HUE_WHEEL, steps } from "./pace";

/** Palette steps a second: about nine columns of travel a second on 32 columns. */
const RATE = 24;

const colorWaves: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => {
    // Column x at step x * STEPS / w, in whole numbers: a half step rounds the same everywhere.
    const f = makeField(w, h, (u, v, n) => ((n % w) * STEPS) / w);
    return {
      // Steps taken backwards: a colour moves to the column on its right.
      draw: (g, t, ink) => drawField(g, f, ink, -steps(t, RATE), 0),
    };
  },
};
export default colorWaves;
