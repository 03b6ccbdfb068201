// Dim: the old page dims to black over the first half, then the new one comes up out of it over
// the second; one page at a time.
import type { MakeTransition } from "../transitions";
import { Dimmer } from "./fading";

const dim: MakeTransition = (w, h, scratch) => {
  const old = new Dimmer(w, h);
  const fresh = new Dimmer(w, h, scratch);
  return {
    draw: (out, from, to, t) => {
      out.drawImage(t < 0.5 ? old.dim(from, 1 - 2 * t) : fresh.dim(to, 2 * t - 1), 0, 0);
    },
  };
};
export default dim;
