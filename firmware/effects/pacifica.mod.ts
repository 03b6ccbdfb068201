// Pacifica: ocean swell. Two crossing wave trains, made once, roll sideways a pixel every other
// step while the palette (stock: deep blue rising to a pale teal crest and back) turns a step at
// a time, so crests swell and sink as they travel.
import type { EffectModule } from "./types";
import { STEPS } from "./types";
import { drawField, makeField } from "./field";
import { steps } from "./pace";

/** Palette steps a second. */
const RATE = 12;
/** Steps per pixel of roll: six pixels a second. */
const PAN_X = 2;
/** Palette steps between a trough and a crest: the swell spans half the palette. */
const SWELL = Math.round(STEPS / 2);

const pacifica: EffectModule = {
  // Sixteen stops, one per entry, rising to the crest at entry 8 and falling back to entry 0.
  stock: "000814 00101E 00182D 00233F 003050 004062 005573 107088 50B4B4 107088 005573 004062 003050 00233F 00182D 00101E",
  make: (w, h) => {
    // Sum in -1.6 .. 1.6: two waves across the panel leaning one way, a longer one leaning the other.
    const f = makeField(w, h, (u, v) => ((Math.sin(2 * u + v) + 0.6 * Math.sin(u - v) + 1.6) * SWELL) / 3.2);
    return {
      draw: (g, t, ink) => {
        const s = steps(t, RATE);
        drawField(g, f, ink, s, Math.floor(s / PAN_X));
      },
    };
  },
};
export default pacifica;
