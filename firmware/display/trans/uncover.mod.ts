// Uncover: the old page slides away to the left (reverse: the right) and uncovers the new one
// standing behind it.
import type { MakeTransition } from "../transitions";
import { ease, part } from "./common";

function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const off = part(ease(t), from.width);
  out.drawImage(to, 0, 0);
  out.drawImage(from, reverse ? off : -off, 0);
}

const uncover: MakeTransition = () => ({ draw: draw });
export default uncover;
