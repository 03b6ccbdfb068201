// Ripple: a ring grows from the centre of the panel a pixel per step until it has left the
// panel, then the next one starts, in the next colour of the palette.
import type { EffectModule } from "./types";
import { HUE_WHEEL, place, steps } from "./pace";

/** Pixels of growth a second. */
const RATE = 10;
/** Palette steps from one ring's colour to the next. */
const HUE_STEP = 13;

const ripple: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => {
    // The middle pixel (right of and below the middle on an even side).
    const cx = w >> 1;
    const cy = h >> 1;
    // Radii from 0 to the first that passes every corner by more than half a pixel, which shows
    // no ring: the pause before the next one. The farthest corner is the top left.
    const span = Math.ceil(Math.sqrt(cx * cx + cy * cy) + 0.5) + 1;
    return {
      draw: (g, t, ink) => {
        const s = steps(t, RATE);
        g.setColor(0);
        g.fillRect(0, 0, w - 1, h - 1);
        g.setColor(ink.tone(place(Math.floor(s / span) * HUE_STEP)));
        g.drawCircle(cx, cy, s % span);
      },
    };
  },
};
export default ripple;
