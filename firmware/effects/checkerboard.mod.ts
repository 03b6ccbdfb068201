// Checkerboard: 2x2 cells, alternately lit and black, every cell turning over at each step. A
// lit cell takes the palette colour of its column (the palette once across the panel), moved
// on a little at each step.
//
// The lit cells of one row of cells are painted into a strip (two pixels high, one cell wider
// than the panel) and the strip is drawn once per row of cells, every other row a cell to the
// left: that shift is what makes the rows alternate. A frame is a dozen fills and a few images.
import type { EffectModule } from "./types";
import { STEPS } from "./types";
import { HUE_WHEEL, steps } from "./pace";

/** Turns a second. Each one changes every pixel, so fewer than the steps of a travelling effect. */
const RATE = 2;
/** Side of a cell in pixels. */
const CELL = 2;
/** Palette steps the colours move on per turn. */
const HUE_STEP = 3;

const checkerboard: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => {
    const sw = w + CELL;
    const strip = Graphics.createArrayBuffer(sw, CELL, 24);
    const image: GraphicsImage = { width: sw, height: CELL, bpp: 24, buffer: strip.buffer };
    // The palette step of each cell of the strip at step 0: the palette once across the panel.
    const cells = Math.ceil(sw / CELL);
    const hue = new Uint8Array(cells);
    for (let k = 0; k < cells; k++) hue[k] = Math.floor((k * CELL * STEPS) / w) % STEPS;
    return {
      draw: (g, t, ink) => {
        const s = steps(t, RATE);
        const on = (s * HUE_STEP) % STEPS;
        strip.setColor(0);
        strip.fillRect(0, 0, sw - 1, CELL - 1);
        // Cell k of the strip is lit when k + s is even.
        for (let k = s & 1; k < cells; k += 2) {
          let p = hue[k] + on;
          if (p >= STEPS) p -= STEPS;
          // Step p's colour, at its palette position (pace.ts place, written out).
          strip.setColor(ink.tone(Math.ceil((p * 256) / STEPS)));
          strip.fillRect(k * CELL, 0, k * CELL + CELL - 1, CELL - 1);
        }
        for (let r = 0; r * CELL < h; r++) g.drawImage(image, r & 1 ? -CELL : 0, r * CELL);
      },
    };
  },
};
export default checkerboard;
