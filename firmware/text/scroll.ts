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
const KINDS: { [mode: string]: number } = { static: STILL, wrap: WRAP, loop: LOOP, bounce: BOUNCE };

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
  private textWidth = 0;
  private areaX = 0;
  private areaRight = 0;
  /** Left-frame x at time 0 (also the whole answer when still). */
  private start = 0;
  /** Ticks spent at the start before moving (0 with offscreen entry). */
  private hold = 0;
  /** wrap: one run from start to exit. bounce: one full round trip. */
  private cycle = 0;
  /** bounce: the two turning points, ticks to travel between them, and the hold at each. */
  private nearX = 0;
  private farX = 0;
  private leg = 0;
  private turn = 0;
  /** bounce offscreen: ticks of the entry leg; loop: pixels travelled before the first fold. */
  private lead = 0;

  /** Called when the text, its area or the scroll settings change. */
  setup(spec: ScrollSpec, textWidth: number, areaX: number, areaWidth: number, offsetX: number, center: boolean): void {
    const fits = textWidth <= areaWidth;
    let kind = KINDS[spec.mode] || STILL;
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
    this.textWidth = textWidth;
    this.areaX = areaX;
    this.areaRight = areaRight;
    this.start = offscreen ? entry : rest;
    this.hold = offscreen ? 0 : spec.holdMs * rate;
    this.period = 0;
    if (kind === WRAP) {
      this.cycle = this.hold + (this.start - exit) * TICKS_PER_PX;
      if (this.start <= exit) kind = STILL;
    } else if (kind === LOOP) {
      this.period = textWidth + offsetX + spec.gap;
      this.lead = this.start - rest;
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

  /** Left x of the text (in loop mode, of its leftmost visible copy). */
  x(elapsedMs: number): number {
    return this.copyX(elapsedMs, 0);
  }

  /** Left x of the n-th copy from the left that is at least partly on the area; NaN past the last. */
  copyX(elapsedMs: number, n: number): number {
    const ticks = elapsedMs > 0 ? elapsedMs * this.rate : 0;
    if (this.kind !== LOOP) return n === 0 ? this.onScreen(this.leftX(ticks)) : NaN;
    // Copies sit at first + k * period for k >= 0, trailing the first one.
    const first = this.start - this.travelled(ticks);
    const p = this.period;
    const gone = this.areaX - this.textWidth;
    const lowest = first > gone ? 0 : Math.floor((gone - first) / p) + 1;
    const count = Math.max(1, Math.ceil((this.areaRight - first) / p) - lowest);
    if (n >= count) return NaN;
    return this.onScreen(first + p * (this.right ? lowest + count - 1 - n : lowest + n));
  }

  /** Completed runs: exits (wrap), folds (loop) or round trips (bounce); 0 when nothing moves. */
  passes(elapsedMs: number): number {
    if (!this.moves) return 0;
    const ticks = elapsedMs > 0 ? elapsedMs * this.rate : 0;
    if (this.kind === LOOP) return Math.floor(Math.max(0, this.travelled(ticks) - this.lead) / this.period);
    if (this.kind === BOUNCE) {
      if (ticks < this.lead) return 0;
      return Math.floor(this.bounceTicks(ticks) / this.cycle);
    }
    return Math.floor(ticks / this.cycle);
  }

  private onScreen(leftX: number): number {
    return this.right ? this.mirrorSum - leftX : leftX;
  }

  /** Whole pixels moved since the hold ended. */
  private travelled(ticks: number): number {
    return ticks > this.hold ? Math.floor((ticks - this.hold) / TICKS_PER_PX) : 0;
  }

  /** bounce: ticks into the round trip that starts with the hold at the near turning point. */
  private bounceTicks(ticks: number): number {
    // An offscreen entry leg ends at the far turning point, half way through a round trip.
    return this.lead > 0 ? ticks - this.lead + this.turn + this.leg : ticks;
  }

  private leftX(ticks: number): number {
    if (this.kind === WRAP) return this.start - this.travelled(ticks % this.cycle);
    if (this.kind !== BOUNCE) return this.start;
    if (ticks < this.lead) return this.start - Math.floor(ticks / TICKS_PER_PX);
    const near = this.nearX;
    const far = this.farX;
    const toward = far < near ? -1 : 1;
    let t = this.cycle > 0 ? this.bounceTicks(ticks) % this.cycle : 0;
    if (t < this.turn) return near;
    t -= this.turn;
    if (t < this.leg) return near + toward * Math.floor(t / TICKS_PER_PX);
    t -= this.leg;
    if (t < this.turn) return far;
    return far - toward * Math.floor((t - this.turn) / TICKS_PER_PX);
  }
}
