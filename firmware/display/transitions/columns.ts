// Transitions where every column moves on a clock of its own. Columns start one after another
// (slot 0 first) and all move at the same rate, so the last one still lands exactly at t = 1.
// Rather than looking at every column, a frame works out from t which slots have reached which
// offset: the counts come straight from inverting the column clock.
import { unclip, shuffle } from "./common";
import { rankOrder, revealBelow, LEVELS } from "./mask";

/** Rain: the column that starts in each slot, a fixed shuffle made once per panel width. */
let rainColumn = new Uint8Array(0);

/** Rain's rank image: every pixel of a column holds the rank of its start slot. */
const rainRanks = rankOrder((ranks, w, h) => {
  for (let s = 0; s < w; s++) ranks[rainColumn[s]] = Math.floor((s * LEVELS) / w);
  for (let y = 1; y < h; y++) ranks.set(ranks.subarray(0, w), y * w);
});

/**
 * Slots (of w, starting evenly over 1 - fall, each moving for `fall`) whose progress has reached
 * c (0..1) at time t; `rate` is (w - 1) / (1 - fall).
 */
function reached(t: number, w: number, fall: number, rate: number, c: number): number {
  const n = Math.floor((t - fall * c) * rate) + 1;
  return n < 0 ? 0 : n > w ? w : n;
}

/**
 * Every column rolls the new page in from the top (reverse: from the bottom), in a fixed
 * shuffled order. Columns not started or landed come through the rank mask in one go; only the
 * few on their way are drawn one by one. A column takes long enough to roll visibly, short
 * enough that about eight are on their way at once on any width.
 */
export function rain(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const w = from.width;
  const h = from.height;
  if (rainColumn.length !== w) {
    rainColumn = new Uint8Array(w);
    shuffle(rainColumn, w, 0x51ed270b);
  }
  const fall = 8 / (w + 8);
  const rate = (w - 1) / (1 - fall);
  const landed = reached(t, w, fall, rate, (h - 0.5) / h);
  const started = reached(t, w, fall, rate, 0.5 / h);
  revealBelow(out, from, to, rainRanks, landed < w ? Math.floor((landed * LEVELS) / w) : LEVELS);
  if (started === landed) return;
  const dir = reverse ? -1 : 1;
  // Rows rolled by slot s: round(h * (t - s / rate) / fall), as at + s * ds.
  const at = (t * h) / fall;
  const ds = -h / (fall * rate);
  for (let s = landed; s < started; s++) {
    const d = Math.round(at + s * ds);
    const x = rainColumn[s];
    out.setClipRect(x, 0, x, h - 1);
    out.drawImage(to, 0, dir * (d - h));
    out.drawImage(from, 0, dir * d);
  }
  unclip(out, from);
}

/** Share of Melt's duration one column takes to drip off. */
const MELT_FALL = 0.4;

/**
 * Column after column from the left (reverse: from the right), the old page drips off the bottom,
 * faster as it falls, and leaves the new page standing. Neighbouring columns that have dropped
 * by the same number of rows are drawn together: at most one box per row offset.
 */
export function melt(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const w = from.width;
  const h = from.height;
  const rate = (w - 1) / (1 - MELT_FALL);
  out.drawImage(to, 0, 0);
  // Slots [below, above) have dropped by d rows; the drop is round(h * c^2) at progress c.
  let above = w;
  for (let d = 0; d < h && above > 0; d++) {
    const below = reached(t, w, MELT_FALL, rate, Math.sqrt((d + 0.5) / h));
    if (below < above) {
      if (reverse) out.setClipRect(w - above, 0, w - 1 - below, h - 1);
      else out.setClipRect(below, 0, above - 1, h - 1);
      out.drawImage(from, 0, d);
    }
    above = below;
  }
  unclip(out, from);
}
