// Interlace: rows of the new page slide in over the old one, even rows from the right, odd ones
// from the left (reverse: the other way round).
import type { MakeTransition } from "../transitions";
import { ease, part, unclip } from "./common";

function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const w = from.width;
  const h = from.height;
  const left = w - part(ease(t), w);
  out.drawImage(from, 0, 0);
  if (left === w) return;
  // Row 0 comes from the right unless reversed; the sign flips every row.
  let dx = reverse ? -left : left;
  for (let y = 0; y < h; y++) {
    out.setClipRect(0, y, w - 1, y);
    out.drawImage(to, dx, 0);
    dx = -dx;
  }
  unclip(out, from);
}

const interlace: MakeTransition = () => ({ draw: draw });
export default interlace;
