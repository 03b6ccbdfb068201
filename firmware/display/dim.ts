// Whole pages dimmed for the fading transitions: Graphics cannot scale pixels, so a page image
// goes through one of the dim.lut tables (build/tables.mjs) with a single E.mapInPlace. A Dimmer
// is made with the transition that needs it, before that transition starts, and dropped with it.
// Its copy may be borrowed bytes (the panel's scratch): dim() writes it whole every time.
import { fwFile } from "../platform/slot";

const TABLE_FILE = "dim.lut";
const STEPS = 32;

export class Dimmer {
  /** The dimmed copy handed out. */
  readonly image: GraphicsImage;
  private src: GraphicsImage;
  private srcBytes: Uint8Array;
  private out: Uint8Array;
  private step: number;
  private table: Uint8Array | null;

  /**
   * Dims the pixels of `src` (whatever they hold when dim is called) into `into` (as many bytes,
   * rewritten at every dim), or into a copy allocated now.
   */
  constructor(src: GraphicsImage, into?: ArrayBuffer) {
    this.src = src;
    this.srcBytes = new Uint8Array(src.buffer as ArrayBuffer);
    this.out = into ? new Uint8Array(into, 0, this.srcBytes.length) : new Uint8Array(this.srcBytes.length);
    this.image = { width: src.width, height: src.height, bpp: 24, buffer: into || this.out.buffer };
    this.step = -1;
    this.table = null;
  }

  /** The source at `level` (0..1) of its brightness; the source itself at full level or without the tables. */
  dim(level: number): GraphicsImage {
    const step = Math.round((level < 0 ? 0 : level > 1 ? 1 : level) * (STEPS - 1));
    if (step === STEPS - 1) return this.src;
    if (step !== this.step) {
      // One table of 256 bytes, mapped onto flash on the device.
      const table = require("Storage").read(fwFile(TABLE_FILE), step * 256, 256);
      if (!table) return this.src;
      this.table = new Uint8Array(E.toArrayBuffer(table));
      this.step = step;
    }
    E.mapInPlace(this.srcBytes, this.out, this.table as Uint8Array);
    return this.image;
  }
}
