// A compiled palette graded for the panel: what effects and overlays draw with (effects/types.ts
// Ink). The 16 logical entries are turned into STEPS wire colours when the grading changes (the
// page calls grade() with the canvas it draws on), so a frame only looks colours up. They are kept
// once, as the position triplet map of Ink.map (channel bytes, step after step, one turn and a bit
// more so that any shift has 256 bytes after it): tone() reads its three bytes there.
//
// Positions wrap: the last step blends from entry 15 back to entry 0, so a palette that is swept
// round and round has no seam. With blend off each step takes the colour of its entry (16 hard
// bands).
import type { Canvas } from "../display/canvas";
import type { Ink } from "../effects/types";
import { STEPS } from "../effects/types";
import { ENTRIES, mix } from "./compile";

/** Steps of the graded ramp from the first entry to the last (text painted across its width). */
const RAMP_STEPS = 64;

export class PaletteInk implements Ink {
  readonly given: boolean;
  private entries: Uint32Array;
  private blend: boolean;
  /** The position triplet map (see Ink.map). */
  private triplets: Uint8Array;
  /** RAMP_STEPS wire colours from the first entry to the last (along()); made on first use. */
  private ramps: Uint32Array | null;
  private canvas: Canvas | null;

  /** `entries`: 16 logical colours; `given`: they are the app's palette, not stock colours. */
  constructor(entries: Uint32Array, blend: boolean, given: boolean) {
    this.entries = entries;
    this.blend = blend;
    this.given = given;
    this.triplets = new Uint8Array(3 * STEPS + 256);
    this.ramps = null;
    this.canvas = null;
  }

  /** Logical colour a fraction `k` (0..1) of the way from the first entry to the last (no wrap). */
  ramp(k: number): number {
    const e = this.entries;
    const at = k <= 0 ? 0 : k >= 1 ? 1 : k;
    if (!this.blend) return e[Math.min(ENTRIES - 1, Math.floor(at * ENTRIES))];
    const x = at * (ENTRIES - 1);
    const i = Math.min(ENTRIES - 2, Math.floor(x));
    return mix(e[i], e[i + 1], x - i);
  }

  /** Wire colour of ramp(k), from a table of RAMP_STEPS graded steps. */
  along(k: number): number {
    let r = this.ramps;
    if (!r) {
      r = new Uint32Array(RAMP_STEPS);
      this.ramps = r;
      this.fillRamps(r);
    }
    return r[Math.round((k <= 0 ? 0 : k >= 1 ? 1 : k) * (RAMP_STEPS - 1))];
  }

  /** Logical colour of step `p` (0..STEPS-1). */
  logical(p: number): number {
    const x = (p * ENTRIES) / STEPS;
    const i = Math.floor(x);
    const e = this.entries;
    if (!this.blend) return e[i];
    return mix(e[i], e[(i + 1) % ENTRIES], x - i);
  }

  /** Grades every step through `c` (the canvas frames are drawn on, graded or not). */
  grade(c: Canvas): void {
    this.canvas = c;
    const t = this.triplets;
    const turn = 3 * STEPS;
    for (let p = 0; p < STEPS; p++) {
      c.color(this.logical(p));
      const wire = c.g.getColor();
      for (let ch = 0; ch < 3; ch++) {
        const i = 3 * p + ch;
        const v = (wire >> (16 - 8 * ch)) & 255;
        t[i] = v;
        if (i + turn < t.length) t[i + turn] = v;
      }
    }
    if (this.ramps) this.fillRamps(this.ramps);
  }

  private fillRamps(r: Uint32Array): void {
    const c = this.canvas as Canvas;
    for (let i = 0; i < RAMP_STEPS; i++) {
      c.color(this.ramp(i / (RAMP_STEPS - 1)));
      r[i] = c.g.getColor();
    }
  }

  tone(pos: number): number {
    const i = 3 * ((((pos | 0) & 255) * STEPS) >> 8);
    const t = this.triplets;
    return (t[i] << 16) | (t[i + 1] << 8) | t[i + 2];
  }

  rgb(color: number, level?: number): number {
    const c = this.canvas as Canvas;
    c.color(color, level);
    return c.g.getColor();
  }

  map(shift: number): Uint8Array {
    const s = ((shift | 0) % STEPS + STEPS) % STEPS;
    return this.triplets.subarray(3 * s, 3 * s + 256);
  }
}
