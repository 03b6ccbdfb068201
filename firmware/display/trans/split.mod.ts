// Split: the new page opens from the centre outward (Curtain the other way round).
import type { MakeTransition } from "../transitions";
import { ease, part, unclip, showColumns } from "./common";

function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  const w = from.width;
  const half = w >> 1;
  const p = ease(t);
  out.drawImage(from, 0, 0);
  showColumns(out, to, half - part(p, half), half + part(p, w - half) - 1);
  unclip(out, from);
}

const split: MakeTransition = () => ({ draw: draw });
export default split;
