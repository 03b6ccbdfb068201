// frost: a still, irregular crust of ice along the top and bottom edges, brightest at the edge
// and dimmer where it reaches further in. It does not move: every t draws the same frame.
//
// Each column's crust is 0-3 rows deep at either edge (a hash of the column). The crust is made
// once into a glyph font of three glyphs as wide as the page, the pixels 0, 1 and 2 rows in from
// either edge, so a frame is one drawString in each of the three tones.
import type { EffectModule } from "../effects/types";
import { hash } from "../effects/noise";

/** Depth of the crust by the low three bits of a column's hash: mostly one row, now and then none or three. */
const DEPTHS = "01111223";
const TOP = 0xf05;
const BOTTOM = 0xf0b;

/**
 * The crust as Graphics.setFontCustom takes a font (one bit a pixel, column after column, most
 * significant bit first) of three glyphs w x h, from character 32: glyph d holds the crust d rows
 * in from either edge. A function of its own, so that the bytes it builds on are gone once the
 * font is made.
 */
function crust(w: number, h: number, rows: number): string {
  const bits = new Uint8Array((3 * w * h + 7) >> 3);
  for (let x = 0; x < w; x++) {
    const top = +DEPTHS.charAt(hash(x, TOP) & 7);
    const bottom = +DEPTHS.charAt(hash(x, BOTTOM) & 7);
    for (let d = 0; d < rows; d++) {
      // Bits of pixel (x, d) and of pixel (x, h - 1 - d) of glyph d.
      const b = (d * w + x) * h;
      if (d < top) bits[(b + d) >> 3] |= 0x80 >> ((b + d) & 7);
      if (d < bottom) bits[(b + h - 1 - d) >> 3] |= 0x80 >> ((b + h - 1 - d) & 7);
    }
  }
  return E.toString(bits);
}

const frost: EffectModule = {
  // Tones (weather.ts: dim, middle, bright): the crust's inner, middle and edge rows.
  stock: "3C78B4@0 3C78B4@30 8CC3EB@40 8CC3EB@60 E6F5FF@70 E6F5FF@100",
  make: (w, h) => {
    // Never more than half the panel from each edge, so the two crusts do not meet.
    const rows = Math.min(3, h >> 1);
    const font = crust(w, h, rows);
    return {
      draw: (g, t, ink) => {
        g.setFontAlign(-1, -1, 0);
        g.setFontCustom(font, 32, w, h);
        // The bright tone at the edge, then the middle and the dim one (glyphs " ", "!", "\"").
        if (rows > 0) {
          g.setColor(ink.tone(192));
          g.drawString(" ", 0, 0);
        }
        if (rows > 1) {
          g.setColor(ink.tone(128));
          g.drawString("!", 0, 0);
        }
        if (rows > 2) {
          g.setColor(ink.tone(64));
          g.drawString("\"", 0, 0);
        }
        // Back to the built-in font, which lets go of the crust's glyphs.
        g.setFont("4x6");
      },
    };
  },
};
export default frost;
