// Fade: a crossfade, the old page dimmed to 1 - t and the new one to t. Where only one page is lit
// it shows at its level, exactly as a mix would; where both are lit the page with the higher level
// lies on top.
import type { MakeTransition } from "../transitions";
import { Dimmer, seeThrough, seeThroughView } from "./fading";

const fade: MakeTransition = (w, h, scratch) => {
  const old = new Dimmer(w, h);
  const fresh = new Dimmer(w, h, scratch);
  const over = seeThroughView();
  return {
    draw: (out, from, to, t) => {
      const a = old.dim(from, 1 - t);
      const b = fresh.dim(to, t);
      out.drawImage(t < 0.5 ? b : a, 0, 0);
      out.drawImage(seeThrough(over, t < 0.5 ? a : b), 0, 0);
    },
  };
};
export default fade;
