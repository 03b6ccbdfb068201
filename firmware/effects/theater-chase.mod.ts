// TheaterChase: every third column lit, the lights marching one column to the right per step,
// the columns between them black. Each light keeps its colour as it marches: the palette is laid
// once along the row of lights and travels with it.
import type { EffectModule } from "./types";
import { STEPS } from "./types";
import { HUE_WHEEL, place, steps, wrap } from "./pace";

/** Columns of march a second. */
const RATE = 10;
/** Lit columns are this far apart. */
const GAP = 3;

const theaterChase: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => {
    // For each column a light can start from, the palette position of its colour.
    const at = new Uint8Array(w);
    for (let x = 0; x < w; x++) at[x] = place(Math.floor((x * STEPS) / w));
    return {
      draw: (g, t, ink) => {
        const s = steps(t, RATE);
        g.setColor(0);
        g.fillRect(0, 0, w - 1, h - 1);
        // Each lit column, and the column its light started from.
        let from = wrap((s % GAP) - s, w);
        for (let x = s % GAP; x < w; x += GAP) {
          g.setColor(ink.tone(at[from]));
          g.fillRect(x, 0, x, h - 1);
          from += GAP;
          if (from >= w) from -= w;
        }
      },
    };
  },
};
export default theaterChase;
