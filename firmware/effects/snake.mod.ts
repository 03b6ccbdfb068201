// Snake: a six-pixel snake crawling a pixel a step along the rows, left to right, from each
// row's end on to the start of the next and from the last row back to the first. Its colours come
// from the palette, a little further along it at every pixel of crawl (each segment keeps the
// colour it had at the head), brightest at the head, each segment behind a little dimmer.
import type { EffectModule } from "./types";
import { HUE_WHEEL, scaleWire, steps, wrap } from "./pace";

/** Pixels of crawl a second, the pace of the other effects. */
const RATE = 10;
const LENGTH = 6;
/** Palette positions a pixel of crawl: once round the palette in about 85 pixels. */
const HUE_STEP = 3;
/** How much of its brightness each segment behind the head keeps. */
const FADE = 0.8;

const snake: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => {
    const cells = w * h;
    const levels = new Float32Array(LENGTH);
    for (let k = 0; k < LENGTH; k++) levels[k] = Math.pow(FADE, k);
    return {
      draw: (g, t, ink) => {
        const s = steps(t, RATE);
        g.setColor(0);
        g.fillRect(0, 0, w - 1, h - 1);
        // Tail first, so that where the snake crosses itself on a tiny page the head shows.
        for (let k = LENGTH - 1; k >= 0; k--) {
          const at = wrap(s - k, cells);
          g.setPixel(at % w, Math.floor(at / w), scaleWire(ink.tone((s - k) * HUE_STEP), levels[k]));
        }
      },
    };
  },
};
export default snake;
