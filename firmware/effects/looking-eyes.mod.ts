// LookingEyes: two 8x8 eyes, white with a blue iris and a black pupil, that glance about and
// blink. Every GLANCE steps they pick where to look next (straight ahead, then somewhere off to
// a side, by turns) and the irises travel there a pixel a step; about every BLINK steps, at a
// random moment, the lids close and open again. Fixed colours: the palette plays no part.
import type { EffectModule } from "./types";
import { scatter } from "./scatter";
import { steps } from "./pace";

/** Steps a second, the pace of the other effects' pixel of travel. */
const RATE = 10;
/** Steps between glances, and between blinks (on average). */
const GLANCE = 30;
const BLINK = 40;
/** Rows each lid covers at the steps of a blink: 4 meets the other lid. */
const LIDS = [2, 4, 4, 2];
const WHITE = 0xffffff;
const IRIS = 0x2080ff;
const SEED = 0x65796573;

/**
 * Where the irises look in glance `n`: a cell j of a 3 x 3 grid (4 is straight ahead), whose
 * iris offset is 2 * (j % 3 - 1) across and floor(j / 3) - 1 down.
 */
function glance(n: number): number {
  // Even glances look straight ahead; odd ones at one of the eight places around it.
  if (n % 2 === 0) return 4;
  const k = scatter(n, SEED, 8);
  return k < 4 ? k : k + 1;
}

const lookingEyes: EffectModule = {
  stock: "FFFFFF",
  make: (w, h) => {
    const left = (w >> 1) - 10;
    const right = (w >> 1) + 2;
    const top = (h - 8) >> 1;
    const eye = (g: Graphics, x0: number, dx: number, dy: number, white: number, iris: number) => {
      g.setColor(white);
      g.fillRect(x0 + 1, top, x0 + 6, top + 7);
      g.fillRect(x0, top + 1, x0 + 7, top + 6);
      g.setColor(iris);
      g.fillRect(x0 + 2 + dx, top + 2 + dy, x0 + 5 + dx, top + 5 + dy);
      g.setColor(0);
      g.fillRect(x0 + 3 + dx, top + 3 + dy, x0 + 4 + dx, top + 4 + dy);
    };
    // The glances n - 1 and n of the frame drawn last, and when its blink b starts (all hashes
    // of a glance's or a blink's number, which stay the same for dozens of frames).
    const kept = new Int32Array([-1, 0, 0, -1, 0]);
    return {
      draw: (g, t, ink) => {
        const s = steps(t, RATE);
        g.setColor(0);
        g.fillRect(0, 0, w - 1, h - 1);
        // From the last glance to this one, a pixel a step on each axis.
        const n = Math.floor(s / GLANCE);
        const u = s - n * GLANCE;
        if (kept[0] !== n) {
          kept[0] = n;
          kept[1] = glance(n - 1);
          kept[2] = glance(n);
        }
        const from = kept[1];
        const to = kept[2];
        const fx = 2 * ((from % 3) - 1);
        const fy = Math.floor(from / 3) - 1;
        const dx = fx + Math.max(-u, Math.min(u, 2 * ((to % 3) - 1) - fx));
        const dy = fy + Math.max(-u, Math.min(u, Math.floor(to / 3) - 1 - fy));
        const white = ink.rgb(WHITE);
        const iris = ink.rgb(IRIS);
        eye(g, left, dx, dy, white, iris);
        eye(g, right, dx, dy, white, iris);
        const b = Math.floor(s / BLINK);
        if (kept[3] !== b) {
          kept[3] = b;
          kept[4] = scatter(b, SEED + 1, BLINK - LIDS.length);
        }
        const into = s - b * BLINK - kept[4];
        if (into < 0 || into >= LIDS.length) return;
        const lid = LIDS[into];
        g.setColor(0);
        g.fillRect(0, top, w - 1, top + lid - 1);
        g.fillRect(0, top + 8 - lid, w - 1, top + 7);
        if (lid < 4) return;
        // Shut: the lids' seam, in the eyes' white half lit.
        g.setColor(ink.rgb(WHITE, 0.5));
        g.fillRect(left + 1, top + 4, left + 6, top + 4);
        g.fillRect(right + 1, top + 4, right + 6, top + 4);
      },
    };
  },
};
export default lookingEyes;
