// Radar: a line from the centre of the panel sweeping round clockwise, trailed by fainter copies
// of where it just was. The line takes the top of the palette and each copy behind it a colour
// further down: the stock palette (black to green) gives a bright beam fading into the dark.
import type { EffectModule } from "./types";
import { place, steps } from "./pace";

/** Steps a second: a turn of 64 steps takes 4 s (at 16 pixels out a step is a pixel and a half). */
const RATE = 16;
/** Steps in a turn. */
const TURN = 64;
/** Copies behind the beam. */
const TRAIL = 4;
/** Palette step of the beam: the last before entry 15, past which the palette turns back to entry 0. */
const BEAM = 79;
/** Palette steps from one copy to the next one behind it. */
const FADE = 16;

const radar: EffectModule = {
  stock: "000000 003000 00FF00",
  make: (w, h) => {
    // A pixel at the middle (right of and below it on an even side): from a whole-pixel centre
    // the ends of the line never fall on a half pixel, where rounding would hang on the last bit
    // of a sine.
    const cx = w >> 1;
    const cy = h >> 1;
    // Long enough to reach past every edge: Graphics clips the rest.
    const reach = w + h;
    return {
      draw: (g, t, ink) => {
        const s = steps(t, RATE);
        g.setColor(0);
        g.fillRect(0, 0, w - 1, h - 1);
        // Oldest copy first, the beam last and on top.
        for (let k = TRAIL; k >= 0; k--) {
          const a = (2 * Math.PI * (s - k)) / TURN;
          g.setColor(ink.tone(place(BEAM - k * FADE)));
          g.drawLine(cx, cy, Math.round(cx + reach * Math.sin(a)), Math.round(cy - reach * Math.cos(a)));
        }
      },
    };
  },
};
export default radar;
