// Dim: the old page dims to black, then the new one comes up out of it; one page at a time, each
// at the level throughBlack gives it.
import type { MakeTransition } from "../transitions";
import { throughBlack } from "./fading";

function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  out.drawImage(t < 0.5 ? from : to, 0, 0);
}

const dim: MakeTransition = () => ({ draw: draw, level: throughBlack });
export default dim;
