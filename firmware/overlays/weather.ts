// What the weather overlays share: falling drops drawn over the finished page, the colour tones
// they take from the ink, and lightning's timing.
//
// The panel is cut into lanes two columns wide (with a few more columns to the left when drops
// drift right, so that drifting streaks also enter at the left edge). Each lane runs through
// cycles of `period` steps, staggered against its neighbours'; a hash of (lane, cycle) decides
// whether that cycle carries a drop, in which of the lane's two columns, and how many steps it
// waits before it enters at the top. A cycle is long enough for its drop to leave at the bottom
// before the next one starts, so a lane holds one drop at a time, and a frame is a function of
// the step alone. Since every cycle is hashed anew, the rain never falls into a repeating pattern.
//
// Cost per frame: one pass over the lanes (about 17) and one to three Graphics calls per visible
// drop. What a lane's cycle holds is kept until the cycle ends, which only saves work: any step
// can be drawn first.
import type { Effect, Ink } from "../effects/types";
import { STEPS } from "../effects/types";
import { hash } from "../effects/noise";

/**
 * Wire colour of tone `k` (1 dim, 2 middle, 3 bright) from `m` = ink.map(0): the palette's colour
 * a quarter, half or three quarters of the way along (bytes 3p to 3p + 2 of the map are palette
 * step p; Ink.at would give the same, but the bundle checks refuse a method named `at`, which
 * Espruino's arrays lack). The stock texts hold each tone in a flat band (0-30 %, 40-60 %,
 * 70-100 %) that its place falls inside whether the ink blends or not; a given palette recolours
 * the tones with its own colours at those places.
 */
export function tone(m: Uint8Array, k: number): number {
  const i = 3 * ((STEPS * k) >> 2);
  return (m[i] << 16) | (m[i + 1] << 8) | m[i + 2];
}

/**
 * hash() of a pair: hashed twice with a sum between. noise.ts hash is xorshift, linear in the bits
 * of its input, so one hash of a combination of (cycle, lane) gives neighbouring lanes and cycles
 * related values (the rain comes and goes in waves); the carries of the sum break that.
 */
function hash2(a: number, b: number, seed: number): number {
  return hash((hash(a, seed) + b * 0x61c88647) | 0, seed);
}

/** How one kind of weather falls. */
export interface Weather {
  /** Steps a second (at speed 1); a step moves every drop one row down. */
  rate: number;
  /** Rows of tail above a drop's head, drawn in the middle tone (the head is bright). */
  tail: number;
  /** Rows of fall per column of drift to the right, at least `tail`; 0 falls plumb. */
  slant: number;
  /** Single-pixel flakes that rock a column to the right and back every four rows, bright or dim at random. */
  flakes: boolean;
  /** The longest wait of a lane, in steps, between one drop leaving and the next entering. */
  spare: number;
  /** Out of 256: how often a lane's cycle carries a drop. */
  chance: number;
  seed: number;
}

export class Fall implements Effect {
  private kind: Weather;
  private h: number;
  /** Columns left of the panel: streaks that drift right, and flakes that rock into column 0. */
  private left: number;
  private period: number;
  /** Steps are counted modulo this multiple of the period, so that they fit an Int32Array. */
  private wrap: number;
  /** Per lane: the step its current cycle started at. */
  private start: Int32Array;
  /**
   * Per lane, three bytes: its stagger in steps; the steps its drop waits in the cycle (255: no
   * drop); the drop's look (bit 0: which of the lane's two columns; flakes: bit 1 dim, bits 2-3
   * the phase of their rocking).
   */
  private lane: Uint8Array;

