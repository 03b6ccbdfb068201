// The contract between the page (or the render loop, for the global overlay) and the modules that
// draw background effects (effects/<name>.mod.ts) and weather overlays (overlays/<name>.mod.ts).
//
// - A module's default export is an EffectModule. `make(w, h)` is called outside frames, when the
//   page that uses it is made; it allocates everything its frames draw with (at most a few
//   hundred bytes of typed arrays), so that no frame allocates.
// - Every frame, draw(g, t, ink) paints into `g` (24 bpp, the page's size), with colours that are
//   already wire colours (graded for the panel): from the ink, never from a raw 0xRRGGBB.
//   An effect paints the whole background (it replaces the page's clear); an overlay paints only
//   its own pixels over the finished page, so text and icons stay visible.
// - `t` is the effect's own time in milliseconds: time on screen multiplied by the speed
//   (effectSpeed or overlaySettings.speed). A frame depends on t alone (a pure function of time,
//   never of the frames before it): a slow frame does not slow an effect, and a test can draw any
//   moment directly. Randomness comes from noise.ts, seeded by time steps and positions.
// - `stock` is the module's own colours as palette text (palette/compile.ts, parseStops: one
//   stop per space-separated word, `RRGGBB` or `RRGGBB@pos`); the ink holds them when the app
//   gives no palette. An effect with fixed colours ignores the ink's palette and chooses its
//   colours with ink.rgb.
export interface Ink {
  /** Whether the app gave a palette (else the ink holds the module's stock colours). */
  readonly given: boolean;
  /** Wire colour of palette position `pos` (0-255, wrapping), blended or in 16 bands. */
  tone(pos: number): number;
  /** Wire colour of a fixed logical colour 0xRRGGBB dimmed by `level` (0..1, default 1). */
  rgb(color: number, level?: number): number;
  /**
   * A 256-byte map for E.mapInPlace from a "position triplet" buffer into the frame's bytes: in
   * the source, each pixel is three bytes 3p, 3p+1, 3p+2 for palette step p (0..STEPS-1); the
   * map turns byte 3p+c into channel c of the wire colour of step (p + shift) % STEPS.
   * Palette cycling over a still field costs one mapInPlace per frame.
   */
  map(shift: number): Uint8Array;
}

/** Palette steps of Ink.map (a position triplet byte must stay below 256). */
export const STEPS = 85;

export interface Effect {
  draw(g: Graphics, t: number, ink: Ink): void;
}

export interface EffectModule {
  stock: string;
  make(w: number, h: number): Effect;
}
