// Blink: the old page blinks out in hard steps, then the new page blinks in the same way.
import type { MakeTransition } from "../transitions";

/** Steps of Blink: the old page on, off, on, off, then the new page on, off, on. */
const STEPS = 7;

function draw(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  const step = t >= 1 ? STEPS - 1 : Math.floor(t * STEPS);
  if (step & 1) return;
  out.drawImage(step < STEPS >> 1 ? from : to, 0, 0);
}

const blink: MakeTransition = () => ({ draw: draw });
export default blink;
