// Reveal by rank: each pixel of the panel has a rank 0..255 in an 8-bit image, and the new page
// shows where rank < k. A frame turns the ranks into a 1-bit mask through a threshold palette and
// lays the pages through it, nine steps whatever the size:
//   mask = rank < k            (the rank image drawn through a palette of 1s, then 0s)
//   out  = from, black under the mask
//   page = to, black outside the mask
//   out  = page over out, black see-through
// so a black pixel of the new page still covers the old one: it is black in both layers.
//
// The page and the palette both live in the transition's scratch bytes (transitions.ts): the
// palette is filled and used up (mask) before the page is drawn over it, frame after frame.
//
// The ranks come from a fixed shuffle of the panel's tiles (single pixels, blocks or whole
// columns), the same every time. Making them is a script loop over the pixels, about 10 ms for
// 32 x 8 in the Linux build (measured), so a Reveal is made with the transition and its ranks
// are settled a slice at a time before the transition starts (its prepare), never in its frames.
import type { MakeTransition } from "../transitions";

/** Rank steps: a rank image holds 0..LEVELS-1. */
export const LEVELS = 256;

/** Pixels given their rank per call of settle(): about 0.6 ms of script in the Linux build. */
const SLICE = 16;

/** What a reveal draws with, made for one panel size. */
export interface Reveal {
  /** Every pixel's rank (8 bpp, row by row), drawn through the threshold palette. */
  ranks: GraphicsImage;
  /**
   * The palette's bytes (2 an entry): entry v is 1 while v < k, set with two typed-array fills.
   * They are the page's first bytes (when the page is large enough), so the page is drawn only
   * once the mask is made.
   */
  bytes: Uint8Array;
  mask: Graphics;
  /**
   * The mask as an image: with black see-through (transparent 0) its set pixels draw in the
   * current colour, with transparent 1 its clear pixels draw in the background colour (black).
   */
  maskImage: GraphicsImage;
  /** The new page through the mask, drawn into the scratch bytes. */
  page: Graphics;
  pageOver: GraphicsImage;
  /** The ranks being made, or null once every pixel has its rank. */
  making: RankMaking | null;
}

/** The ranks of a reveal while they are made. */
export interface RankMaking {
  /**
   * The shuffle of the tiles: entry i is the tile shown i-th, plus 1. Made from the end; an entry
   * still 0 stands for its own index, so the order needs no pass to set it up.
   */
  order: Uint16Array;
  /** The entry of the order settled next, counting down. */
  next: number;
  /** The shuffle's xorshift state. */
  x: number;
  rank: Uint8Array;
  width: number;
  height: number;
  tileW: number;
  tileH: number;
  /** Tiles in a row. */
  across: number;
}

/**
 * A reveal for a panel w x h whose tiles (tileW x tileH pixels; the last row and column may be
 * cut) come in the shuffle `seed` makes, drawing its page in `scratch` (w x h x 3 bytes).
 * Allocates everything else its frames draw with; its ranks are then made by settle().
 */
export function makeReveal(w: number, h: number, tileW: number, tileH: number, seed: number, scratch: ArrayBuffer): Reveal {
  const across = Math.ceil(w / tileW);
  const tiles = across * Math.ceil(h / tileH);
  const rank = new Uint8Array(w * h);
  // A panel under 22 columns has too few scratch bytes for the palette: it gets its own.
  const bytes = scratch.byteLength >= 2 * LEVELS ? new Uint8Array(scratch, 0, 2 * LEVELS) : new Uint8Array(2 * LEVELS);
  const palette = new Uint16Array(bytes.buffer, 0, LEVELS);
  const mask = Graphics.createArrayBuffer(w, h, 1, { msb: true });
  const page = Graphics.createArrayBuffer(w, h, 24, { buffer: scratch });
  page.setBgColor(0);
  return {
    ranks: { width: w, height: h, bpp: 8, buffer: rank.buffer, palette: palette },
    bytes: bytes,
    mask: mask,
    maskImage: { width: w, height: h, bpp: 1, buffer: mask.buffer, transparent: 0 },
    page: page,
    pageOver: { width: w, height: h, bpp: 24, buffer: scratch, transparent: 0 },
    making: {
      order: new Uint16Array(tiles),
      next: tiles - 1,
      x: seed,
      rank: rank,
      width: w,
      height: h,
      tileW: tileW,
      tileH: tileH,
      across: across,
    },
  };
}

/**
 * Settles the next few tiles of the order (a Fisher-Yates shuffle from the end, driven by
 * xorshift): the tile shown i-th is final once entry i is, and its pixels get the rank
 * floor(i * LEVELS / tiles). True once every pixel has its rank; what only the making needed is
 * dropped then (the order too, unless its transition keeps it).
 */
export function settle(r: Reveal): boolean {
  const m = r.making;
  if (!m) return true;
  const order = m.order;
  const tiles = order.length;
  const w = m.width;
  const h = m.height;
  const tileW = m.tileW;
  const tileH = m.tileH;
  const across = m.across;
  const rank = m.rank;
  let i = m.next;
  let x = m.x;
  // About SLICE pixels a call, whole tiles: typed-array stores, no calls (a call costs several).
  const stop = i - Math.ceil(SLICE / (tileW * tileH));
  for (; i >= 0 && i > stop; i--) {
    let j = 0;
    if (i > 0) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      j = (x >>> 0) % (i + 1);
    }
    const tile = (order[j] || j + 1) - 1;
    order[j] = order[i] || i + 1;
    order[i] = tile + 1;
    const v = Math.floor((i * LEVELS) / tiles);
    const tx = tile % across;
    const x1 = tx * tileW;
    const top = ((tile - tx) / across) * tileH;
    const cols = x1 + tileW < w ? tileW : w - x1;
    const rows = top + tileH < h ? tileH : h - top;
    for (let p = top * w + x1, y = 0; y < rows; y++, p += w) for (let c = 0; c < cols; c++) rank[p + c] = v;
  }
  m.next = i;
  m.x = x;
  if (i >= 0) return false;
  r.making = null;
  return true;
}

/** Shows `to` where the rank is below k (0..LEVELS) and `from` elsewhere; the ranks are made. */
export function revealBelow(out: Graphics, from: GraphicsImage, to: GraphicsImage, r: Reveal, k: number): void {
  if (k <= 0 || k >= LEVELS) {
    out.drawImage(k <= 0 ? from : to, 0, 0);
    return;
  }
  // A 1-bit mask keeps only the low bit of a palette entry, so 0x0101 sets it. The palette is
  // used up by the mask before the page is drawn over its bytes.
  const bytes = r.bytes;
  bytes.fill(1, 0, 2 * k);
  bytes.fill(0, 2 * k);
  r.mask.drawImage(r.ranks, 0, 0);
  const mask = r.maskImage;
  out.drawImage(from, 0, 0);
  out.setColor(0);
  mask.transparent = 0;
  out.drawImage(mask, 0, 0);
  r.page.drawImage(to, 0, 0);
  mask.transparent = 1;
  r.page.drawImage(mask, 0, 0);
  out.drawImage(r.pageOver, 0, 0);
}

/** A transition that reveals the new page in tiles of tileW x tileH, in the order `seed` shuffles. */
export function shuffledReveal(tileW: number, tileH: number, seed: number): MakeTransition {
  return (w, h, scratch) => {
    const r = makeReveal(w, h, tileW, tileH, seed, scratch);
    return {
      prepare: () => settle(r),
      draw: (out, from, to, t) => revealBelow(out, from, to, r, Math.round(t * LEVELS)),
    };
  };
}
