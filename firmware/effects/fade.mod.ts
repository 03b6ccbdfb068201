// Fade: the whole panel in one colour, breathing: it brightens and dims again, smoothly, never
// quite to black. Each breath takes the next colour of the palette (the stock palette is one dark
// blue, so the stock look is a slow blue breath).
import type { EffectModule } from "./types";
import { STEPS } from "./types";
import { place, scaleWire, steps } from "./pace";

/** Brightness levels a second: a breath of 64 levels (32 up, 32 down) takes 4 s. */
const RATE = 16;
/** Steps in a breath. */
const BREATH = 64;
/** Level at the bottom of a breath. */
const FLOOR = 0.12;
/** Entries of the palette: each breath takes the next. */
const ENTRIES = 16;

const fade: EffectModule = {
  stock: "0C24A0",
  make: (w, h) => ({
    draw: (g, t, ink) => {
      const s = steps(t, RATE);
      const n = Math.floor(s / BREATH);
      // A cosine from the bottom up to full and down again; squared, as brightness is seen.
      const c = (1 - Math.cos((2 * Math.PI * (s - n * BREATH)) / BREATH)) / 2;
      // The first step at or past entry n (of 16 spread over 85 steps): with blending off, entry n.
      g.setColor(scaleWire(ink.tone(place(Math.ceil((n * STEPS) / ENTRIES))), FLOOR + (1 - FLOOR) * c * c));
      g.fillRect(0, 0, w - 1, h - 1);
    },
  }),
};
export default fade;
