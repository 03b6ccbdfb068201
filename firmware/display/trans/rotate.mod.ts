// Rotate: a vertical roll; the old page leaves upwards as the new one comes up from below
// (reverse: down).
import type { MakeTransition } from "../transitions";
import { ease, part } from "./common";

function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const h = from.height;
  const off = part(ease(t), h);
  const dir = reverse ? -1 : 1;
  out.drawImage(from, 0, -dir * off);
  out.drawImage(to, 0, dir * (h - off));
}

const rotate: MakeTransition = () => ({ draw: draw });
export default rotate;
