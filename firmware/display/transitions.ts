// The 22 page transitions of the app loop, as compositions of Graphics calls (drawImage with
// offsets or scale, clip rects, fills): no per-pixel script, nothing allocated per frame.
//
// Contract with the render loop, every frame of a transition:
//   1. i = the transition chosen when the page change started (pickTransition: 1..21).
//   2. Render the old page into `from` and the new page into `to` (24 bpp, the frame's size).
//      If TRANSITION_LEVELS[i] is not null, render page p (0 = from, 1 = to) dimmed by the level
//      TRANSITION_LEVELS[i](t, p), 0..1, applied like Canvas.color's `level` to every colour the
//      page draws. Graphics cannot mix pixels, so fading transitions (Dim, Fade, Flash) get their
//      brightness this way and only choose which page lies on top.
//   3. Clear `out`, select on it the colour of full white as the panel shows it (through the
//      frame's Canvas: color(0xFFFFFF)); Flash ramps into that colour.
//   4. TRANSITION_DRAWS[i](out, from, to, t, reverse), t = elapsed / duration (0..1, from the
//      clock), reverse = the direction-aware transitions run the other way. At t = 0 the frame
//      is `from`, at t = 1 it is `to`; the clip rect is the whole frame again afterwards; the
//      colours selected on `out` may have changed.
import { TRANSITIONS } from "../device/names";
import { findName } from "../core/text";
import type { TransitionDraw } from "./transitions/common";
import { xorshift } from "./transitions/common";
import type { PageLevel } from "./transitions/fades";
import { slide, roll, cover, uncover, interlace, zoom } from "./transitions/motion";
import { curtain, split, reload, blinds, wave, ripple, diamond } from "./transitions/wipes";
import { dim, fade, flash, blink, throughBlack, crossLevel } from "./transitions/fades";
import { pixelate, blocks } from "./transitions/dissolves";
import { rain, melt } from "./transitions/columns";

import { releaseScratch } from "./transitions/mask";
export { releaseScratch as endTransition } from "./transitions/mask";
export type { TransitionDraw } from "./transitions/common";
export type { PageLevel } from "./transitions/fades";

/** A cut; Random never reaches the draw (pickTransition resolves it), the slot keeps indexes aligned. */
function cut(out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number): void {
  out.drawImage(t < 1 ? from : to, 0, 0);
}

/** Indexed like TRANSITIONS. */
export const TRANSITION_DRAWS: TransitionDraw[] = [
  cut, slide, dim, zoom, roll, pixelate, curtain, ripple, blink, reload,
  fade, cover, uncover, split, blinds, blocks, flash, diamond, wave, rain,
  melt, interlace,
];

/** Indexed like TRANSITIONS: how dim to render each page, or null for full brightness. */
export const TRANSITION_LEVELS: (PageLevel | null)[] = [
  null, null, throughBlack, null, null, null, null, null, null, null,
  crossLevel, null, null, null, null, null, throughBlack, null, null, null,
  null, null,
];

/**
 * Builds what the dissolves keep (their pixel orders, a few milliseconds of work each) for a
 * panel size before their first use, so that no frame of a transition has to.
 */
export function prepareTransitions(w: number, h: number): void {
  const out = Graphics.createArrayBuffer(w, h, 24);
  const page: GraphicsImage = { width: w, height: h, bpp: 24, buffer: out.buffer };
  pixelate(out, page, page, 0.5);
  blocks(out, page, page, 0.5);
  rain(out, page, page, 0.5, false);
  releaseScratch();
}

/**
 * The transition to play for the setting `name`: its index in TRANSITIONS, or for Random (and
 * any name not in the list) one of the other 21 chosen by `seed`, so consecutive seeds give a
 * fresh pick each time.
 */
export function pickTransition(name: string, seed: number): number {
  const i = findName(TRANSITIONS, name);
  if (i > 0) return i;
  return 1 + (xorshift((seed | 0) ^ 0x6d2b79f5) % (TRANSITIONS.length - 1));
}
