// Pieces the transitions share. A transition draws with a handful of Graphics calls: a clip rect
// narrows a whole-page drawImage to the part that shows the other page. The panel's size is read
// from the page images (a property read is cheaper than a Graphics call).

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
