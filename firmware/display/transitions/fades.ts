// Transitions that change brightness rather than position. Graphics cannot mix two pixels, so
// the levels come from the caller: it renders each page at the level a PageLevel gives (see
// transitions.ts), and these draws only choose which page lies on top.

/** Level of page 0 (from) or 1 (to) at progress t: the caller renders that page dimmed by it. */
export type PageLevel = (t: number, page: number) => number;

/** Through black: the old page fades out over the first half, the new one in over the second. */
export function throughBlack(t: number, page: number): number {
  if (page === 0) return t < 0.5 ? 1 - 2 * t : 0;
  return t > 0.5 ? 2 * t - 1 : 0;
}

/** Straight crossfade. */
export function crossLevel(t: number, page: number): number {
  return page === 0 ? 1 - t : t;
}

/** One page at a time, each at the level throughBlack gives it. */
export function dim(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  out.drawImage(t < 0.5 ? from : to, 0, 0);
}

// The same pixels as a page image, with black see-through, so a page can lie over another one
// and only its lit pixels cover. Reused every frame (no allocation).
const overFrom: GraphicsImage = { width: 0, height: 0, bpp: 24, buffer: "", transparent: 0 };
const overTo: GraphicsImage = { width: 0, height: 0, bpp: 24, buffer: "", transparent: 0 };

function seeThrough(view: GraphicsImage, img: GraphicsImage): GraphicsImage {
  view.width = img.width;
  view.height = img.height;
  view.buffer = img.buffer;
  return view;
}

/**
 * Crossfade of the two dimmed pages: where only one page is lit it shows at its level, exactly
 * as a mix would; where both are lit the page with the higher level lies on top.
 */
export function fade(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  if (t < 0.5) {
    out.drawImage(to, 0, 0);
    out.drawImage(seeThrough(overFrom, from), 0, 0);
  } else {
    out.drawImage(from, 0, 0);
    out.drawImage(seeThrough(overTo, to), 0, 0);
  }
}

/**
 * The old page ramps into solid white and the new one ramps out of it. White is the colour
 * selected on `out` when the draw starts (the caller selects its graded white there); it is
 * scaled by how far the flash has come and lies under the dimmed page until it outshines it.
 */
export function flash(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  const white = out.getColor();
  const glow = t < 0.5 ? 2 * t : 2 - 2 * t;
  const r = Math.round(((white >> 16) & 255) * glow);
  const g = Math.round(((white >> 8) & 255) * glow);
  const b = Math.round((white & 255) * glow);
  out.setColor((r << 16) | (g << 8) | b);
  out.fillRect(0, 0, from.width - 1, from.height - 1);
  if (glow < 0.5) out.drawImage(t < 0.5 ? seeThrough(overFrom, from) : seeThrough(overTo, to), 0, 0);
}

/** Steps of Blink: the old page on, off, on, off, then the new page on, off, on. */
const BLINK_STEPS = 7;

/** The old page blinks out in hard steps, then the new page blinks in the same way. */
export function blink(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  const step = t >= 1 ? BLINK_STEPS - 1 : Math.floor(t * BLINK_STEPS);
  if (step & 1) return;
  out.drawImage(step < BLINK_STEPS >> 1 ? from : to, 0, 0);
}
