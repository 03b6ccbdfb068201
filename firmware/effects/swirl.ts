// The swirls: dots streaming along a spiral, inward (SwirlIn) or outward (SwirlOut), their
// colours from the palette travelling with them. The spiral is a path of pixels made once: round
// the page's edge and on inward, two rows or columns between turns, its corners cut so that it
// turns on a diagonal. The dots sit DOT_GAP path pixels apart (43 of them on a 32x8 page) and
// move a path pixel a step.
//
// A frame costs a dozen or two native calls: the path is cut into stretches that each take one
// palette colour for the step, each stretch a glyph of a font as large as the page, drawn in its
// colour with one drawString (a font's pixels take the full colour, where a one-bit image keeps
// only 16 bits of it); then one of DOT_GAP masks blacks out the path pixels between the dots.
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
 * that is not a dot when the dots are on the path pixels k with k % DOT_GAP === m) and into the
 * font it returns, as Graphics.setFontCustom takes it (one bit a pixel, column after column, most
 * significant bit first): STRETCHES glyphs w x h from character 32, glyph i holding the path
 * pixels of stretch i.
 */
function lay(w: number, h: number, masks: Uint8Array): string {
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
  const glyphs = new Uint8Array((STRETCHES * w * h + 7) >> 3);
  for (let k = 0; k < n; k++) {
    const p = path[k];
    for (let m = 0; m < DOT_GAP; m++) if (k % DOT_GAP !== m) masks[m * bytes + (p >> 3)] |= 0x80 >> (p & 7);
    const b = (Math.floor((k * STRETCHES) / n) * w + (p % w)) * h + Math.floor(p / w);
    glyphs[b >> 3] |= 0x80 >> (b & 7);
  }
  return E.toString(glyphs);
}

/** A swirl on a w x h page whose dots move inward (`inward`) or outward. */
export function makeSwirl(w: number, h: number, inward: boolean): Effect {
  const masks = new Uint8Array(Math.ceil((w * h) / 8) * DOT_GAP);
  const font = lay(w, h, masks);
  const mask: GraphicsImage = { width: w, height: h, bpp: 1, transparent: 0, buffer: masks.buffer };
  const which = { frame: 0 };
  const dir = inward ? 1 : -1;
  // The stretches' glyphs in a row (STRETCHES characters from 32): drawn from x = -i * w, glyph i
  // is the one on the page.
  const row = " !\"#$%&'";
  return {
    draw: (g, t, ink) => {
      const s = dir * steps(t, RATE);
      g.setColor(0);
      g.fillRect(0, 0, w - 1, h - 1);
      g.setFontAlign(-1, -1, 0);
      g.setFontCustom(font, 32, w, h);
      // A dot set out from path pixel k - s, and the palette lies once along the path: a
      // stretch shows the colour at its middle, moved on with the dots.
      for (let i = 0; i < STRETCHES; i++) {
        g.setColor(ink.tone(((i + 0.5) * 256) / STRETCHES - s * HUE_STEP));
        g.drawString(row, -i * w, 0);
      }
      // Back to the built-in font, which lets go of the path's glyphs.
      g.setFont("4x6");
      which.frame = wrap(s, DOT_GAP);
      g.setColor(0);
      g.drawImage(mask, 0, 0, which);
    },
  };
}
