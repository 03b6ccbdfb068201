// What the transitions that change brightness share (Dim, Fade, Flash). Graphics cannot mix two
// pixels, so the render loop renders each page at the level their PageLevel gives (see
// transitions.ts), and their draws only choose which page lies on top.

/** Through black: the old page fades out over the first half, the new one in over the second. */
export function throughBlack(t: number, page: number): number {
  if (page === 0) return t < 0.5 ? 1 - 2 * t : 0;
  return t > 0.5 ? 2 * t - 1 : 0;
}

/** Straight crossfade. */
export function crossLevel(t: number, page: number): number {
  return page === 0 ? 1 - t : t;
}

/** A view of a page's pixels with black see-through, so it lies over another page where lit. */
export function seeThroughView(): GraphicsImage {
  return { width: 0, height: 0, bpp: 24, buffer: "", transparent: 0 };
}

/** `view` pointed at the pixels of `img`; a frame sets it, nothing is allocated. */
export function seeThrough(view: GraphicsImage, img: GraphicsImage): GraphicsImage {
  view.width = img.width;
  view.height = img.height;
  view.buffer = img.buffer;
  return view;
}
