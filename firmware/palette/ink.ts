// A compiled palette graded for the panel: what effects and overlays draw with (effects/types.ts
// Ink). The 16 logical entries are turned into STEPS wire colours when the grading changes (the
// page calls grade() with the canvas it draws on), so a frame only looks colours up. They are kept
// once, as the position triplet map of Ink.map (channel bytes, step after step, one turn and a bit
// more so that any shift has 256 bytes after it): tone() reads its three bytes there.
//
// Positions wrap: the last step blends from entry 15 back to entry 0, so a palette that is swept
// round and round has no seam. With blend off each step takes the colour of its entry (16 hard
// bands).
//
// Text painted from the palette (payload/page.mod.ts) gets its columns' colours in one
// E.mapInPlace a frame: steps() writes the position triplets of the text's columns once, and
// mapped() / rampMap() are the maps that turn them into wire colours, without allocating.
import type { Canvas } from "../display/canvas";
import type { Ink } from "../effects/types";
import { STEPS } from "../effects/types";
import { ENTRIES, mix } from "./compile";

/** Steps of the graded ramp from the first entry to the last (text painted across its width). */
const RAMP_STEPS = 64;

/** A shift in steps, whole and wrapped into 0..STEPS-1 (map() and mapped() start there). */
function wrapStep(shift: number): number {
  return ((shift | 0) % STEPS + STEPS) % STEPS;
}

export class PaletteInk implements Ink {
  readonly given: boolean;
  private entries: Uint32Array;
  private blend: boolean;
  /** The position triplet map (see Ink.map). */
  private triplets: Uint8Array;
  /** RAMP_STEPS wire colours from the first entry to the last (along()), as R, G, B bytes; made on first use. */
  private ramps: Uint8Array | null;
  private canvas: Canvas | null;
  /** A wire colour no step may take (grade()): such a step is kept one off in its lowest bit. */
  declare private avoid?: number;
  /** mapped(): the map's bytes for one shift, copied out of the triplets by drawing them as an image. */
  declare private shifted?: { g: Graphics; bytes: Uint8Array; ring: GraphicsImage; shift: number };

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
    const r = this.rampMap();
    const i = 3 * Math.round((k <= 0 ? 0 : k >= 1 ? 1 : k) * (RAMP_STEPS - 1));
    return (r[i] << 16) | (r[i + 1] << 8) | r[i + 2];
  }

  /**
   * along()'s table as a map for E.mapInPlace: byte 3i + c is channel c of the wire colour of ramp
   * step i (the triplets steps() writes for a stretched palette). Made on first use, kept graded.
   */
  rampMap(): Uint8Array {
    let r = this.ramps;
    if (!r) {
      r = new Uint8Array(3 * RAMP_STEPS);
      this.ramps = r;
      this.fillRamps(r);
    }
    return r;
  }

  /**
   * Position triplets (three bytes a column, as Ink.map reads them) of `count` columns of text
   * `width` columns wide: with `span`, column k is at step floor(STEPS * (k % span) / span), so
   * mapped(shift) paints it as the palette `span` columns a pass, moved by `shift` steps; with
   * span 0 it is at along()'s step for k / (width - 1), for rampMap().
   */
  steps(out: Uint8Array, count: number, span: number, width: number): void {
    for (let k = 0; k < count; k++) {
      const p = 3 * (span ? Math.floor((STEPS * (k % span)) / span) : Math.round((width > 1 ? k / (width - 1) : 0) * (RAMP_STEPS - 1)));
      out[3 * k] = p;
      out[3 * k + 1] = p + 1;
      out[3 * k + 2] = p + 2;
    }
  }

  /** Logical colour of step `p` (0..STEPS-1). */
  logical(p: number): number {
    const x = (p * ENTRIES) / STEPS;
    const i = Math.floor(x);
    const e = this.entries;
    if (!this.blend) return e[i];
    return mix(e[i], e[(i + 1) % ENTRIES], x - i);
  }

  /**
   * Grades every step through `c` (the canvas frames are drawn on, graded or not); a step whose
   * wire colour would be `avoid` (a key colour the caller lays its drawing over with) takes it
   * with the lowest bit flipped.
   */
  grade(c: Canvas, avoid?: number): void {
    this.canvas = c;
    if (avoid === undefined) delete this.avoid;
    else this.avoid = avoid;
    if (this.shifted) this.shifted.shift = -1;
    const t = this.triplets;
    const turn = 3 * STEPS;
    for (let p = 0; p < STEPS; p++) {
      c.color(this.logical(p));
      const wire = this.avoided(c.g.getColor());
      for (let ch = 0; ch < 3; ch++) {
        const i = 3 * p + ch;
        const v = (wire >> (16 - 8 * ch)) & 255;
        t[i] = v;
        if (i + turn < t.length) t[i + turn] = v;
      }
    }
    if (this.ramps) this.fillRamps(this.ramps);
  }

  private avoided(wire: number): number {
    return wire === this.avoid ? wire ^ 1 : wire;
  }

  private fillRamps(r: Uint8Array): void {
    const c = this.canvas as Canvas;
    for (let i = 0; i < RAMP_STEPS; i++) {
      c.color(this.ramp(i / (RAMP_STEPS - 1)));
      const wire = this.avoided(c.g.getColor());
      r[3 * i] = wire >> 16;
      r[3 * i + 1] = (wire >> 8) & 255;
      r[3 * i + 2] = wire & 255;
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
    const s = wrapStep(shift);
    return this.triplets.subarray(3 * s, 3 * s + 256);
  }

  /**
   * map(shift) without allocating: its first 3 * STEPS bytes (all a triplet byte reaches), in a
   * buffer of the ink's own that stays valid until the next call or grade(). The triplets are
   * drawn into it as a row of pixels, `shift` steps to the left.
   */
  mapped(shift: number): Uint8Array {
    const s = wrapStep(shift);
    let m = this.shifted;
    if (!m) {
      const g = Graphics.createArrayBuffer(STEPS, 1, 24);
      m = { g: g, bytes: new Uint8Array(g.buffer), ring: { width: 2 * STEPS, height: 1, bpp: 24, buffer: this.triplets.buffer }, shift: -1 };
      this.shifted = m;
    }
    if (m.shift !== s) {
      m.g.drawImage(m.ring, -s, 0);
      m.shift = s;
    }
    return m.bytes;
  }
}
