// An icon's source bytes (a GIF or a JPEG) turned into the form the clock keeps in Storage and
// draws from (icons/icon.ts): loaded only when an icon has no valid cached form yet.
//
// The cached form, all numbers little-endian:
//   0  "IC", 2  format 1, 3  width, 4  height, 5  colour count C (0: the source does not decode;
//      icon.ts then keeps the 12-byte header alone),
//   6  frame count F (2 bytes), 8  CRC32 of the source bytes (4 bytes),
//   12 F delays in centiseconds (2 bytes each, never 0),
//   then C colours (R, G, B), then F frames of width * height "position triplets": a pixel of
//   colour i is the three bytes 3i, 3i+1, 3i+2, so that one E.mapInPlace through a 256-byte map
//   whose byte 3i+c is channel c of colour i (graded) turns a frame into a 24 bpp image.
// A byte must hold 3i+2, hence at most 85 colours. An icon with more is reduced by cutting boxes
// of its distinct colours, each weighted by the pixels that show it (median cut, with the cut at
// the weighted mean rather than the median: one pass over a box finds it): the box with the
// widest range in one channel is cut there until there are 85 boxes, and each box becomes the
// weighted mean of its colours. Pixels of one colour stay of one colour, and the many pixels of
// the common colours pull the means their way.
//
// Cost, measured in the Linux interpreter (test/unit/icons-espruino.test.ts): the module holds
// about 230 variables while loaded; a 1 KB animated GIF (8 frames of 8x8) decodes in about 35 ms
// and needs about 440 free variables more while it does.
import { colorIndex, decodeGif, newColorSet, type Frames } from "./gif";
import { decodeJpeg, JPEG_SIDE } from "./jpeg";

declare const Uint24Array: { new (buffer: ArrayBuffer | number, offset?: number, length?: number): Uint8Array } | undefined;

const HEADER = 12;
const MAX_COLORS = 85;

/** A JPEG's 64 pixels as a single frame. */
function jpegFrames(rgb: Uint32Array): Frames {
  const set = newColorSet();
  const pixels = new Uint8Array(rgb.length);
  for (let i = 0; i < rgb.length; i++) pixels[i] = colorIndex(set, rgb[i]);
  const delays = new Uint16Array(1);
  delays[0] = 10;
  return { width: JPEG_SIDE, height: JPEG_SIDE, count: 1, delays, pixels, colors: set.colors, ncolors: set.n };
}

/**
 * Box k of a cut (items[from[k]..to[k]) of the colours whose channels are ch[0..n), ch[n..2n),
 * ch[2n..3n)): its widest channel in axis[k] (0 red, 1 green, 2 blue), that channel's range in
 * spread[k], and the weighted mean along it in cut[k].
 */
function measure(k: number, ch: Uint8Array, n: number, weight: Uint16Array, items: Uint16Array, from: Uint16Array, to: Uint16Array,
  spread: Int16Array, axis: Uint8Array, cut: Uint8Array): void {
  let r0 = 255;
  let r1 = 0;
  let g0 = 255;
  let g1 = 0;
  let b0 = 255;
  let b1 = 0;
  let r = 0;
  let g = 0;
  let b = 0;
  let w = 0;
  const n2 = n + n;
  for (let i = from[k]; i < to[k]; i++) {
    const it = items[i];
    const cw = weight[it];
    const cr = ch[it];
    const cg = ch[n + it];
    const cb = ch[n2 + it];
    if (cr < r0) r0 = cr;
    if (cr > r1) r1 = cr;
    if (cg < g0) g0 = cg;
    if (cg > g1) g1 = cg;
    if (cb < b0) b0 = cb;
    if (cb > b1) b1 = cb;
    r += cr * cw;
    g += cg * cw;
    b += cb * cw;
    w += cw;
  }
  if (g1 - g0 >= r1 - r0 && g1 - g0 >= b1 - b0) {
    axis[k] = 1;
    spread[k] = g1 - g0;
    cut[k] = Math.floor(g / w);
  } else if (r1 - r0 >= b1 - b0) {
    axis[k] = 0;
    spread[k] = r1 - r0;
    cut[k] = Math.floor(r / w);
  } else {
    axis[k] = 2;
    spread[k] = b1 - b0;
    cut[k] = Math.floor(b / w);
  }
}

/**
 * Cuts the n colours (with their pixel counts) into at most MAX_COLORS boxes: writes each
 * colour's box to `box` and each box's weighted mean colour to `out`; returns the number of boxes.
 */
