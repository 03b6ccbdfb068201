// Whole pages dimmed for the fading transitions: Graphics cannot scale pixels, so a page image
// goes through one of the dim.lut tables (build/tables.mjs) with a single E.mapInPlace.
const TABLE_FILE = "dim.lut";
const STEPS = 32;

export class Dimmer {
  /** The dimmed copy handed out; its buffer is made on first use, at the page's size. */
  readonly image: GraphicsImage;
  private out: Uint8Array | null;
  private src: GraphicsImage | null;
  private srcBytes: Uint8Array | null;
  private step: number;
  private table: Uint8Array | null;

  constructor() {
    this.image = { width: 0, height: 0, bpp: 24, buffer: "" };
    this.out = null;
    this.src = null;
    this.srcBytes = null;
    this.step = -1;
    this.table = null;
  }

  /** Gives the dimmed copy's buffer back (after a transition). */
  release(): void {
    this.src = null;
    this.srcBytes = null;
    this.out = null;
    this.table = null;
    this.image.buffer = "";
    this.step = -1;
  }

  /** `src` at `level` (0..1) of its brightness; `src` itself at full level or without the tables. */
  dim(src: GraphicsImage, level: number): GraphicsImage {
    const step = Math.round((level < 0 ? 0 : level > 1 ? 1 : level) * (STEPS - 1));
    if (step === STEPS - 1) return src;
    if (src !== this.src) {
      this.src = src;
      this.srcBytes = new Uint8Array(src.buffer as ArrayBuffer);
      this.out = new Uint8Array(this.srcBytes.length);
      this.image.width = src.width;
      this.image.height = src.height;
      this.image.buffer = this.out.buffer;
      this.step = -1;
    }
    if (step !== this.step) {
      // One table of 256 bytes, mapped onto flash on the device.
      const table = require("Storage").read(TABLE_FILE, step * 256, 256);
      if (!table) return src;
      this.table = new Uint8Array(E.toArrayBuffer(table));
      this.step = step;
    }
    E.mapInPlace(this.srcBytes as Uint8Array, this.out as Uint8Array, this.table as Uint8Array);
    return this.image;
  }
}
