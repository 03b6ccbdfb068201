// Wave: a column sweep whose edge is bent by a sine that travels as it goes (reverse: from the
// right).
import type { MakeTransition } from "../transitions";
import { ease, unclip } from "./common";

function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
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

const wave: MakeTransition = () => ({ draw: draw });
export default wave;
