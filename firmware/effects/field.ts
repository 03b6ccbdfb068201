// Palette fields: a still picture of palette steps, made once, shown every frame cycled through
// the palette and moved by whole pixels, in one or two E.mapInPlace calls of Ink.map straight
// into the frame's bytes: no copy of the picture is kept beside the field, and a frame costs the
// same few native calls whatever the panel's size.
//
// The picture is a function of the pixel's place in the frame's memory, n = x + w * y (rows top
// to bottom, three bytes a pixel, as the page's frame is laid out), periodic over the w * h
// pixels. Moving it by `o` pixels is then mapping the field from pixel o on, wrapping round to its
// start: the picture moves o pixels to the left, and each whole row of o moves it a row up.
import type { Ink } from "./types";
import { STEPS } from "./types";
import { wrap } from "./pace";

export interface Field {
  /** Position triplets (types.ts, Ink.map): three bytes 3p, 3p+1, 3p+2 per pixel of step p. */
  src: Uint8Array;
}

/**
 * A field for a w x h frame whose pixel n = x + w * y shows palette step `value(u, v, n)`, rounded
 * and wrapped, with u = 2 pi n / w and v = 2 pi n / (w * h). A sum of sines of a * u + b * v
 * (whole a and b) is periodic over the frame, and looks like the same sines of a * x and b * y
 * across the panel (x and y as angles, 2 pi a width or a height), leaning by b / h of a turn from
 * the left edge to the right.
 */
export function makeField(w: number, h: number, value: (u: number, v: number, n: number) => number): Field {
  const count = w * h;
  const src = new Uint8Array(3 * count);
  for (let i = 0; i < count; i++) {
    const p = 3 * wrap(Math.round(value((2 * Math.PI * i) / w, (2 * Math.PI * i) / count, i)), STEPS);
    src[3 * i] = p;
    src[3 * i + 1] = p + 1;
    src[3 * i + 2] = p + 2;
  }
  return { src: src };
}

/**
 * Paints the whole frame `g` (24 bpp, the field's size, not rotated) with field `f` cycled
 * `shift` palette steps on (each pixel takes the colour of its step plus shift) and moved by `o`
 * pixels (pixel n shows field pixel n + o).
 */
export function drawField(g: Graphics, f: Field, ink: Ink, shift: number, o: number): void {
  const src = f.src;
  const frame = new Uint8Array(g.buffer);
  const map = ink.map(shift);
  const at = 3 * wrap(o, src.length / 3);
  if (!at) {
    E.mapInPlace(src, frame, map);
    return;
  }
  // mapInPlace stops at the end of the shorter array.
  E.mapInPlace(src.subarray(at), frame, map);
  E.mapInPlace(src, frame.subarray(src.length - at), map);
}
