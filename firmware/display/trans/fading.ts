// What the transitions that change brightness share (Dim, Fade, Flash). Graphics cannot mix two
// pixels, so each of them dims the pages it shows to their levels at t (a Dimmer each) and only
// chooses which page lies on top. Each makes its two Dimmers when it is made, and they are
// dropped with it: the old page's with a copy of its own, the new page's in the scratch bytes the
// transition is handed (transitions.ts).
//
// A page is dimmed through one of the dim.lut tables (build/tables.mjs) with a single
// E.mapInPlace. The Dimmer in scratch is written whole at every dim, as nothing there outlives a
// draw.
import { fwFile } from "../../platform/slot";

const TABLE_FILE = "dim.lut";
const STEPS = 32;

/** Dims one page of a fading transition into a buffer it keeps. */
export class Dimmer {
  /** The dimmed copy handed out. */
  private image: GraphicsImage;
  private out: Uint8Array;
  /** The last page dimmed (the same one frame after frame) and a view of its bytes. */
  private page: GraphicsImage | null;
  private src: Uint8Array | null;
  private step: number;
  private table: Uint8Array | null;

  /** Dims w x h pages into `into` (w x h x 3 bytes or more, rewritten at every dim), or into a copy allocated now. */
  constructor(w: number, h: number, into?: ArrayBuffer) {
    this.out = into ? new Uint8Array(into, 0, w * h * 3) : new Uint8Array(w * h * 3);
    this.image = { width: w, height: h, bpp: 24, buffer: this.out.buffer };
    this.page = null;
    this.src = null;
    this.step = -1;
    this.table = null;
  }

  /** `page` at `level` (0..1) of its brightness; the page itself at full level or without the tables. */
  dim(page: GraphicsImage, level: number): GraphicsImage {
    const step = Math.round(level * (STEPS - 1));
    if (step === STEPS - 1) return page;
    if (step !== this.step) {
      // One table of 256 bytes, mapped onto flash on the device.
      const table = require("Storage").read(fwFile(TABLE_FILE), step * 256, 256);
      if (!table) return page;
      this.table = new Uint8Array(E.toArrayBuffer(table));
      this.step = step;
    }
    // Known by the image, not its buffer: the interpreter compares ArrayBuffers byte by byte.
    if (page !== this.page) {
      this.page = page;
      this.src = new Uint8Array(page.buffer as ArrayBuffer);
    }
    E.mapInPlace(this.src as Uint8Array, this.out, this.table as Uint8Array);
    return this.image;
  }
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
