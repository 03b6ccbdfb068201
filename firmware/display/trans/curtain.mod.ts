// Curtain: the new page opens from both edges toward the centre.
import type { MakeTransition } from "../transitions";
import { ease, part, unclip, showColumns } from "./common";

function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  const w = from.width;
  const half = w >> 1;
  const p = ease(t);
  out.drawImage(from, 0, 0);
  showColumns(out, to, 0, part(p, half) - 1);
  showColumns(out, to, w - part(p, w - half), w - 1);
  unclip(out, from);
}

const curtain: MakeTransition = () => ({ draw: draw });
export default curtain;
