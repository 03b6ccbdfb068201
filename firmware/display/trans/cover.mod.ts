// Cover: the new page slides in over the old one, which stays put (reverse: from the left).
import type { MakeTransition } from "../transitions";
import { ease, part } from "./common";

function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const w = from.width;
  const left = w - part(ease(t), w);
  out.drawImage(from, 0, 0);
  out.drawImage(to, reverse ? -left : left, 0);
}

const cover: MakeTransition = () => ({ draw: draw });
export default cover;
