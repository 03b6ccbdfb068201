// Pixelate: the new page appears pixel by pixel, in a fixed shuffled order, linearly in time.
import type { MakeTransition } from "../transitions";
import { makeReveal, settle, revealBelow, LEVELS } from "./reveal";

const pixelate: MakeTransition = (w, h) => {
  const r = makeReveal(w, h, 1, 1, 0x2f6b1d35);
  return {
    prepare: () => settle(r),
    draw: (out, from, to, t) => revealBelow(out, from, to, r, Math.round(t * LEVELS)),
  };
};
export default pixelate;
