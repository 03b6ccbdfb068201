// Matrix: green trails falling down every column, each led by a pale head and fading behind it.
// Every column has its own drops (one or two a round, each of its own length, at places of its
// own); all fall one row a step, so the rain is one tall picture, made once, that slides down
// and wraps. A frame paints its window of that picture (two runs of rows) through a table of
// seven colours: fixed ones, the palette plays no part.
import type { EffectModule } from "./types";
import { scatter } from "./scatter";
import { scaleWire, steps, wrap } from "./pace";
import { paintRows, setColour } from "./indexed";

/** Rows of fall a second, the pace of the other effects' pixel of travel. */
const RATE = 10;
/** Rows of the picture: a column's drops come round every ROUND steps. */
const ROUND = 24;
/** Trail colour and the head's. */
const GREEN = 0x00ff30;
const HEAD = 0xc0ffc0;
/** Trail shades, brightest first (index 1 is the pixel behind the head), each this much of the one before. */
const SHADES = 5;
const FADE = 0.7;
/** Drop lengths, head included: MIN_DROP .. MIN_DROP + DROP_RANGE - 1. */
const MIN_DROP = 3;
const DROP_RANGE = 6;
const SEED = 0x6d617472;

/**
 * The rain of a page `w` wide as a picture of `rows` rows, `bits` a pixel (indexed.ts): index 0
 * is black, 1 .. SHADES the trail's shades, SHADES + 1 a head.
 */
function rain(w: number, rows: number, bits: number): Uint8Array {
  const pic = new Uint8Array((rows * w * bits) >> 3);
  for (let x = 0; x < w; x++) {
    // Half the columns get a second drop half a round after the first, where they cannot meet.
    const drops = 1 + scatter(x, SEED + 2, 2);
    for (let d = 0; d < drops; d++) {
      const at = scatter(x, SEED, rows) + d * (rows >> 1);
      const length = MIN_DROP + scatter(x, SEED + 1 + 2 * d, DROP_RANGE);
      // The head at picture row `at`, its trail above it, shaded over its own length.
      for (let j = 0; j < length; j++) {
        const v = j ? 1 + Math.floor(((j - 1) * SHADES) / (length - 1)) : SHADES + 1;
        // The index's bits in their place in a 16-bit window from its first byte (a pixel spans
        // at most two bytes). Not a loop over the bits: four loops deep, a module evaluated from
        // Storage keeps a variable for good each time it is made (measured in 2v29).
        const first = (wrap(at - j, rows) * w + x) * bits;
        const window = v << (16 - bits - (first & 7));
        pic[first >> 3] |= window >> 8;
        if ((first & 7) + bits > 8) pic[(first >> 3) + 1] |= window & 255;
      }
    }
  }
  return pic;
}

const matrix: EffectModule = {
  stock: "00FF30 C0FFC0",
  make: (w, h) => {
    const rows = ROUND > 2 * h ? ROUND : 2 * h;
    // Seven indices in 3 bits where a row of them makes whole bytes, else 4 bits or 8.
    const bits = w & 7 ? (w & 1 ? 8 : 4) : 3;
    const pic = rain(w, rows, bits);
    const table = new Uint32Array(SHADES + 2);
    // The graded green and head the table was made from: the shades are worked out again only
    // when the grading changes them.
    let made = -1;
    let head = -1;
    return {
      draw: (g, t, ink) => {
        const green = ink.rgb(GREEN);
        const pale = ink.rgb(HEAD);
        if (green !== made || pale !== head) {
          made = green;
          head = pale;
          setColour(table, SHADES + 1, pale);
          // The shades dim the graded green on the wire: two colours graded a frame, not seven.
          let k = 1;
          for (let level = 1; k <= SHADES; k++, level *= FADE) setColour(table, k, scaleWire(green, level));
        }
        // Frame row y shows picture row y - s: the picture slides down a row a step.
        const s = steps(t, RATE);
        let y = 0;
        while (y < h) {
          const row = wrap(y - s, rows);
          const n = Math.min(h - y, rows - row);
          paintRows(g, pic, table, w, bits, row, y, n);
          y += n;
        }
      },
    };
  },
};
export default matrix;
