// Transitions that uncover the new page in place behind a moving edge. Each draws the old page,
// then the new one through one clip rect per uncovered box (per side, bar or row), so a frame
// costs the same few dozen calls on any panel width.
import { ease, part, unclip, showColumns } from "./common";

/** The new page opens from both edges toward the centre. */
export function curtain(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  const w = from.width;
  const half = w >> 1;
  const p = ease(t);
  out.drawImage(from, 0, 0);
  showColumns(out, to, 0, part(p, half) - 1);
  showColumns(out, to, w - part(p, w - half), w - 1);
  unclip(out, from);
}

/** The new page opens from the centre outward (Curtain the other way round). */
export function split(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  const w = from.width;
  const half = w >> 1;
  const p = ease(t);
  out.drawImage(from, 0, 0);
  showColumns(out, to, half - part(p, half), half + part(p, w - half) - 1);
  unclip(out, from);
}

/** Always left to right: the old page is swept off to black, then the new one is swept in. */
export function reload(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  const w = from.width;
  if (t < 0.5) {
    out.drawImage(from, 0, 0);
    const gone = part(ease(2 * t), w);
    if (gone > 0) {
      out.setColor(0);
      out.fillRect(0, 0, gone - 1, from.height - 1);
    }
    return;
  }
  showColumns(out, to, 0, part(ease(2 * t - 1), w) - 1);
  unclip(out, from);
}

/** Bars on the panel, so a bar is wider on a wider panel. */
const BARS = 8;

/**
 * Vertical bars of the new page widen from their middles until they meet. Bars are a whole
 * number of pixels wide and at most one more than their slot, so they meet without a gap.
 */
export function blinds(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  const h = from.height;
  const slot = from.width / BARS;
  const shown = Math.ceil(ease(t) * slot);
  out.drawImage(from, 0, 0);
  if (shown <= 0) return;
  let start = (slot - shown) / 2;
  for (let i = 0; i < BARS; i++) {
    const x = Math.round(start);
    out.setClipRect(x, 0, x + shown - 1, h - 1);
    out.drawImage(to, 0, 0);
    start += slot;
  }
  unclip(out, from);
}

/** A column sweep whose edge is bent by a sine that travels as it goes (reverse: from the right). */
export function wave(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const w = from.width;
  const h = from.height;
  // Depth of the bend in columns: an eighth of the panel, at least 4.
  const depth = w >> 3 > 4 ? w >> 3 : 4;
  const p = ease(t);
  const reach = p * (w + depth) - depth / 2;
  const turn = (2 * Math.PI) / h;
  const phase = 2 * Math.PI * p;
  out.drawImage(from, 0, 0);
  for (let y = 0; y < h; y++) {
    let shown = Math.round(reach - (depth / 2) * Math.sin(turn * y + phase));
    if (shown <= 0) continue;
    if (shown > w) shown = w;
    if (reverse) out.setClipRect(w - shown, y, w - 1, y);
    else out.setClipRect(0, y, shown - 1, y);
    out.drawImage(to, 0, 0);
  }
  unclip(out, from);
}

/**
 * The new page shows inside a shape growing from the centre: a circle (round) or a diamond. The
 * shape is symmetric and widest in the middle, so the rows from k down to h-1-k share at least
 * row k's span: one box per pair of rows, outermost first, covers it exactly.
 */
function growFromCentre(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, round: boolean): void {
  const w = from.width;
  const h = from.height;
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  // Half a pixel past the farthest pixel centre, so the shape has covered the page at t = 1.
  const reach = (round ? Math.sqrt(cx * cx + cy * cy) : cx + cy) + 0.5;
  const r = ease(t) * reach;
  out.drawImage(from, 0, 0);
  for (let k = 0; k <= h - 1 - k; k++) {
    const dy = cy - k;
    if (dy > r) continue;
    const half = round ? Math.sqrt(r * r - dy * dy) : r - dy;
    const x1 = Math.ceil(cx - half);
    const x2 = Math.floor(cx + half);
    if (x1 > x2) continue;
    out.setClipRect(x1 < 0 ? 0 : x1, k, x2 >= w ? w - 1 : x2, h - 1 - k);
    out.drawImage(to, 0, 0);
  }
  unclip(out, from);
}

/** A circle of the new page grows from the centre. */
export function ripple(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  growFromCentre(out, from, to, t, true);
}

/** A diamond of the new page grows from the centre: Ripple measured in Manhattan distance. */
export function diamond(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  growFromCentre(out, from, to, t, false);
}