  constructor(w: number, h: number, kind: Weather) {
    this.kind = kind;
    this.h = h;
    const left = kind.slant ? Math.floor((h - 1) / kind.slant) : kind.flakes ? 1 : 0;
    this.left = left;
    const period = h + kind.tail + kind.spare;
    this.period = period;
    this.wrap = period * Math.floor(0x40000000 / period);
    // Lanes are two columns wide: half the lanes to visit in every frame as with one a column.
    const n = Math.ceil((w + left) / 2);
    this.start = new Int32Array(n);
    this.lane = new Uint8Array(3 * n);
    // Rolled for the first step here, outside frames, so that a page's first frame is as quick
    // as the rest.
    for (let i = 0; i < n; i++) {
      this.lane[3 * i] = hash(i, ~kind.seed) % period;
      this.roll(i, 0);
    }
  }

  /** Lane `i`'s cycle at `step`: when it started, and whether, where and when its drop enters. */
  private roll(i: number, step: number): void {
    const kind = this.kind;
    const period = this.period;
    const lane = this.lane;
    const offset = lane[3 * i];
    const c = Math.floor((step + offset) / period);
    this.start[i] = c * period - offset;
    const r = hash2(c, i, kind.seed);
    lane[3 * i + 1] = (r & 255) < kind.chance ? (r >>> 8) % (kind.spare + 1) : 255;
    lane[3 * i + 2] = (r >>> 16) & 15;
  }

  draw(g: Graphics, t: number, ink: Ink): void {
    const kind = this.kind;
    const h = this.h;
    const tail = kind.tail;
    const slant = kind.slant;
    const flakes = kind.flakes;
    const period = this.period;
    const left = this.left;
    const span = h + tail;
    const start = this.start;
    const lane = this.lane;
    let step = Math.floor((t * kind.rate) / 1000) % this.wrap;
    if (step < 0) step = 0;
    const m = ink.map(0);
    const head = tone(m, 3);
    const dim = flakes ? tone(m, 1) : 0;
    if (tail) g.setColor(tone(m, 2));
    const n = start.length;
    for (let i = 0; i < n; i++) {
      let at = step - start[i];
      if (at < 0 || at >= period) {
        this.roll(i, step);
        at = step - start[i];
      }
      // Row of the drop's head: it enters row 0 once its wait is over.
      const y = at - lane[3 * i + 1];
      if (y < 0 || y >= span) continue;
      const k = lane[3 * i + 2];
      const x = 2 * i - left + (k & 1);
      if (flakes) {
        g.setPixel(x + (((y + (k >> 2)) >> 1) & 1), y, k & 2 ? dim : head);
      } else if (!slant) {
        if (tail && y > 0) g.drawLine(x, y - tail, x, y - 1);
        if (y < h) g.setPixel(x, y, head);
      } else {
        // Column q (counted from x) holds the head and the `m` tail rows nearest it, those from
        // row q * slant on; the rest of the tail, no longer than `slant`, is in column q - 1.
        const q = (y / slant) | 0;
        const m = y - q * slant;
        if (m < tail) g.drawLine(x + q - 1, y - tail, x + q - 1, y - m - 1);
        if (m && tail) g.drawLine(x + q, y - (m < tail ? m : tail), x + q, y - 1);
        if (y < h) g.setPixel(x + q, y, head);
      }
    }
  }
}

/**
 * Whether lightning lights the panel at time `t`: a spell of 3.5 s passes without a strike
 * one time in four, else it strikes once at a random moment, a third of the time twice in quick
 * succession, so strikes come irregularly a few seconds apart.
 */
export function flashing(t: number): boolean {
  // Kept here rather than at the top level, where they would hold interpreter variables for as
  // long as the overlay is loaded.
  /** Lightning's clock (speed-scaled ms): a spell of this length holds at most one strike. */
  const spell = 3500;
  /** How long a flash lasts, and when the second flash of a double strike starts after the first. */
  const flash = 90;
  const second = 220;
  const n = Math.floor(t / spell);
  const r = hash2(n, n, 0x7a11);
  if ((r & 3) === 0) return false;
  const since = t - n * spell - ((r >>> 2) % (spell - second - flash));
  if (since < 0) return false;
  if (since < flash) return true;
  return ((r >>> 16) % 3) === 0 && since >= second && since < second + flash;
}
