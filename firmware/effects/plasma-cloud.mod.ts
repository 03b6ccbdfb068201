// PlasmaCloud: Plasma's calm sibling. Broader, smoother shapes (one wave across the panel), only
// a third of the palette on screen at a time, and that band drifting round the palette slowly,
// at less than half Plasma's pace.
import type { EffectModule } from "./types";
import { STEPS } from "./types";
import { drawField, makeField } from "./field";
import { HUE_WHEEL, steps } from "./pace";

/** Palette steps a second: the band goes once round the palette in about 10 s. */
const RATE = 8;
/** Steps per pixel of drift, across and down: a pixel every 0.75 s and 2 s. */
const PAN_X = 6;
const PAN_Y = 16;
/** Palette steps between the lowest and the highest point of the cloud: a third of the palette. */
const BAND = Math.round(STEPS / 3);

const plasmaCloud: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => {
    // Two sines in -1.6 .. 1.6, spread over the band.
    const f = makeField(w, h, (u, v) => ((Math.sin(u) + 0.6 * Math.sin(u - v) + 1.6) * BAND) / 3.2);
    return {
      draw: (g, t, ink) => {
        const s = steps(t, RATE);
        drawField(g, f, ink, s, Math.floor(s / PAN_X) + w * Math.floor(s / PAN_Y));
      },
    };
  },
};
export default plasmaCloud;
