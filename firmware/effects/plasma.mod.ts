// Plasma: a full-canvas sine plasma whose colours run through the whole palette, drifting
// diagonally. A still plasma made once (a sum of sines periodic over the panel, spanning the
// palette once from its lowest to its highest point) is cycled through the palette a step at a
// time and panned a pixel every few steps.
import type { EffectModule } from "./types";
import { STEPS } from "./types";
import { drawField, makeField } from "./field";
import { HUE_WHEEL, steps } from "./pace";

/** Palette steps a second: a hue round (85 steps) in a little over 4 s. */
const RATE = 20;
/** Steps per pixel of drift, across and down: a pixel every 0.2 s and 0.5 s. */
const PAN_X = 4;
const PAN_Y = 10;

const plasma: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => {
    // Sum of three sines in -2.5 .. 2.5, spread over the palette once.
    const f = makeField(w, h, (u, v) => ((Math.sin(u) + Math.sin(u + v) + 0.5 * Math.sin(2 * u - v) + 2.5) * STEPS) / 5);
    return {
      draw: (g, t, ink) => {
        const s = steps(t, RATE);
        drawField(g, f, ink, s, Math.floor(s / PAN_X) + w * Math.floor(s / PAN_Y));
      },
    };
  },
};
export default plasma;
