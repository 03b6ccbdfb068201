// PingPong: one white pixel bouncing off the four edges, a pixel across and a pixel down each
// step, over black. Its colour is fixed; the palette plays no part.
import type { EffectModule } from "./types";
import { steps } from "./pace";
import { bounce } from "./bounce";

/** Pixels of travel a second, the pace of the other effects. */
const RATE = 10;
const BALL = 0xffffff;

const pingPong: EffectModule = {
  stock: "FFFFFF",
  make: (w, h) => ({
    draw: (g, t, ink) => {
      const s = steps(t, RATE);
      g.setColor(0);
      g.fillRect(0, 0, w - 1, h - 1);
      // Across and down at once from the top left corner, so it travels on diagonals.
      g.setPixel(bounce(s, w), bounce(s, h), ink.rgb(BALL));
    },
  }),
};
export default pingPong;
