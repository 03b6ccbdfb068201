// TheaterChase: every third column lit, the lights marching one column to the right per step,
// the columns between them black. Each light keeps its colour as it marches: the palette is laid
// once along the row of lights and travels with it.
import type { EffectModule } from "./types";
import { STEPS } from "./types";
import { HUE_WHEEL, steps, wrap } from "./pace";

/** Columns of march a second. */
const RATE = 10;
/** Lit columns are this far apart. */
const GAP = 3;

const theaterChase: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => {
    // For each column a light can start from, where its colour is in ink.map(0): the first byte
    // of its palette step (types.ts, Ink.map), so that a frame looks colours up without calls.
    const at = new Uint8Array(w);
    for (let x = 0; x < w; x++) at[x] = 3 * Math.floor((x * STEPS) / w);
    return {
      draw: (g, t, ink) => {
        const s = steps(t, RATE);
        const m = ink.map(0);
        g.setColor(0);
        g.fillRect(0, 0, w - 1, h - 1);
        // Each lit column, and the column its light started from.
        let from = wrap((s % GAP) - s, w);
        for (let x = s % GAP; x < w; x += GAP) {
          const i = at[from];
          g.setColor((m[i] << 16) | (m[i + 1] << 8) | m[i + 2]);
          g.fillRect(x, 0, x, h - 1);
          from += GAP;
          if (from >= w) from -= w;
        }
      },
    };
  },
};
export default theaterChase;
