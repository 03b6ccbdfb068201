// Fade: a crossfade of the two dimmed pages. Where only one page is lit it shows at its level,
// exactly as a mix would; where both are lit the page with the higher level lies on top.
import type { MakeTransition } from "../transitions";
import { crossLevel, seeThrough, seeThroughView } from "./fading";

const fade: MakeTransition = () => {
  const over = seeThroughView();
  return {
    level: crossLevel,
    draw: (out, from, to, t) => {
      out.drawImage(t < 0.5 ? to : from, 0, 0);
      out.drawImage(seeThrough(over, t < 0.5 ? from : to), 0, 0);
    },
  };
};
export default fade;
