// Reveal by rank: each pixel of the panel has a rank 0..255 in an 8-bit image, and the new page
// shows where rank < k. The ranks are made once per panel size; a frame turns them into a 1-bit
// mask through a threshold palette and lays the pages through it, nine steps whatever the size:
//   mask = rank < k            (the rank image drawn through a palette of 1s, then 0s)
//   out  = from, black under the mask
//   page = to, black outside the mask
//   out  = page over out, black see-through
// so a black pixel of the new page still covers the old one: it is black in both layers.

/** Rank steps: a rank image holds 0..LEVELS-1. */
export const LEVELS = 256;

/** Writes the rank of every pixel, row by row, for a panel w x h. */
export type RankFill = (ranks: Uint8Array, w: number, h: number) => void;

/** One order of reveal: how to rank the pixels, and the ranks made for the current size. */
export interface RankOrder {
  fill: RankFill;
  /** The ranks made for the panel size in use (kept: they take a while to make), row by row. */
  ranks: Uint8Array | null;
  width: number;
}

export function rankOrder(fill: RankFill): RankOrder {
  return { fill: fill, ranks: null, width: 0 };
}

/** What a frame draws with, shared by every order, made for one panel size. */
interface Scratch {
  width: number;
  height: number;
  mask: Graphics;
  /** The mask's set pixels, drawn in the current colour. */
  maskSet: GraphicsImage;
  /** The mask's clear pixels, drawn in the background colour (black). */
  maskClear: GraphicsImage;
  page: Graphics;
  pageOver: GraphicsImage;
  /** The rank image of the order in use: its buffer is pointed at that order's ranks. */
  ranks: GraphicsImage;
}

let scratch: Scratch | null = null;

/** Threshold palette of every rank image: entry v is 1 while v < k. Made on first use. */
let palette: Uint16Array | null = null;
/** The palette's bytes (2 an entry), which a typed-array fill can set in one go. */
let paletteBytes: Uint8Array | null = null;

function makeScratch(w: number, h: number): Scratch {
  const mask = Graphics.createArrayBuffer(w, h, 1, { msb: true });
  const page = Graphics.createArrayBuffer(w, h, 24);
  page.setBgColor(0);
  return {
    width: w,
    height: h,
    mask: mask,
    maskSet: { width: w, height: h, bpp: 1, buffer: mask.buffer, transparent: 0 },
    maskClear: { width: w, height: h, bpp: 1, buffer: mask.buffer, transparent: 1 },
    page: page,
    pageOver: { width: w, height: h, bpp: 24, buffer: page.buffer, transparent: 0 },
    ranks: { width: w, height: h, bpp: 8, buffer: "" },
  };
}

/**
 * Frees what the frames drew with (mask, page, palette) once a transition is over: about a
 * hundred variables on 32x8. The rank images stay, as they take a while to make.
 */
export function releaseScratch(): void {
  scratch = null;
  palette = null;
  paletteBytes = null;
}

function makeRanks(order: RankOrder, w: number, h: number): Uint8Array {
  const ranks = new Uint8Array(w * h);
  order.fill(ranks, w, h);
  order.ranks = ranks;
  order.width = w;
  return ranks;
}

/** Shows `to` where the rank is below k (0..LEVELS) and `from` elsewhere. */
export function revealBelow(out: Graphics, from: GraphicsImage, to: GraphicsImage, order: RankOrder, k: number): void {
  if (k <= 0 || k >= LEVELS) {
    out.drawImage(k <= 0 ? from : to, 0, 0);
    return;
  }
  const w = from.width;
  const h = from.height;
  let s = scratch;
  if (!s || s.width !== w || s.height !== h) s = scratch = makeScratch(w, h);
  let bytes = paletteBytes;
  if (!palette || !bytes) {
    palette = new Uint16Array(LEVELS);
    bytes = paletteBytes = new Uint8Array(palette.buffer);
  }
  let ranks = order.ranks;
  if (!ranks || order.width !== w || ranks.length !== w * h) ranks = makeRanks(order, w, h);
  const image = s.ranks;
  image.buffer = ranks.buffer;
  image.palette = palette;
  // A 1-bit mask keeps only the low bit of a palette entry, so 0x0101 sets it.
  bytes.fill(1, 0, 2 * k);
  bytes.fill(0, 2 * k);
  s.mask.drawImage(image, 0, 0);
  out.drawImage(from, 0, 0);
  out.setColor(0);
  out.drawImage(s.maskSet, 0, 0);
  s.page.drawImage(to, 0, 0);
  s.page.drawImage(s.maskClear, 0, 0);
  out.drawImage(s.pageOver, 0, 0);
}
