// Where a line of text stands at a moment: the motion of the scroll object as a pure function of
// the milliseconds since the text appeared.
//
// Geometry is worked out for direction "left" and mirrored across the text area for "right".
// textOffsetX behaves like blank columns in front of the text: it moves the rest and entry
// anchors, while the text still leaves from its own far end, so each run is that much longer.
import { BASE_SCROLL_PX_PER_S, ScrollSpec } from "./scroll-spec";

// Time is counted in ticks of (ms x rate), rate being px per 100 s (speed percent x base px/s),
// so that one pixel of travel is exactly TICKS_PER_PX and positions come out as exact integers.
const TICKS_PER_PX = 100000;

const STILL = 0;
const WRAP = 1;
const LOOP = 2;
const BOUNCE = 3;

export class ScrollTrack {
  /** Whether the text travels at all (false: static, fitting text, speed 0). */
  moves = false;
  /** Pixels between the left edges of consecutive copies (loop), 0 when there is one copy. */
  period = 0;
  private kind = STILL;
  private rate = 0;
  private right = false;
  /** x of a left-frame position once mirrored: mirrorSum - x. */
  private mirrorSum = 0;
  /** Left-frame x at time 0 (also the whole answer when still). */
  private start = 0;
  /** Ticks spent at the start before moving (0 with offscreen entry). */
  private hold = 0;
  // The fields below are set by setup only for the kinds that read them: a track that stands
  // still (most dates, fitting texts) holds none of them.
  /** loop: the text's width and the area's edges. */
  declare private textWidth: number;
  declare private areaX: number;
  declare private areaRight: number;
  /** wrap: one run from start to exit. bounce: one full round trip. */
  declare private cycle: number;
  /** bounce: the two turning points, ticks to travel between them, and the hold at each. */
  declare private nearX: number;
  declare private farX: number;
  declare private leg: number;
  declare private turn: number;
  /** bounce offscreen: ticks of the entry leg; loop: pixels travelled before the first fold. */
  declare private lead: number;

  /** Called when the text, its area or the scroll settings change. */
  setup(spec: ScrollSpec, textWidth: number, areaX: number, areaWidth: number, offsetX: number, center: boolean): void {
    const fits = textWidth <= areaWidth;
    // The mode as a number (a comparison chain rather than a table held in memory).
    const mode = spec.mode;
    let kind = mode === "wrap" ? WRAP : mode === "loop" ? LOOP : mode === "bounce" ? BOUNCE : STILL;
    if (fits && spec.whenFits === "static") kind = STILL;
    const offscreen = spec.entry === "offscreen";
    const rate = spec.speed * BASE_SCROLL_PX_PER_S;
    const areaRight = areaX + areaWidth;
    const rest = areaX + offsetX;
    const entry = areaRight + offsetX;
    const exit = areaX - textWidth;
    this.rate = rate;
    this.right = spec.direction === "right";
    this.mirrorSum = areaX + areaRight - textWidth;
    this.start = offscreen ? entry : rest;
    this.hold = offscreen ? 0 : spec.holdMs * rate;
    this.period = 0;
    if (kind === WRAP) {
      this.cycle = this.hold + (this.start - exit) * TICKS_PER_PX;
      if (this.start <= exit) kind = STILL;
    } else if (kind === LOOP) {
      this.period = textWidth + offsetX + spec.gap;
      this.lead = this.start - rest;
      this.textWidth = textWidth;
      this.areaX = areaX;
      this.areaRight = areaRight;
      if (this.period <= 0) kind = STILL;
    } else if (kind === BOUNCE) {
      this.nearX = rest;
      this.farX = areaRight - textWidth;
      this.leg = Math.abs(rest - this.farX) * TICKS_PER_PX;
      this.turn = spec.holdMs * rate;
      this.cycle = 2 * (this.turn + this.leg);
      this.lead = offscreen ? (entry - this.farX) * TICKS_PER_PX : 0;
      if (this.leg === 0) kind = STILL;
    }
    if (kind === STILL) {
      this.period = 0;
      this.right = false;
      this.start = areaX + offsetX + (center && fits ? Math.floor((areaWidth - textWidth) / 2) : 0);
    }
    this.kind = kind;
    this.moves = kind !== STILL && rate > 0;
  }

  /**
   * Left x of the n-th copy from the left that is at least partly on the area (n = 0: the text,
   * or in loop mode its leftmost visible copy); NaN past the last.
   */
  copyX(elapsedMs: number, n: number): number {
    const ticks = elapsedMs > 0 ? elapsedMs * this.rate : 0;
    const kind = this.kind;
    let x = this.start;
    // Whole pixels moved since the hold ended (wrap: in this run; the other kinds never read it).
    const t = kind === WRAP ? ticks % this.cycle : ticks;
    const moved = t > this.hold ? Math.floor((t - this.hold) / TICKS_PER_PX) : 0;
    if (kind === LOOP) {
      // Copies sit at first + k * period for k >= 0, trailing the first one.
      const first = x - moved;
      const p = this.period;
      const gone = this.areaX - this.textWidth;
      const lowest = first > gone ? 0 : Math.floor((gone - first) / p) + 1;
      const count = Math.max(1, Math.ceil((this.areaRight - first) / p) - lowest);
      if (n >= count) return NaN;
      x = first + p * (this.right ? lowest + count - 1 - n : lowest + n);
    } else if (n > 0) {
      return NaN;
    } else if (kind === WRAP) {
      x -= moved;
    } else if (kind === BOUNCE && ticks < this.lead) {
      x -= Math.floor(ticks / TICKS_PER_PX);
    } else if (kind === BOUNCE) {
      // The round trip: the hold at the near turning point, the leg out, the hold at the far one,
      // the leg back.
      const near = this.nearX;
      const far = this.farX;
      const turn = this.turn;
      const leg = this.leg;
      const toward = far < near ? -1 : 1;
      // An offscreen entry leg ends at the far turning point, half way through a round trip.
      const trip = this.cycle > 0 ? (this.lead > 0 ? ticks - this.lead + turn + leg : ticks) % this.cycle : 0;
      x = trip < turn ? near : trip < turn + leg ? near + toward * Math.floor((trip - turn) / TICKS_PER_PX) :
        trip < 2 * turn + leg ? far : far - toward * Math.floor((trip - 2 * turn - leg) / TICKS_PER_PX);
    }
    return this.right ? this.mirrorSum - x : x;
  }

  /** Completed runs: exits (wrap), folds (loop) or round trips (bounce); 0 when nothing moves. */
  passes(elapsedMs: number): number {
    if (!this.moves) return 0;
    const ticks = elapsedMs > 0 ? elapsedMs * this.rate : 0;
    const hold = this.hold;
    if (this.kind === LOOP) {
      // The pixels moved since the hold ended, less those before the first fold.
      return Math.floor(Math.max(0, (ticks > hold ? Math.floor((ticks - hold) / TICKS_PER_PX) : 0) - this.lead) / this.period);
    }
    if (this.kind === BOUNCE) {
      if (ticks < this.lead) return 0;
      // Round trips from the hold at the near turning point (see copyX).
      return Math.floor((this.lead > 0 ? ticks - this.lead + this.turn + this.leg : ticks) / this.cycle);
    }
    return Math.floor(ticks / this.cycle);
  }
}
