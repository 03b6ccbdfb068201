// The swirls: dots streaming along a spiral, inward (SwirlIn) or outward (SwirlOut), their
// colours from the palette travelling with them. The spiral is a path of pixels made once: round
// the page's edge and on inward, two rows or columns between turns, its corners cut so that it
// turns on a diagonal. The dots sit DOT_GAP path pixels apart (43 of them on a 32x8 page) and
// move a path pixel a step.
//
// A frame costs a few dozen native calls: the path is cut into stretches that each take one
// palette colour for the step, and a stretch into straight runs, each filled as a rectangle (16
// on a 32x8 page); then one of DOT_GAP masks blacks out the path pixels between the dots.
import type { Effect } from "./types";
import { steps, wrap } from "./pace";

/** Path pixels a second, the pace of the other effects' pixel of travel. */
const RATE = 10;
/** Path pixels from one dot to the next. */
const DOT_GAP = 3;
/** Stretches of the path that take a colour of their own. */
const STRETCHES = 8;
/**
 * Palette positions (of 256) the colours move a step: on a 32x8 page, whose path is 127 pixels
 * long and carries the palette once, about the dots' pace.
 */
const HUE_STEP = 2;

/**
 * Lays out the spiral on a w x h page: into `masks` (frame m: a set bit for every path pixel
 * that is not a dot when the dots are on the path pixels k with k % DOT_GAP === m) and as runs,
 * returned as five bytes each: x0, y0, x1, y1 and the run's stretch.
 */
function lay(w: number, h: number, masks: Uint8Array): Uint8Array {
  // The path's pixels (y * w + x) from its outer end to its inner end.
  const path: number[] = [];
  const at = (x: number, y: number) => path.push(y * w + x);
  for (let k = 0; ; k++) {
    const x0 = 2 * k;
    const y0 = 2 * k;
    const x1 = w - 1 - 2 * k;
    const y1 = h - 1 - 2 * k;
    if (x1 - x0 < 2 || y1 - y0 < 2) break;
    // The next turn, if there is one, is entered from this one's left side on a diagonal.
    const inner = x1 - x0 >= 6 && y1 - y0 >= 6;
    for (let x = k ? x0 - 1 : x0 + 1; x < x1; x++) at(x, y0);
    for (let y = y0 + 1; y < y1; y++) at(x1, y);
    for (let x = x1 - 1; x > x0; x--) at(x, y1);
    for (let y = y1 - 1; y >= (inner ? y0 + 3 : y0 + 2); y--) at(x0, y);
    if (!inner) break;
  }
  const n = path.length;
  const bytes = masks.length / DOT_GAP;
  const runs: number[] = [];
  for (let k = 0; k < n; k++) {
    const p = path[k];
    const x = p % w;
    const y = Math.floor(p / w);
    const stretch = Math.floor((k * STRETCHES) / n);
    for (let m = 0; m < DOT_GAP; m++) if (k % DOT_GAP !== m) masks[m * bytes + (p >> 3)] |= 0x80 >> (p & 7);
    // On from the run before if in line with it (its row or column, a pixel on) and its stretch.
    const last = runs.length - 5;
    const q = k ? path[k - 1] : -1;
    const inLine = (q - p === 1 || p - q === 1) && Math.floor(q / w) === y ? runs[last + 1] === runs[last + 3] :
      (q - p === w || p - q === w) && runs[last] === runs[last + 2];
    if (k && inLine && runs[last + 4] === stretch) {
      runs[last] = Math.min(runs[last], x);
      runs[last + 1] = Math.min(runs[last + 1], y);
      runs[last + 2] = Math.max(runs[last + 2], x);
      runs[last + 3] = Math.max(runs[last + 3], y);
    } else runs.push(x, y, x, y, stretch);
  }
  return new Uint8Array(runs);
}

/** A swirl on a w x h page whose dots move inward (`inward`) or outward. */
export function makeSwirl(w: number, h: number, inward: boolean): Effect {
  const masks = new Uint8Array(Math.ceil((w * h) / 8) * DOT_GAP);
  const runs = lay(w, h, masks);
  const mask: GraphicsImage = { width: w, height: h, bpp: 1, transparent: 0, buffer: masks.buffer };
  const which = { frame: 0 };
  const dir = inward ? 1 : -1;
  return {
    draw: (g, t, ink) => {
      const s = dir * steps(t, RATE);
      g.setColor(0);
      g.fillRect(0, 0, w - 1, h - 1);
      // A dot set out from path pixel k - s, and the palette lies once along the path: a
      // stretch shows the colour at its middle, moved on with the dots.
      for (let r = 0; r < runs.length; r += 5) {
        g.setColor(ink.tone(((runs[r + 4] + 0.5) * 256) / STRETCHES - s * HUE_STEP));
        g.fillRect(runs[r], runs[r + 1], runs[r + 2], runs[r + 3]);
      }
      which.frame = wrap(s, DOT_GAP);
      g.setColor(0);
      g.drawImage(mask, 0, 0, which);
    },
  };
}
