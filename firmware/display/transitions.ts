// The 22 page transitions of the app loop. Each one but Random (which picks one of the others) is a
// module, firmware/display/trans/<its name in lower case>.mod.ts: the render loop loads the one the
// next change of page will play before that change starts, and drops it once the change has
// landed, so that only the transition coming next (or the one playing) is in memory. A frame of a
// transition is a composition of Graphics calls (drawImage with offsets or scale, clip rects,
// fills): no per-pixel script, nothing allocated.
//
// Adding a transition: its name goes at the end of TRANSITIONS (device/names.ts; the order is the
// API's) and its module into trans/, named after it in lower case. Its Storage file,
// m.display.trans.<name>, must fit in 28 characters: names of up to 12 letters. What the
// transitions share is in trans/*.ts (no module may import a file that keeps state).
//
// The contract between a transition module and the render loop:
//   - The module's default export is a MakeTransition. Before the change of page starts, it is
//     called with the panel's size and allocates everything the frames draw with; if the
//     Transition it returns has prepare(), that is called (a slice of work at a time, between or
//     beside frames) until it returns true, all before the first frame.
//   - It is also handed `scratch`, a buffer of w x h x 3 bytes (a 24 bpp page's size) that its
//     draw may use as it likes and that holds nothing from one draw to the next: the bytes of
//     the LED chain, which are written only after the frame is composed (panel.ts). Nothing else
//     writes there during the draw, so a transition may make views of it when it is made, but
//     must write what it reads there within the same draw. The fading ones (Dim, Fade, Flash)
//     dim the new page into it, and so keep the whole of it for that.
//   - Every frame of the transition:
//     1. The old page is rendered into `from` and the new page into `to` (24 bpp, the frame's
//        size, at full brightness; the draw must not write to either). Graphics cannot mix
//        pixels, so the fading transitions dim the pages they show in their draw, the old one
//        into a copy of their own and the new one into `scratch`, and only choose which page
//        lies on top (trans/fading.ts). The only things their frames allocate: the dimming
//        table of a level other than the last, in place of that one, and at the first frame a
//        view of each page's bytes.
//     2. `out` is cleared, and the colour of full white as the panel shows it is selected on it
//        (through the frame's Canvas: color(0xFFFFFF)); Flash ramps into that colour.
//     3. draw(out, from, to, t, reverse): t = elapsed / duration (0..1, from the clock); reverse:
//        the direction-aware transitions run the other way. At t = 0 the frame is `from`, at
//        t = 1 it is `to`; a frame depends on t alone, not on the frames before it; the clip rect
//        is the whole frame again afterwards; the colours selected on `out` may have changed.
//   - Once the change has landed, the Transition is dropped, and everything it allocated with it.
import { TRANSITION_COUNT, transitionIndex, transitionName } from "../device/names";
import { loadModule } from "../platform/modules";
import { log } from "../logs/log";

/** Draws one frame of a transition: the frame, the two page images, progress 0..1, direction. */
export type TransitionDraw = (out: Graphics, from: GraphicsImage, to: GraphicsImage, t: number, reverse: boolean) => void;

/** One transition, made for one panel size. */
export interface Transition {
  draw: TransitionDraw;
  /** Set-up too long for one frame, done a bounded slice per call; true once all is done. */
  prepare?: () => boolean;
}

/** The default export of a transition module: makes it for a panel w x h, with a frame's worth of scratch bytes. */
export type MakeTransition = (w: number, h: number, scratch: ArrayBuffer) => Transition;

/**
 * The transition to play for the setting `name`: its index in TRANSITIONS, or for Random (and
 * any name not in the list) one of the other 21 chosen by `seed`, so consecutive seeds give a
 * fresh pick each time.
 */
export function pickTransition(name: string, seed: number): number {
  const i = transitionIndex(name);
  if (i > 0) return i;
  // One step of xorshift32 (a fixed pseudo-random sequence) from the seed.
  let x = (seed | 0) ^ 0x6d2b79f5;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return 1 + ((x >>> 0) % (TRANSITION_COUNT - 1));
}

/** The transitions that could not be made, a bit each, so that each is reported once: the render loop keeps it. */
export interface Reported {
  failed: number;
}

/**
 * Loads transition `index` and makes it for a panel w x h drawing with `scratch` (w x h x 3
 * bytes; see the contract above); its prepare, if any, is still to run. Null when its module is
 * missing or broken (reported once per `seen`): the change of page is then a cut.
 */
export function loadTransition(index: number, w: number, h: number, scratch: ArrayBuffer, seen: Reported): Transition | null {
  try {
    // The module: "display/trans/" and the transition's name in lower case.
    return loadModule<MakeTransition>("display/trans/" + transitionName(index).toLowerCase())(w, h, scratch);
  } catch (e) {
    transitionFailed(index, e, seen);
    return null;
  }
}

/** Reports that transition `index` plays as a cut, unless `seen` says it was reported. */
export function transitionFailed(index: number, e: unknown, seen: Reported): void {
  const bit = 1 << (index & 31);
  if (seen.failed & bit) return;
  seen.failed |= bit;
  log("transition " + transitionName(index) + " plays as a cut: " + e);
}
