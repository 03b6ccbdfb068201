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
    // By u, the steps into a star's cycle plus the cycle's step r (0 .. 2 CYCLE - 2): the halvings
    // of its brightness (0-3, or DARK for none: dark at the turn of a cycle, full in its middle
    // third), and 16 once u has passed into the next cycle.
    const by = new Uint8Array(2 * CYCLE);
    for (let u = 0; u < 2 * CYCLE; u++) {
      const rise = Math.min(u % CYCLE, CYCLE - (u % CYCLE));
      by[u] = (rise >= 10 ? 0 : rise >= 7 ? 1 : rise >= 5 ? 2 : rise >= 2 ? 3 : DARK) | (u >= CYCLE ? 16 : 0);
    }
    // Each star's wire colour at its place (ink.tone), the place it was read for, and the checksum
    // of the ink's palette map it was read under: the ink changes its colours only when it is
    // graded again (a new grading or palette), which a checksum of its map tells in one native
    // call, so a frame asks the ink only for the stars that have moved on to a new place.
    const colours = new Uint32Array(STARS);
    const read = new Uint8Array(STARS);
    let inked = 0;
    return {
      draw: (g, t, ink) => {
        const sum = E.CRC32(ink.map(0));
        if (sum !== inked || !sum) {
          inked = sum;
          read.fill(255);
        }
        const s = steps(t, RATE);
        const turn = Math.floor(s / CYCLE);
        const r = s - turn * CYCLE;
        // The first place of this cycle's stars and of the next's.
        const now = (turn % SPOTS) * STARS;
        const next = ((turn + 1) % SPOTS) * STARS;
        g.setColor(0);
        g.fillRect(0, 0, w - 1, h - 1);
        for (let i = 0; i < STARS; i++) {
          const u = by[r + phases[i]];
          if (u & DARK) continue;
          const k = (u & 16 ? next : now) + i;
          if (read[i] !== k) {
            read[i] = k;
            colours[i] = ink.tone(hues[k]);
          }
          // Every channel halved `dim` times, the bits shifted into the channel below cut off.
          const dim = u & 3;
          g.setPixel(xs[k], ys[k], (colours[i] >> dim) & ((255 >> dim) * 0x10101));
        }
      },
    };
  },
};
export default twinklingStars;
