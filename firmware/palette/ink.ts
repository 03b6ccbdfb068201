// A compiled palette graded for the panel: what effects and overlays draw with (effects/types.ts
// Ink). The 16 logical entries are turned into STEPS wire colours when the grading changes (the
// page calls grade() with the canvas it draws on), so a frame only looks colours up.
//
// Positions wrap: the last step blends from entry 15 back to entry 0, so a palette that is swept
// round and round has no seam. With blend off each step takes the colour of its entry (16 hard
// bands).
import type { Canvas } from "../display/canvas";
import type { Ink } from "../effects/types";
import { STEPS } from "../effects/types";
import { ENTRIES, mix } from "./compile";

export class PaletteInk implements Ink {
  readonly given: boolean;
  private entries: Uint32Array;
  private blend: boolean;
  private wires: Uint32Array;
  /** The position triplet map (see Ink.map), two turns long; made on first use. */
  private triplets: Uint8Array | null;
  private canvas: Canvas | null;

  /** `entries`: 16 logical colours; `given`: they are the app's palette, not stock colours. */
  constructor(entries: Uint32Array, blend: boolean, given: boolean) {
    this.entries = entries;
    this.blend = blend;
    this.given = given;
    this.wires = new Uint32Array(STEPS);
    this.triplets = null;
    this.canvas = null;
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
    const wires = this.wires;
    for (let p = 0; p < STEPS; p++) {
      c.color(this.logical(p));
      wires[p] = c.g.getColor();
    }
    if (this.triplets) this.fillTriplets(this.triplets);
  }

  at(pos: number): number {
    return this.wires[(((pos | 0) & 255) * STEPS) >> 8];
  }

  rgb(color: number, level?: number): number {
    const c = this.canvas as Canvas;
    c.color(color, level);
    return c.g.getColor();
  }

  map(shift: number): Uint8Array {
    let t = this.triplets;
    if (!t) {
      t = new Uint8Array(3 * STEPS + 256);
      this.triplets = t;
      this.fillTriplets(t);
    }
    const s = ((shift | 0) % STEPS + STEPS) % STEPS;
    return t.subarray(3 * s, 3 * s + 256);
  }

  private fillTriplets(t: Uint8Array): void {
    const wires = this.wires;
    for (let i = 0; i < t.length; i++) {
      const p = Math.floor(i / 3) % STEPS;
      t[i] = (wires[p] >> (16 - 8 * (i % 3))) & 255;
    }
  }
}
