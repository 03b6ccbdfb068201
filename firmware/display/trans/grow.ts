// A shape of the new page growing from the centre (Ripple, Diamond).
import { ease, unclip } from "./common";

/**
 * The new page shows inside a circle (round) or a diamond growing from the centre. The shape is
 * symmetric and widest in the middle, so the rows from k down to h-1-k share at least row k's
 * span: one box per pair of rows, outermost first, covers it exactly.
 */
export function growFromCentre(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, round: boolean): void {
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
