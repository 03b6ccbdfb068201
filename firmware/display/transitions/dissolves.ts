// Dissolves: the new page appears pixel by pixel (Pixelate) or tile by tile (Blocks), always in
// the same shuffled order, linearly in time.
import { shuffle } from "./common";
import { rankOrder, revealBelow, LEVELS } from "./mask";

/** Ranks tiles of tileW x tileH pixels in a fixed shuffled order; a tile's pixels share its rank. */
function tileRanks(ranks: Uint8Array, w: number, h: number, tileW: number, tileH: number, seed: number): void {
  const across = Math.ceil(w / tileW);
  const down = Math.ceil(h / tileH);
  const tiles = across * down;
  const order = new Uint16Array(tiles);
  shuffle(order, tiles, seed);
  // order[i] is the tile to show i-th: rank i, scaled to 0..LEVELS-1. Single pixels are done.
  const tileRank = tiles === w * h ? ranks : new Uint8Array(tiles);
  for (let i = 0; i < tiles; i++) tileRank[order[i]] = Math.floor((i * LEVELS) / tiles);
  if (tileRank === ranks) return;
  // Otherwise spread each row of tiles over the top pixel row, then copy that row down.
  for (let ty = 0; ty < down; ty++) {
    const top = ty * tileH * w;
    for (let tx = 0; tx < across; tx++) {
      const x = tx * tileW;
      ranks.fill(tileRank[ty * across + tx], top + x, top + (x + tileW < w ? x + tileW : w));
    }
    for (let y = ty * tileH + 1; y < (ty + 1) * tileH && y < h; y++) ranks.set(ranks.subarray(top, top + w), y * w);
  }
}

const byPixel = rankOrder((ranks, w, h) => tileRanks(ranks, w, h, 1, 1, 0x2f6b1d35));
const byBlock = rankOrder((ranks, w, h) => tileRanks(ranks, w, h, 4, 2, 0x7a3c9e11));

/** Pixel by pixel, in a fixed shuffled order. */
export function pixelate(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  revealBelow(out, from, to, byPixel, Math.round(t * LEVELS));
}

/** Tile by tile (4 x 2 pixels), in a fixed shuffled order. */
export function blocks(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  revealBelow(out, from, to, byBlock, Math.round(t * LEVELS));
}
