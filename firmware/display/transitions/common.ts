// Pieces the transition families share. A transition draws with a handful of Graphics calls: a
// clip rect narrows a whole-page drawImage to the part that shows the other page. The panel's
// size is read from the page images (a property read is cheaper than a Graphics call). Orders
// that look random (dissolves, Rain) come from a fixed shuffle, the same every time.

/** Draws one page over another: the frame, the two page images, progress 0..1, direction. */
export type TransitionDraw = (out: Graphics, from: GraphicsImage, to: GraphicsImage,
  t: number, reverse: boolean) => void;

/** Ease in and out (smoothstep): wipes and slides start and stop gently. */
export function ease(t: number): number {
  return t * t * (3 - 2 * t);
}

/** Whole pixels of `span` covered at progress `p` (0..1). */
export function part(p: number, span: number): number {
  return Math.round(p * span);
}

/** The clip rect back to the whole frame, as every draw leaves it. */
export function unclip(out: Graphics, img: GraphicsImage): void {
  out.setClipRect(0, 0, img.width - 1, img.height - 1);
}

/**
 * Draws `img` only in columns x1..x2 (clamped to it; nothing when empty). Graphics turns an
 * inverted clip rect round instead of emptying it, hence the check. The clip rect stays set:
 * the draw resets it once at the end (unclip).
 */
export function showColumns(out: Graphics, img: GraphicsImage, x1: number, x2: number): void {
  if (x1 < 0) x1 = 0;
  if (x2 >= img.width) x2 = img.width - 1;
  if (x1 > x2) return;
  out.setClipRect(x1, 0, x2, img.height - 1);
  out.drawImage(img, 0, 0);
}

/** Next value of a xorshift32 generator (nonzero seed): a fixed pseudo-random sequence. */
export function xorshift(x: number): number {
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return x >>> 0;
}

/** Fills order[0..n) with a fixed shuffle of 0..n-1 (Fisher-Yates driven by xorshift from seed). */
export function shuffle(order: Uint8Array | Uint16Array, n: number, seed: number): void {
  for (let i = 0; i < n; i++) order[i] = i;
  let x = seed;
  for (let i = n - 1; i > 0; i--) {
    // xorshift, inlined: this runs once per pixel when a dissolve first meets a panel size.
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const j = (x >>> 0) % (i + 1);
    const swap = order[i];
    order[i] = order[j];
    order[j] = swap;
  }
}
