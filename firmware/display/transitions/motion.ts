// Transitions that move whole pages (or rows of them): nothing is revealed in place.
import { ease, part, unclip } from "./common";

/** Both pages move together sideways; the new one enters from the right (reverse: the left). */
export function slide(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const w = from.width;
  const off = part(ease(t), w);
  const dir = reverse ? -1 : 1;
  out.drawImage(from, -dir * off, 0);
  out.drawImage(to, dir * (w - off), 0);
}

/** Vertical roll: the old page leaves upwards as the new one comes up from below (reverse: down). */
export function roll(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const h = from.height;
  const off = part(ease(t), h);
  const dir = reverse ? -1 : 1;
  out.drawImage(from, 0, -dir * off);
  out.drawImage(to, 0, dir * (h - off));
}

/** The new page slides in over the old one, which stays put. */
export function cover(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const w = from.width;
  const left = w - part(ease(t), w);
  out.drawImage(from, 0, 0);
  out.drawImage(to, reverse ? -left : left, 0);
}

/** The old page slides away and uncovers the new one standing behind it. */
export function uncover(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const off = part(ease(t), from.width);
  out.drawImage(to, 0, 0);
  out.drawImage(from, reverse ? off : -off, 0);
}

/** Rows of the new page slide in over the old one, even rows from the right, odd from the left. */
export function interlace(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean): void {
  const w = from.width;
  const h = from.height;
  const left = w - part(ease(t), w);
  out.drawImage(from, 0, 0);
  if (left === w) return;
  // Row 0 comes from the right unless reversed; the sign flips every row.
  let dx = reverse ? -left : left;
  for (let y = 0; y < h; y++) {
    out.setClipRect(0, y, w - 1, y);
    out.drawImage(to, dx, 0);
    dx = -dx;
  }
  unclip(out, from);
}

const zoomOptions: DrawImageOptions = { scale: 1 };

/** The new page grows from the centre over the old one, scaled with `t`. */
export function zoom(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  out.drawImage(from, 0, 0);
  // drawImage takes a scale of 0 as 1, and a scaled draw may land a pixel off the unscaled one.
  if (t <= 0) return;
  if (t >= 1) {
    out.drawImage(to, 0, 0);
    return;
  }
  const w = from.width;
  const h = from.height;
  // drawImage steps through the image by 256 / scale, cut to a whole number: a scale of
  // 256 / (n + 1/2) keeps that step clear of the cut, so no build's rounding can move it.
  const s = 256 / (Math.floor(256 / t) + 0.5);
  zoomOptions.scale = s;
  out.drawImage(to, Math.round((w - s * w) / 2), Math.round((h - s * h) / 2), zoomOptions);
}
