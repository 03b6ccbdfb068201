// Blinds: vertical bars of the new page widen from their middles until they meet.
import type { MakeTransition } from "../transitions";
import { ease, unclip } from "./common";

/** Bars on the panel, so a bar is wider on a wider panel. */
const BARS = 8;

/** Bars are a whole number of pixels wide and at most one more than their slot, so they meet without a gap. */
function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
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

const blinds: MakeTransition = () => ({ draw: draw });
export default blinds;
