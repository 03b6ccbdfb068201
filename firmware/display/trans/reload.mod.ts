// Reload: always left to right, the old page is swept off to black, then the new one is swept in.
import type { MakeTransition } from "../transitions";
import { ease, part, unclip, showColumns } from "./common";

function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
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

const reload: MakeTransition = () => ({ draw: draw });
export default reload;