function reduce(colors: Uint32Array, weight: Uint16Array, n: number, box: Uint8Array, out: Uint32Array): number {
  const items = new Uint16Array(n);
  const ch = new Uint8Array(3 * n);
  for (let i = 0; i < n; i++) {
    items[i] = i;
    ch[i] = colors[i] >> 16;
    ch[n + i] = (colors[i] >> 8) & 255;
    ch[2 * n + i] = colors[i] & 255;
  }
  const from = new Uint16Array(MAX_COLORS);
  const to = new Uint16Array(MAX_COLORS);
  const spread = new Int16Array(MAX_COLORS);
  const axis = new Uint8Array(MAX_COLORS);
  const cut = new Uint8Array(MAX_COLORS);
  let boxes = 1;
  to[0] = n;
  measure(0, ch, n, weight, items, from, to, spread, axis, cut);
  while (boxes < MAX_COLORS) {
    let k = 0;
    let widest = spread[0];
    for (let j = 1; j < boxes; j++) {
      if (spread[j] > widest) {
        k = j;
        widest = spread[j];
      }
    }
    if (widest <= 0) break;
    // Colours at or below the mean go first: the mean lies strictly between the smallest and
    // the largest value, so both halves keep a colour.
    const at = axis[k] * n;
    const m = cut[k];
    let i = from[k];
    let j = to[k] - 1;
    while (i <= j) {
      if (ch[at + items[i]] <= m) i++;
      else {
        const t = items[i];
        items[i] = items[j];
        items[j--] = t;
      }
    }
    from[boxes] = i;
    to[boxes] = to[k];
    to[k] = i;
    measure(k, ch, n, weight, items, from, to, spread, axis, cut);
    measure(boxes, ch, n, weight, items, from, to, spread, axis, cut);
    boxes++;
  }
  for (let k = 0; k < boxes; k++) {
    let r = 0;
    let g = 0;
    let b = 0;
    let w = 0;
    for (let i = from[k]; i < to[k]; i++) {
      const it = items[i];
      const cw = weight[it];
      r += ch[it] * cw;
      g += ch[n + it] * cw;
      b += ch[2 * n + it] * cw;
      w += cw;
      box[it] = k;
    }
    out[k] = (Math.round(r / w) << 16) | (Math.round(g / w) << 8) | Math.round(b / w);
  }
  return boxes;
}

/**
 * The cached form of an icon's source bytes (a GIF, else a JPEG), or null when they do not
 * decode into an icon.
 */
export default function decodeIcon(src: string): string | null {
  let f: Frames | null = null;
  if (src.substr(0, 4) === "GIF8") f = decodeGif(src);
  else {
    const rgb = decodeJpeg(src);
    if (rgb) f = jpegFrames(rgb);
  }
  if (!f) return null;
  const pixels = f.pixels;
  const all = f.ncolors;
  const colors = f.colors;
  // Colours in the order the frames first show them, without those no frame shows (black when
  // nothing is transparent), with their pixel counts.
  const order = new Int16Array(all);
  for (let i = 0; i < all; i++) order[i] = -1;
  const weight = new Uint16Array(all);
  let used = 0;
  const length = pixels.length;
  for (let i = 0; i < length; i++) {
    const c = pixels[i];
    if (order[c] < 0) order[c] = used++;
    weight[order[c]]++;
  }
  const palette = new Uint32Array(used < MAX_COLORS ? used : MAX_COLORS);
  const box = new Uint8Array(used);
  const distinct = new Uint32Array(used);
  for (let i = 0; i < all; i++) if (order[i] >= 0) distinct[order[i]] = colors[i];
  let count = used;
  if (used > MAX_COLORS) count = reduce(distinct, weight, used, box, palette);
  else {
    for (let i = 0; i < used; i++) {
      box[i] = i;
      palette[i] = distinct[i];
    }
  }
  const area = f.width * f.height;
  const frames = HEADER + 2 * f.count + 3 * count;
  const out = new Uint8Array(frames + 3 * area * f.count);
  const crc = E.CRC32(src) >>> 0;
  out[0] = 0x49;
  out[1] = 0x43;
  out[2] = 1;
  out[3] = f.width;
  out[4] = f.height;
  out[5] = count;
  out[6] = f.count & 255;
  out[7] = f.count >> 8;
  out[8] = crc & 255;
  out[9] = (crc >>> 8) & 255;
  out[10] = (crc >>> 16) & 255;
  out[11] = crc >>> 24;
  for (let k = 0; k < f.count; k++) {
    out[HEADER + 2 * k] = f.delays[k] & 255;
    out[HEADER + 2 * k + 1] = f.delays[k] >> 8;
  }
  for (let i = 0; i < count; i++) {
    const at = HEADER + 2 * f.count + 3 * i;
    out[at] = palette[i] >> 16;
    out[at + 1] = (palette[i] >> 8) & 255;
    out[at + 2] = palette[i] & 255;
  }
  // Colour index -> the first byte of its final colour's triplet.
  const first = new Uint8Array(all);
  for (let i = 0; i < all; i++) first[i] = order[i] >= 0 ? 3 * box[order[i]] : 0;
  if (typeof Uint24Array !== "undefined") {
    // Three bytes a pixel written natively: Uint24Array stores the low byte first.
    const map = new Uint24Array(all);
    for (let i = 0; i < all; i++) map[i] = first[i] | ((first[i] + 1) << 8) | ((first[i] + 2) << 16);
    E.mapInPlace(pixels as unknown as Uint8Array, new Uint24Array(out.buffer, frames, pixels.length), map);
  } else {
    for (let i = 0, o = frames; i < pixels.length; i++, o += 3) {
      const t = first[pixels[i]];
      out[o] = t;
      out[o + 1] = t + 1;
      out[o + 2] = t + 2;
    }
  }
  return E.toString(out);
}
