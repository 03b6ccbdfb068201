// Melt: column after column from the left (reverse: from the right), the old page drips off the
// bottom, faster as it falls, and leaves the new page standing. Neighbouring columns that have
// dropped by the same number of rows are drawn together: at most one box per row offset.
import type { MakeTransition } from "../transitions";
import { unclip } from "./common";
import { reached } from "./columns";

/** Share of the duration one column takes to drip off. */
const FALL = 0.4;

function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const w = from.width;
  const h = from.height;
  const rate = (w - 1) / (1 - FALL);
  out.drawImage(to, 0, 0);
  // Slots [below, above) have dropped by d rows; the drop is round(h * c^2) at progress c.
  let above = w;
  for (let d = 0; d < h && above > 0; d++) {
    const below = reached(t, w, FALL, rate, Math.sqrt((d + 0.5) / h));
    if (below < above) {
      if (reverse) out.setClipRect(w - above, 0, w - 1 - below, h - 1);
      else out.setClipRect(below, 0, above - 1, h - 1);
      out.drawImage(from, 0, d);
    }
    above = below;
  }
  unclip(out, from);
}

const melt: MakeTransition = () => ({ draw: draw });
export default melt;
