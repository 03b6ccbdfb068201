// Blocks: the new page appears tile by tile (4 x 2 pixels), in a fixed shuffled order, linearly in
// time.
import type { MakeTransition } from "../transitions";
import { makeReveal, settle, revealBelow, LEVELS } from "./reveal";

const blocks: MakeTransition = (w, h) => {
  const r = makeReveal(w, h, 4, 2, 0x7a3c9e11);
  return {
    prepare: () => settle(r),
    draw: (out, from, to, t) => revealBelow(out, from, to, r, Math.round(t * LEVELS)),
  };
};
export default blocks;
