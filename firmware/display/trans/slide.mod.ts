// Slide: both pages move together sideways; the new one enters from the right (reverse: the left).
import type { MakeTransition } from "../transitions";
import { ease, part } from "./common";

function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const w = from.width;
  const off = part(ease(t), w);
  const dir = reverse ? -1 : 1;
  out.drawImage(from, -dir * off, 0);
  out.drawImage(to, dir * (w - off), 0);
}

const slide: MakeTransition = () => ({ draw: draw });
export default slide;
