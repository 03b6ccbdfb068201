// Fireworks: every BURST steps a burst at a random place in a random palette colour: a flash
// that opens into a ring, a pixel wider each step, fading as it grows, over black.
import type { EffectModule } from "./types";
import { scatter } from "./scatter";
import { HUE_WHEEL, scaleWire, steps } from "./pace";

/** Steps a second: the ring widens a pixel a step, the pace of the other effects. */
const RATE = 10;
/** Steps from one burst to the next. */
const BURST = 20;
const SEED = 0x66697265;

const fireworks: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => ({
    draw: (g, t, ink) => {
      const s = steps(t, RATE);
      const n = Math.floor(s / BURST);
      const r = s - n * BURST;
      g.setColor(0);
      g.fillRect(0, 0, w - 1, h - 1);
      g.setColor(scaleWire(ink.tone(scatter(n, SEED + 2, 256)), 1 - r / BURST));
      const x = scatter(n, SEED, w);
      const y = scatter(n, SEED + 1, h);
      if (r) g.drawCircle(x, y, r);
      else g.setPixel(x, y);
    },
  }),
};
export default fireworks;
