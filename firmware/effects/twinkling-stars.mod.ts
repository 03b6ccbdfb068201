// TwinklingStars: 22 stars over black, each swelling from dark to full brightness and back over
// a CYCLE-step cycle of its own phase. Between two cycles, while it is dark, a star moves on to
// the next of its SPOTS places and colours (random, made once), so the sky changes as it
// twinkles. Colours come from the palette; brightness goes in halvings, which the eye sees as
// even steps.
import type { EffectModule } from "./types";
import { scatter } from "./scatter";
import { HUE_WHEEL, steps } from "./pace";

/** Steps a second, the pace of the other effects. */
const RATE = 10;
const STARS = 22;
/** Steps of a twinkle, dark to bright to dark. */
const CYCLE = 30;
/** Places (and colours) a star takes in turn, one a cycle. */
const SPOTS = 4;
/** Halvings of brightness at each step of a cycle; DARK for none. */
const DARK = 8;
const SEED = 0x73746172;

const twinklingStars: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => {
    const xs = new Uint8Array(STARS * SPOTS);
    const ys = new Uint8Array(STARS * SPOTS);
    // A star's palette position.
    const hues = new Uint8Array(STARS * SPOTS);
    const phases = new Uint8Array(STARS);
    for (let k = 0; k < STARS * SPOTS; k++) {
      xs[k] = scatter(k, SEED, w);
      ys[k] = scatter(k, SEED + 1, h);
      hues[k] = scatter(k, SEED + 2, 256);
    }
    for (let i = 0; i < STARS; i++) phases[i] = scatter(i, SEED + 3, CYCLE);
    // Halvings by step: dark at the turn of a cycle, full in its middle third.
    const halvings = new Uint8Array(CYCLE);
    for (let u = 0; u < CYCLE; u++) {
      const rise = Math.min(u, CYCLE - u);
      halvings[u] = rise >= 10 ? 0 : rise >= 7 ? 1 : rise >= 5 ? 2 : rise >= 2 ? 3 : DARK;
    }
    return {
      draw: (g, t, ink) => {
        const s = steps(t, RATE);
        g.setColor(0);
        g.fillRect(0, 0, w - 1, h - 1);
        for (let i = 0; i < STARS; i++) {
          const v = s + phases[i];
          const cycle = Math.floor(v / CYCLE);
          const dim = halvings[v - cycle * CYCLE];
          if (dim === DARK) continue;
          const k = (cycle % SPOTS) * STARS + i;
          // Every channel halved `dim` times, the bits shifted into the channel below cut off.
          g.setPixel(xs[k], ys[k], (ink.tone(hues[k]) >> dim) & ((255 >> dim) * 0x10101));
        }
      },
    };
  },
};
export default twinklingStars;
