// Espruino's Graphics on the host, for ArrayBuffer instances of 24 bpp (and 1 bpp, for masks):
// it draws pixel for pixel what the interpreter of the real-interpreter suite (Espruino
// 2v29.277, Linux build, run with the ESP32 board's properties) draws, so what the firmware
// renders can be checked byte for byte. The buffer is laid out as there: rows top to bottom,
// every odd row reversed in memory with `zigzag`; 24 bpp is 3 bytes a pixel in R, G, B order,
// 1 bpp is a bit a pixel, most significant bit first unless `msb: false`. Rotation and
// reflection, clipping, the 4x6 and 6x8 fonts, custom 1/2/4 bpp fonts and images follow the
// interpreter's integer arithmetic. test/espruino/graphics-compare.ts checks it against the
// interpreter itself.
//
// The interpreter's quirks are kept on purpose, since the firmware runs on them:
// - a 1 bpp image without a palette draws in the foreground/background colours cut to 16 bits
//   (a palette entry is 16 bits), so on 24 bpp only colours below 0x10000 survive; images of
//   other depths without a palette are written raw (that build has no default palettes);
// - palettes must be Uint16Array, and an entry is written as it is (0x00XXXX on 24 bpp);
// - stringWidth counts 255 for a custom font's characters past the end of its widths string,
//   where drawString draws nothing;
// - setFontAlign(x) leaves y at 0 (centred), and drawImage with `rotate: 0` centres the image;
// - a scaled or rotated drawImage on a rotated Graphics is clipped against the unrotated clip
//   rectangle (the whole buffer unless setClipRect was used);
// - blit, and scroll when it cannot copy whole rows (zigzag, a sideways move, 1 bpp MSB first,
//   buffers of 10 to 19 bytes), copy only the first source row when moving down, and scroll
//   moves an area |x| too short (2v29.277; the 2v29 release differs only there);
// - 1 bpp keeps the low bit of a colour value, except that images drawn unclipped onto a
//   buffer in one piece, MSB first, without zigzag or rotation, set a pixel for any nonzero
//   value (a fast path of Linux builds; the ESP32 build keeps the low bit there too).
// Not covered: other bit depths, the vector font, PBF fonts, drawImage's `filter`.

const SWAP_XY = 16;
const INVERT_X = 32;
const INVERT_Y = 64;
const MAPPED_XY = SWAP_XY | INVERT_X | INVERT_Y;

// Font sizes as the interpreter packs them: the font in the top 3 bits, the scale below (or an
// x scale and a y scale when SCALE_X_Y is set).
const FONT_SHIFT = 13;
const FONT_4X6 = 1;
const FONT_6X8 = 2;
const FONT_CUSTOM = 4; // 4, 5, 6: custom 1, 2, 4 bpp
const CUSTOM_FONT_OF_BPP: { [bpp: number]: number } = { 1: 4, 2: 5, 4: 6 };
const SCALE_MASK = 8191;
const SCALE_X_Y = 4096;

// Glyphs of the built-in fonts, taken from what the interpreter draws: for each character from
// 33 on, its rows top to bottom, each row as many bits as the glyph is wide (3 for 4x6 and 5 for
// 6x8, the last column of the cell being the gap), packed MSB first.
const FONT_4X6_FIRST = 33;
const FONT_4X6_COUNT = 100;
const FONT_4X6_ROWS =
  "SQQtAAvvoXz6pUo2e4SAAUkQRJQXoAAXQAAUAHAAAQJUgVtQWS4xU4xRwdvI8xwc1Q5KQVVQVZQAQQAQUAUQA44ARQxQQV8Y" +
  "Vvo11wVlQ1tw80480gctYt9o6S4JNQu1okk4v/4v/oVtQ1ugVvY1uocRw6SQtt4tvQt/otVot6Q5U48k4kRI5J4VAAAA4iAA" +
  "GP4mtwDkYLtYC8YK6QDrOmtoQy4QyUl1oyS4G/4GtoCtQGt0DtZF0gDxwXSIFtYFvQF/4FVoFrOHU4ayYSSQyaweAA///c2j" +
  "AAAAAAAAAAAA";
const FONT_6X8_FIRST = 33;
const FONT_6X8_COUNT = 223;
const FONT_6X8_ROWS =
  "AQhCAIBSlAAAAAK+pX1AI6ji1cTOhEQuYCKI2UmgIQgAAAAREIQggkEEIQiIABRPkUAACE+QgAAAABCIAAAPgAAAAAAQgAiE" +
  "QiEQA6da5cABGUIT4AOiF0PgA6JgxcAAjKl8QAfh4MXAAZHoxcAHwiIhAAOi6MXAA6MXhcAACEAQgAAIQBCIAIiIIIIAAfB8" +
  "AAQQQREQA6IiAIB0Z1rODwEIp0YgB6Pox8ADowhFwAclGMuAB+HIQ+AH4chCAAOhC8XABGP4xiADiEIRwAHCGMXABGVOSiAE" +
  "IQhD4AR3WMYgBHNZxiADoxjFwAejH0IAA6MYyaEHo+jGIAOg4MXAB8hCEIAEYxjFwARjFSiABGNauUAEVEVGIARiohCAB8RE" +
  "Q+ByEIQhDoIQQghBcIQhCE4hFKiAAAAAAAAfQQAAAAAAHBfF4IQ9GMfAAB0IQeAIXxjF4AAdH8HgOjyEIQAAHxi8LoQ9GMYg" +
  "IBhCEcAQHCEIXIQjLkogYQhCEMAANVrWoAA9GMYgAB0YxcAAPRj6EAAfGLwhAC2YQgAAHQcHwEI8hCDgACMYxeAAIxUogAAj" +
  "GtVAACKiKiAAIxi8LgA+IiPgGQmMEIMhCEIQhMEIMZCYAACayAAAAAAAADJ4jiTAAAAAAAAAAAAwiBkI4hCYAAAAbTIAAAAC" +
  "oAEJ8hCEIT5CfIQBFAAAAM6IiG9gI6DgxcAABEQQQAPpalHgAB9LUeAnxERD4AAAAAAAAAAAAAAiGAAAAGEQAAAATLYAAADa" +
  "ZAAAAAAI77iAAAAHAAAAAA+AAANsAAAAB9awAAAgHQcHwAAggiIAABVbUWAAAAAAACA+IiPgBGKiEIAAAAAAAAAIAhCEIR1K" +
  "PIQBkcQi4AAi5TogjFXyfIAhCAAQhHQZJJg+UAAAAAB0a5zWLmCdJwAAAAqqKKAAAA8IQAAAAAAAdHu+7i74AAAAAGSkwAAA" +
  "AQnyE+BgiIcAAGCIJgAAEQAAAAACUpapEAP60pSlAADGAAAAAAAgmCMIRwAAZKUmAAAAKKKqgJSoRK7xlKhFplOCpMolcQAI" +
  "AiIuYAinRiAwCKdGIHAIp0YgsQinRiBRCKdGICAIp0YgAdluUuADowhFxGfhyEPgN+HIQ+BX4chD4AfhyEPgY4hCEcAziEIR" +
  "wHOIQhHAU4hCEcADFdSpgLRzWcYgY6MYxcAzoxjFwFOjGMXAs6MYxcBToxjFwAAAoigAC6da5dBkYxjFwDRjGMXAVGMYxcBU" +
  "YxjFwCRiohCABD0Y+gADJUnGwGAcF8XgIBwXxeBwHBfF4LAcF8XgUBwXxeBRHBfF4AA8X9FgAB0IQeRgHR9B4DAdH0HgUB0f" +
  "QeBQHR9B4GAYQhHAMBhCEcBQGEIRwFAYQhHAUwToxcCwPRjGIGAdGMXAMB0YxcBQHRjFwLAdGMXAUB0YxcAACA+AgABdOuXQ" +
  "YCMYxeAwIxjF4FAjGMXgUCMYxeAgIxi8LoQtnNoQUCMYvC4=";

/** One row value (bitsPerRow wide) per glyph row, from a packed bit stream. */
function unpackRows(base64: string, rows: number, bitsPerRow: number): Uint8Array {
  const packed = Buffer.from(base64, "base64");
  const out = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) {
    let v = 0;
    for (let b = 0; b < bitsPerRow; b++) {
      const bit = i * bitsPerRow + b;
      v = (v << 1) | ((packed[bit >> 3] >> (7 - (bit & 7))) & 1);
    }
    out[i] = v;
  }
  return out;
}

const GLYPHS_4X6 = unpackRows(FONT_4X6_ROWS, FONT_4X6_COUNT * 6, 3);
const GLYPHS_6X8 = unpackRows(FONT_6X8_ROWS, FONT_6X8_COUNT * 8, 5);

/** What drawImage takes besides a string: an image object (or another Graphics). */
export interface HostImage {
  width: number;
  height: number;
  bpp?: number;
  buffer: ArrayBufferLike | ArrayBufferView | string;
  transparent?: number;
  palette?: Uint16Array;
}

export interface DrawImageOptions {
  scale?: number;
  rotate?: number;
  frame?: number;
  filter?: boolean;
}

export interface CreateOptions {
  zigzag?: boolean;
  msb?: boolean;
  color_order?: string;
  /** Draws into this ArrayBuffer (2v25 on) instead of allocating one. */
  buffer?: ArrayBuffer;
}

/** C's (int) conversion of a JavaScript argument, as the interpreter does for int32 parameters. */
function int(v: unknown): number {
  return (v as number) | 0;
}

/** The interpreter's jsvGetFloat: undefined (and what does not parse) is NaN. */
function float(v: unknown): number {
  if (typeof v === "number") return v;
  if (v === undefined) return NaN;
  return Number(v);
}

/** C integer division (truncates towards zero). */
function div(a: number, b: number): number {
  return (a / b) | 0;
}

/** C's chtod: a digit or a letter (any letter, as the interpreter does) to its value, else -1. */
function digitValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 122) return 10 + code - 97;
  if (code >= 65 && code <= 90) return 10 + code - 65;
  return -1;
}

/** Blend from bg to fg, amt 0..256 (graphicsBlendColor): per channel in 24 bpp, else either. */
function blend(fg: number, bg: number, amt: number, bpp: number): number {
  if (amt < 0) amt = 0;
  if (amt > 256) amt = 256;
  if (bpp !== 24) return amt >= 128 ? fg : bg;
  const r = (((bg >> 16) & 255) * (256 - amt) + ((fg >> 16) & 255) * amt) >> 8;
  const g = (((bg >> 8) & 255) * (256 - amt) + ((fg >> 8) & 255) * amt) >> 8;
  const b = ((bg & 255) * (256 - amt) + (fg & 255) * amt) >> 8;
  return b | (g << 8) | (r << 16);
}

/**
 * Whether the interpreter (14-byte variables) keeps a buffer of this many bytes in one piece of
 * memory: in one variable (up to 9 bytes) or in a flat string (from 20 bytes); in between it is
 * a chain of two, which Graphics reaches through slower, plainer paths.
 */
function isFlat(byteLength: number): boolean {
  return byteLength <= 9 || byteLength > 19;
}

// Scratch space for fillPoly (never re-entered).
const MAX_POLY_VALUES = 128;
const MAX_CROSSES = 64;
const polyVerts = new Int16Array(MAX_POLY_VALUES);
const polyCross = new Int16Array(MAX_CROSSES);
const polySlope = new Uint8Array(MAX_CROSSES);

/** Full-buffer byte views of the ArrayBuffers images come from, made once per buffer. */
const byteViews = new WeakMap<ArrayBufferLike, Uint8Array>();

function bytesOf(buffer: ArrayBufferLike): Uint8Array {
  let view = byteViews.get(buffer);
  if (!view) {
    view = new Uint8Array(buffer);
    byteViews.set(buffer, view);
  }
  return view;
}

// Tags rather than instanceof: the firmware runs in a vm context with its own intrinsics.
function isArrayBuffer(v: unknown): v is ArrayBuffer {
  const tag = Object.prototype.toString.call(v);
  return tag === "[object ArrayBuffer]" || tag === "[object SharedArrayBuffer]";
}

function isUint16Array(v: unknown): v is Uint16Array {
  return Object.prototype.toString.call(v) === "[object Uint16Array]";
}

function own(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

export class Graphics {
  /** The pixels in memory order (see the top of this file). */
  readonly buffer: ArrayBuffer;
  private readonly bytes: Uint8Array;
  /** Size of the buffer (the "device"); getWidth/getHeight swap them when rotated. */
  private readonly dw: number;
  private readonly dh: number;
  private readonly bpp: number;
  /** Colour values are cut to this (all bits of a pixel). */
  private readonly colorMask: number;
  private readonly zigzag: boolean;
  private readonly msb: boolean;
  /** 1 bpp in one piece, MSB first, no zigzag: raw writes set a pixel for any nonzero value. */
  private readonly anyBitSets: boolean;
  private flags = 0;
  private fg: number;
  private bg = 0;
  // Clip rectangle, inclusive, in buffer coordinates.
  private cx1 = 0;
  private cy1 = 0;
  private cx2: number;
  private cy2: number;
  private fontSize = (FONT_4X6 << FONT_SHIFT) | 1;
  // 2-bit fields as stored there: 3 = left/top (-1), 0 = centre, 1 = right/bottom.
  private alignX = 3;
  private alignY = 3;
  private fontRotate = 0;
  private cursorX = 0;
  private cursorY = 0;
  // The custom font, as setFontCustom left it.
  private customBitmap = "";
  private customFirst = 0;
  private customWidths: string | number = 0;
  private customHeight = 0;
  // Result of map()/unmap() (kept here to draw without allocating).
  private mx = 0;
  private my = 0;
  // The image being drawn: its bytes (a view or a string), where its pixels start, its length.
  private srcBytes: Uint8Array | null = null;
  private srcText = "";
  private srcStart = 0;
  private srcEnd = 0;
  private imgWidth = 0;
  private imgHeight = 0;
  private imgBpp = 0;
  private imgHeader = 0;
  private imgTransparent = -1;
  private imgPalette: ArrayLike<number> | null = null;
  private imgPaletteMask = 0;
  private readonly simplePalette = new Uint32Array(16);

  static createArrayBuffer(width: number, height: number, bpp: number, options?: CreateOptions): Graphics {
    width = int(width);
    height = int(height);
    if (width <= 0 || height <= 0 || width > 32767 || height > 32767) throw new Error("Invalid Size");
    bpp = int(bpp);
    if (bpp !== 24 && bpp !== 1) throw new Error("the Graphics stand-in draws 24 or 1 bpp, not " + bpp);
    const opts = options || {};
    if (bpp === 24 && opts.msb === false) throw new Error("the Graphics stand-in keeps 24 bpp in R, G, B order");
    if (opts.color_order && opts.color_order !== "rgb") throw new Error("the Graphics stand-in keeps the colour order");
    if (opts.buffer !== undefined && !isArrayBuffer(opts.buffer)) throw new Error("'buffer' should be ArrayBuffer");
    // The interpreter takes a smaller one too, but then draws through slower paths that stop at
    // its end; the stand-in keeps to buffers of the full size.
    if (opts.buffer && opts.buffer.byteLength < (width * height * bpp + 7) >> 3) {
      throw new Error("the Graphics stand-in needs a buffer of the full size");
    }
    return new Graphics(width, height, bpp, !!opts.zigzag, opts.msb !== false, opts.buffer);
  }

  private constructor(width: number, height: number, bpp: number, zigzag: boolean, msb: boolean, buffer?: ArrayBuffer) {
    this.dw = width;
    this.dh = height;
    this.bpp = bpp;
    this.colorMask = bpp === 24 ? 0xffffff : 1;
    this.fg = this.colorMask;
    this.zigzag = zigzag;
    this.msb = msb;
    this.buffer = buffer || new ArrayBuffer((width * height * bpp + 7) >> 3);
    this.bytes = new Uint8Array(this.buffer);
    this.anyBitSets = bpp === 1 && msb && !zigzag && isFlat(this.bytes.length);
    this.cx2 = width - 1;
    this.cy2 = height - 1;
  }

  // ---- pixels in buffer coordinates ----------------------------------------------------------

  /** Index of a pixel in memory order, -1 outside the buffer's memory (where raw access strays). */
  private index(x: number, y: number): number {
    if (this.zigzag && y & 1) x = this.dw - (x + 1);
    const i = x + y * this.dw;
    return i >= 0 && i < this.dw * this.dh ? i : -1;
  }

  /** Writes a pixel as the buffer's own setPixel does (plot() cuts the colour first). */
  private put(x: number, y: number, col: number): void {
    const i = this.index(x, y);
    if (i < 0) return;
    const b = this.bytes;
    if (this.bpp === 24) {
      b[i * 3] = col >> 16;
      b[i * 3 + 1] = col >> 8;
      b[i * 3 + 2] = col;
    } else {
      const bit = 1 << (this.msb ? 7 - (i & 7) : i & 7);
      if (col & 1 || (this.anyBitSets && col)) b[i >> 3] |= bit;
      else b[i >> 3] &= ~bit;
    }
  }

  private read(x: number, y: number): number {
    const i = this.index(x, y);
    if (i < 0) return 0;
    const b = this.bytes;
    if (this.bpp === 24) return (b[i * 3] << 16) | (b[i * 3 + 1] << 8) | b[i * 3 + 2];
    return (b[i >> 3] >> (this.msb ? 7 - (i & 7) : i & 7)) & 1;
  }

  /** setPixel in buffer coordinates, inside the clip rectangle only. */
  private plot(x: number, y: number, col: number): void {
    if (x < this.cx1 || y < this.cy1 || x > this.cx2 || y > this.cy2) return;
    this.put(x, y, col & this.colorMask);
  }

  /** Fills a rectangle given in buffer coordinates, without clipping. */
  private fillRaw(x1: number, y1: number, x2: number, y2: number, col: number): void {
    if (this.bpp !== 24) {
      for (let y = y1; y <= y2; y++) for (let x = x1; x <= x2; x++) this.put(x, y, col);
      return;
    }
    const b = this.bytes;
    const r = (col >> 16) & 255;
    const g = (col >> 8) & 255;
    const bl = col & 255;
    for (let y = y1; y <= y2; y++) {
      let a = x1;
      let z = x2;
      if (this.zigzag && y & 1) {
        a = this.dw - 1 - x2;
        z = this.dw - 1 - x1;
      }
      for (let i = (a + y * this.dw) * 3, end = (z + y * this.dw) * 3; i <= end; i += 3) {
        b[i] = r;
        b[i + 1] = g;
        b[i + 2] = bl;
      }
    }
  }

  /** graphicsFillRectDevice: corners in any order, clipped. */
  private fillDevice(x1: number, y1: number, x2: number, y2: number, col: number): void {
    let t: number;
    if (x1 > x2) { t = x1; x1 = x2; x2 = t; }
    if (y1 > y2) { t = y1; y1 = y2; y2 = t; }
    if (x1 < this.cx1) x1 = this.cx1;
    if (y1 < this.cy1) y1 = this.cy1;
    if (x2 > this.cx2) x2 = this.cx2;
    if (y2 > this.cy2) y2 = this.cy2;
    if (x2 < x1 || y2 < y1) return;
    this.fillRaw(x1, y1, x2, y2, col);
  }

  // ---- coordinates -----------------------------------------------------------------------------

  /** Drawing coordinates to buffer coordinates, into mx/my. */
  private map(x: number, y: number): void {
    const f = this.flags;
    if (f & SWAP_XY) {
      const t = x;
      x = y;
      y = t;
    }
    if (f & INVERT_X) x = this.dw - (x + 1);
    if (f & INVERT_Y) y = this.dh - (y + 1);
    this.mx = x;
    this.my = y;
  }

  /** Buffer coordinates back to drawing coordinates, into mx/my. */
  private unmap(x: number, y: number): void {
    const f = this.flags;
    if (f & INVERT_X) x = this.dw - (x + 1);
    if (f & INVERT_Y) y = this.dh - (y + 1);
    if (f & SWAP_XY) {
      const t = x;
      x = y;
      y = t;
    }
    this.mx = x;
    this.my = y;
  }

  private plotUser(x: number, y: number, col: number): void {
    this.map(x, y);
    this.plot(this.mx, this.my, col);
  }

  /** graphicsFillRect: corners in drawing coordinates. */
  private fillUser(x1: number, y1: number, x2: number, y2: number, col: number): void {
    this.map(x1, y1);
    const a = this.mx;
    const b = this.my;
    this.map(x2, y2);
    this.fillDevice(a, b, this.mx, this.my, col);
  }

  // ---- state -----------------------------------------------------------------------------------

  getWidth(): number {
    return this.flags & SWAP_XY ? this.dh : this.dw;
  }

  getHeight(): number {
    return this.flags & SWAP_XY ? this.dw : this.dh;
  }

  getBPP(): number {
    return this.bpp;
  }

  /** Colours, font, alignment, clip rectangle and cursor back to their defaults (not rotation). */
  reset(): this {
    this.fg = this.colorMask;
    this.bg = 0;
    this.fontSize = (FONT_4X6 << FONT_SHIFT) | 1;
    this.customBitmap = "";
    this.alignX = 3;
    this.alignY = 3;
    this.fontRotate = 0;
    this.cx1 = 0;
    this.cy1 = 0;
    this.cx2 = this.dw - 1;
    this.cy2 = this.dh - 1;
    this.cursorX = 0;
    this.cursorY = 0;
    return this;
  }

  /** Fills the clip rectangle with the background colour (after reset() when asked). */
  clear(resetState?: boolean): this {
    if (resetState) this.reset();
    this.fillDevice(0, 0, this.dw - 1, this.dh - 1, this.bg);
    return this;
  }

  /** The colour value of r,g,b in 0..1, of a '#rgb'/'#rrggbb' string, or of one integer. */
  toColor(r: unknown, g?: unknown, b?: unknown): number {
    let rf: number;
    let gf: number;
    let bf: number;
    if (typeof r === "string") {
      const s = r.slice(0, 8);
      const at = (i: number) => (i < s.length ? s.charCodeAt(i) : 0);
      const hex = (i: number) => {
        const hi = digitValue(at(i));
        const lo = digitValue(at(i + 1));
        return hi < 0 || lo < 0 ? -1 : (hi << 4) | lo;
      };
      if (at(4) === 0) {
        rf = digitValue(at(1)) / 15;
        gf = digitValue(at(2)) / 15;
        bf = digitValue(at(3)) / 15;
      } else {
        rf = hex(1) / 255;
        gf = hex(3) / 255;
        bf = hex(5) / 255;
      }
      if (rf < 0 || gf < 0 || bf < 0 || at(7) !== 0) {
        throw new Error("If Color is a String, it must be of the form '#rrggbb' or '#rgb'");
      }
    } else {
      rf = float(r);
      gf = float(g);
      bf = float(b);
    }
    if (isFinite(rf) && isFinite(gf) && isFinite(bf)) {
      const channel = (f: number) => Math.max(0, Math.min(255, Math.trunc(f * 256)));
      if (this.bpp === 24) return channel(bf) | (channel(gf) << 8) | (channel(rf) << 16);
      // 1 bpp: all bits set when the channels add up to half or more.
      return channel(rf) + channel(gf) + channel(bf) >= 384 ? 0xffffffff : 0;
    }
    return int(r) & this.colorMask;
  }

  setColor(r: unknown, g?: unknown, b?: unknown): this {
    this.fg = this.toColor(r, g, b);
    return this;
  }

  setBgColor(r: unknown, g?: unknown, b?: unknown): this {
    this.bg = this.toColor(r, g, b);
    return this;
  }

  getColor(): number {
    return this.fg & this.colorMask;
  }

  getBgColor(): number {
    return this.bg & this.colorMask;
  }

  /** Clip rectangle in drawing coordinates, inclusive, kept inside the buffer. */
  setClipRect(x1: number, y1: number, x2: number, y2: number): this {
    this.map(int(x1), int(y1));
    let a = this.mx;
    let b = this.my;
    this.map(int(x2), int(y2));
    let c = this.mx;
    let d = this.my;
    const clampX = (v: number) => (v < 0 ? 0 : v >= this.dw ? this.dw - 1 : v);
    const clampY = (v: number) => (v < 0 ? 0 : v >= this.dh ? this.dh - 1 : v);
    a = clampX(a);
    c = clampX(c);
    b = clampY(b);
    d = clampY(d);
    this.cx1 = Math.min(a, c);
    this.cx2 = Math.max(a, c);
    this.cy1 = Math.min(b, d);
    this.cy2 = Math.max(b, d);
    return this;
  }

  /** Clockwise quarter turns 0-3; reflect mirrors across the drawing's x axis direction. */
  setRotation(rotation: number, reflect?: boolean): this {
    let f = this.flags & ~MAPPED_XY;
    switch (int(rotation)) {
      case 1: f |= SWAP_XY | INVERT_X; break;
      case 2: f |= INVERT_X | INVERT_Y; break;
      case 3: f |= SWAP_XY | INVERT_Y; break;
      default: break;
    }
    if (reflect) f ^= f & SWAP_XY ? INVERT_Y : INVERT_X;
    this.flags = f;
    return this;
  }

  // ---- shapes ----------------------------------------------------------------------------------

  setPixel(x: number, y: number, col?: unknown): this {
    x = int(x);
    y = int(y);
    this.plotUser(x, y, col === undefined ? this.fg : this.toColor(col));
    this.cursorX = x;
    this.cursorY = y;
    return this;
  }

  /** The colour at x,y; 0 outside the buffer. */
  getPixel(x: number, y: number): number {
    this.map(int(x), int(y));
    const px = this.mx;
    const py = this.my;
    if (px < 0 || py < 0 || px >= this.dw || py >= this.dh) return 0;
    return this.read(px, py);
  }

  fillRect(x1: number | RectOptions, y1?: number, x2?: number, y2?: number): this {
    return this.fillRectIn(x1, y1, x2, y2, this.fg);
  }

  clearRect(x1: number | RectOptions, y1?: number, x2?: number, y2?: number): this {
    return this.fillRectIn(x1, y1, x2, y2, this.bg);
  }

  private rect = { x1: 0, y1: 0, x2: 0, y2: 0, r: 0 };

  /** Reads fillRect/drawRect arguments: four numbers or {x,y,x2,y2}/{x,y,w,h} with r. */
  private readRect(a: number | RectOptions, y1?: number, x2?: number, y2?: number): void {
    const rect = this.rect;
    rect.r = 0;
    rect.y1 = int(y1);
    rect.x2 = int(x2);
    rect.y2 = int(y2);
    if (typeof a === "object" && a !== null) {
      let w = -1;
      let h = -1;
      for (const key of Object.keys(a)) {
        const v = int((a as { [k: string]: unknown })[key]);
        if (key === "x" || key === "x1") rect.x1 = v;
        else if (key === "y" || key === "y1") rect.y1 = v;
        else if (key === "x2") rect.x2 = v;
        else if (key === "y2") rect.y2 = v;
        else if (key === "w") w = v;
        else if (key === "h") h = v;
        else if (key === "r") rect.r = v;
        else throw new Error('Unknown option "' + key + '"');
      }
      if (w >= 0) rect.x2 = rect.x1 + w;
      if (h >= 0) rect.y2 = rect.y1 + h;
    } else {
      rect.x1 = int(a);
    }
  }

  /** A rounded rectangle's corners in buffer coordinates, in order, with its radius cut to fit. */
  private roundedCorners(): void {
    const rect = this.rect;
    this.map(rect.x1, rect.y1);
    let x1 = this.mx;
    let y1 = this.my;
    this.map(rect.x2, rect.y2);
    let x2 = this.mx;
    let y2 = this.my;
    let t: number;
    if (x1 > x2) { t = x1; x1 = x2; x2 = t; }
    if (y1 > y2) { t = y1; y1 = y2; y2 = t; }
    rect.r = Math.min(rect.r, div(x2 - x1, 2), div(y2 - y1, 2));
    rect.x1 = x1;
    rect.y1 = y1;
    rect.x2 = x2;
    rect.y2 = y2;
  }

  private fillRectIn(a: number | RectOptions, y1: number | undefined, x2: number | undefined, y2: number | undefined, col: number): this {
    this.readRect(a, y1, x2, y2);
    const rect = this.rect;
    if (rect.r <= 0) {
      this.fillUser(rect.x1, rect.y1, rect.x2, rect.y2, col);
      return this;
    }
    this.roundedCorners();
    const r = rect.r;
    const cx1 = rect.x1 + r;
    const cx2 = rect.x2 - r;
    const cy1 = rect.y1 + r;
    const cy2 = rect.y2 - r;
    this.fillDevice(rect.x1, cy1, rect.x2, cy2, col);
    let dx = 0;
    let dy = r;
    const r2 = r * r;
    let err = r2 - (2 * r - 1) * r2;
    let changed: boolean;
    do {
      changed = false;
      const e2 = 2 * err;
      if (e2 < (2 * dx + 1) * r2) { dx++; err += (2 * dx + 1) * r2; changed = true; }
      if (e2 > -(2 * dy - 1) * r2) {
        this.fillDevice(cx1 - dx, cy2 + dy, cx2 + dx, cy2 + dy, col);
        this.fillDevice(cx1 - dx, cy1 - dy, cx2 + dx, cy1 - dy, col);
        dy--;
        err -= (2 * dy - 1) * r2;
        changed = true;
      }
    } while (changed && dy >= 0);
    return this;
  }

  drawRect(a: number | RectOptions, y1?: number, x2?: number, y2?: number): this {
    this.readRect(a, y1, x2, y2);
    const rect = this.rect;
    const col = this.fg;
    if (rect.r > 0) {
      this.roundedCorners();
      const r = rect.r;
      const cx1 = rect.x1 + r;
      const cx2 = rect.x2 - r;
      const cy1 = rect.y1 + r;
      const cy2 = rect.y2 - r;
      this.fillDevice(cx1, rect.y1, cx2, rect.y1, col);
      this.fillDevice(cx1, rect.y2, cx2, rect.y2, col);
      this.fillDevice(rect.x1, cy1, rect.x1, cy2, col);
      this.fillDevice(rect.x2, cy1, rect.x2, cy2, col);
      this.ellipseOutline(cx1, cy1, cx2, cy2, r, r);
      return this;
    }
    this.map(rect.x1, rect.y1);
    const ax = this.mx;
    const ay = this.my;
    this.map(rect.x2, rect.y2);
    const bx = this.mx;
    const by = this.my;
    this.fillDevice(ax, ay, bx, ay, col);
    this.fillDevice(bx, ay, bx, by, col);
    this.fillDevice(ax, by, bx, by, col);
    this.fillDevice(ax, by, ax, ay, col);
    return this;
  }

  /** A line in 8.8 fixed point along its longer axis, both ends included. */
  drawLine(x1: number, y1: number, x2: number, y2: number): this {
    this.map(int(x1), int(y1));
    let ax = this.mx;
    let ay = this.my;
    this.map(int(x2), int(y2));
    let bx = this.mx;
    let by = this.my;
    const col = this.fg;
    const xl = Math.abs(bx - ax);
    let yl = Math.abs(by - ay);
    let t: number;
    if (xl > yl) {
      if (ax > bx) { t = ax; ax = bx; bx = t; t = ay; ay = by; by = t; }
      let pos = (ay << 8) + 128;
      const step = div((by - ay) << 8, xl);
      for (let x = ax; x <= bx; x++) {
        this.plot(x, pos >> 8, col);
        pos += step;
      }
    } else {
      if (ay > by) { t = ax; ax = bx; bx = t; t = ay; ay = by; by = t; } else if (yl === 0) yl = 1;
      let pos = (ax << 8) + 128;
      const step = div((bx - ax) << 8, yl);
      for (let y = ay; y <= by; y++) {
        this.plot(pos >> 8, y, col);
        pos += step;
      }
    }
    return this;
  }

  moveTo(x: number, y: number): this {
    this.cursorX = int(x);
    this.cursorY = int(y);
    return this;
  }

  lineTo(x: number, y: number): this {
    this.drawLine(this.cursorX, this.cursorY, x, y);
    return this.moveTo(x, y);
  }

  drawCircle(x: number, y: number, r: number): this {
    x = int(x); y = int(y); r = int(r);
    return this.drawEllipse(x - r, y - r, x + r, y + r);
  }

  fillCircle(x: number, y: number, r: number): this {
    x = int(x); y = int(y); r = int(r);
    return this.fillEllipse(x - r, y - r, x + r, y + r);
  }

  /** Four quadrants of an ellipse of radii rx, ry: left ones around x1, right ones around x2. */
  private ellipseOutline(x1: number, y1: number, x2: number, y2: number, rx: number, ry: number): void {
    const col = this.fg;
    let dx = 0;
    let dy = ry;
    const a2 = rx * rx;
    const b2 = ry * ry;
    let err = b2 - (2 * ry - 1) * a2;
    let changed: boolean;
    do {
      changed = false;
      this.plot(x2 + dx, y2 + dy, col);
      this.plot(x1 - dx, y2 + dy, col);
      this.plot(x2 + dx, y1 - dy, col);
      this.plot(x1 - dx, y1 - dy, col);
      const e2 = 2 * err;
      if (e2 < (2 * dx + 1) * b2) { dx++; err += (2 * dx + 1) * b2; changed = true; }
      if (e2 > -(2 * dy - 1) * a2) { dy--; err -= (2 * dy - 1) * a2; changed = true; }
    } while (changed && dy >= 0);
    while (dx++ < rx) {
      this.plot(x2 + dx, y1, col);
      this.plot(x1 - dx, y1, col);
    }
  }

  /** Corners in buffer coordinates, in order, into rect. */
  private orderedCorners(x1: number, y1: number, x2: number, y2: number): void {
    this.map(int(x1), int(y1));
    const ax = this.mx;
    const ay = this.my;
    this.map(int(x2), int(y2));
    const rect = this.rect;
    rect.x1 = Math.min(ax, this.mx);
    rect.x2 = Math.max(ax, this.mx);
    rect.y1 = Math.min(ay, this.my);
    rect.y2 = Math.max(ay, this.my);
  }

  drawEllipse(x1: number, y1: number, x2: number, y2: number): this {
    this.orderedCorners(x1, y1, x2, y2);
    const rect = this.rect;
    const cx = div(rect.x1 + rect.x2, 2);
    const cy = div(rect.y1 + rect.y2, 2);
    this.ellipseOutline(cx, cy, cx, cy, div(rect.x2 - rect.x1, 2), div(rect.y2 - rect.y1, 2));
    return this;
  }

  fillEllipse(x1: number, y1: number, x2: number, y2: number): this {
    this.orderedCorners(x1, y1, x2, y2);
    const rect = this.rect;
    const cx = div(rect.x1 + rect.x2, 2);
    const cy = div(rect.y1 + rect.y2, 2);
    const a = div(rect.x2 - rect.x1, 2);
    const b = div(rect.y2 - rect.y1, 2);
    const col = this.fg;
    let dx = 0;
    let dy = b;
    const a2 = a * a;
    const b2 = b * b;
    let err = b2 - (2 * b - 1) * a2;
    let changed: boolean;
    do {
      changed = false;
      const e2 = 2 * err;
      if (e2 < (2 * dx + 1) * b2) { dx++; err += (2 * dx + 1) * b2; changed = true; }
      if (e2 > -(2 * dy - 1) * a2) {
        this.fillDevice(cx + dx, cy + dy, cx - dx, cy + dy, col);
        this.fillDevice(cx + dx, cy - dy, cx - dx, cy - dy, col);
        dy--;
        err -= (2 * dy - 1) * a2;
        changed = true;
      }
    } while (changed && dy >= 0);
    while (dx++ < a) this.fillDevice(cx + dx, cy, cx - dx, cy, col);
    return this;
  }

  /** Lines between successive points of [x1,y1,x2,y2,...], and back to the first if closed. */
  drawPoly(poly: ArrayLike<number>, closed?: boolean): this {
    let lx = 0;
    let ly = 0;
    let sx = 0;
    let sy = 0;
    let points = 0;
    for (let i = 0; i + 1 < poly.length; i += 2) {
      const x = int(float(poly[i]) + 0.5);
      const y = int(float(poly[i + 1]) + 0.5);
      if (points === 0) {
        sx = x;
        sy = y;
      } else {
        this.drawLine(lx, ly, x, y);
      }
      lx = x;
      ly = y;
      points++;
    }
    this.cursorX = lx;
    this.cursorY = ly;
    if (closed && points > 0) this.drawLine(lx, ly, sx, sy);
    return this;
  }

  /** Scanline fill in 1/16 pixel steps: top-left edges in, bottom-right edges out. */
  fillPoly(poly: ArrayLike<number>): this {
    const v = polyVerts;
    let n = 0;
    for (let i = 0; i < poly.length && n < MAX_POLY_VALUES; i++) {
      let value = int(0.5 + float(poly[i]) * 16);
      if (value < -32768) value = -32768;
      if (value > 32767) value = 32767;
      v[n++] = value;
    }
    const points = n >> 1;
    const f = this.flags;
    let miny = this.dh - 1;
    let maxy = 0;
    for (let i = 0; i < points; i++) {
      let vx = v[i * 2];
      let vy = v[i * 2 + 1];
      if (f & SWAP_XY) {
        const t = vx;
        vx = vy;
        vy = t;
      }
      if (f & INVERT_X) vx = (this.dw - 1) * 16 - vx;
      if (f & INVERT_Y) vy = (this.dh - 1) * 16 - vy;
      v[i * 2] = vx;
      v[i * 2 + 1] = vy;
      const y = v[i * 2 + 1] >> 4;
      if (y < miny) miny = y;
      if (y > maxy) maxy = y;
    }
    if (miny < this.cy1) miny = this.cy1;
    if (maxy > this.cy2) maxy = this.cy2;
    const cross = polyCross;
    const slope = polySlope;
    const col = this.fg;
    for (let y = miny << 4; y <= maxy << 4; y += 16) {
      const yl = y >> 4;
      let count = 0;
      let j = points - 1;
      for (let i = 0; i < points; i++) {
        const iy = v[i * 2 + 1];
        const jy = v[j * 2 + 1];
        if ((iy <= y && jy > y) || (jy <= y && iy > y)) {
          if (count < MAX_CROSSES) {
            const l = jy - iy;
            if (l) {
              cross[count] = v[i * 2] + div((y - iy) * (v[j * 2] - v[i * 2]), l);
              slope[count] = l > 1 ? 1 : 0;
              count++;
            }
          }
        }
        j = i;
      }
      for (let i = 0; i < count - 1;) {
        if (cross[i] > cross[i + 1]) {
          let t = cross[i]; cross[i] = cross[i + 1]; cross[i + 1] = t;
          t = slope[i]; slope[i] = slope[i + 1]; slope[i + 1] = t;
          if (i) i--;
        } else i++;
      }
      let x = 0;
      let s = 0;
      for (let i = 0; i < count; i++) {
        if (s === 0) x = cross[i];
        if (slope[i]) s++;
        else s--;
        if (!s || i === count - 1) {
          const x1 = (x + 15) >> 4;
          const x2 = (cross[i] + 15) >> 4;
          if (x2 > x1) this.fillDevice(x1, yl, x2 - 1, yl, col);
        }
      }
    }
    if (n === MAX_POLY_VALUES && poly.length > MAX_POLY_VALUES) {
      throw new Error("Maximum number of points (" + MAX_POLY_VALUES / 2 + ") exceeded for fillPoly");
    }
    return this;
  }

  // ---- moving pixels -------------------------------------------------------------------------

  /** Copies a w x h area in buffer coordinates as that build's graphicsFallbackBlit does. */
  private blitRaw(x1: number, y1: number, w: number, h: number, x2: number, y2: number): void {
    if (y1 >= y2) {
      for (let y = 0; y < h; y++) this.blitRow(x1, y + y1, w, x2, y + y2);
    } else {
      // Moving down, the interpreter copies the first source row onto the first target row h times.
      for (let y = h - 1; y >= 0; y--) this.blitRow(x1, y1, w, x2, y2);
    }
  }

  private blitRow(x1: number, y1: number, w: number, x2: number, y2: number): void {
    if (x1 >= x2) {
      for (let x = 0; x < w; x++) this.put(x + x2, y2, this.read(x + x1, y1));
    } else {
      for (let x = w - 1; x >= 0; x--) this.put(x + x2, y2, this.read(x + x1, y1));
    }
  }

  /** Copies {x1,y1,w,h} to {x2,y2} in buffer coordinates (no rotation, no clip rectangle). */
  blit(options: { x1?: number; y1?: number; w?: number; h?: number; x2?: number; y2?: number; setModified?: boolean }): this {
    if (typeof options !== "object" || options === null) throw new Error("Invalid options");
    const known = ["x1", "y1", "w", "h", "x2", "y2", "setModified"];
    for (const key of Object.keys(options)) if (known.indexOf(key) < 0) throw new Error('Unknown option "' + key + '"');
    let x1 = int(options.x1);
    let y1 = int(options.y1);
    let w = int(options.w);
    let h = int(options.h);
    let x2 = int(options.x2);
    let y2 = int(options.y2);
    const sw = this.dw;
    const sh = this.dh;
    if (x1 < 0) { x2 -= x1; w += x1; x1 = 0; }
    if (y1 < 0) { y2 -= y1; h += y1; y1 = 0; }
    let ex = x1 + w - sw;
    if (ex > 0) w -= ex;
    ex = y1 + h - sh;
    if (ex > 0) h -= ex;
    if (x2 < 0) { x1 -= x2; w += x2; x2 = 0; }
    if (y2 < 0) { y1 -= y2; h += y2; y2 = 0; }
    ex = x2 + w - sw;
    if (ex > 0) w -= ex;
    ex = y2 + h - sh;
    if (ex > 0) h -= ex;
    if (w > 0 || h > 0) this.blitRaw(x1, y1, w, h, x2, y2);
    return this;
  }

  /** Moves the clip rectangle's contents by x,y and fills what is uncovered with the background. */
  scroll(xdir: number, ydir: number): this {
    this.map(0, 0);
    const ox = this.mx;
    const oy = this.my;
    this.map(int(xdir), int(ydir));
    let dx = this.mx - ox;
    let dy = this.my - oy;
    const x1 = this.cx1;
    const y1 = this.cy1;
    const x2 = this.cx2;
    const y2 = this.cy2;
    const w = 1 + x2 - x1;
    const h = 1 + y2 - y1;
    let move = true;
    if (dx >= w) { dx = w; move = false; }
    if (dx <= -w) { dx = -w; move = false; }
    if (dy >= h) { dy = h; move = false; }
    if (dy <= -h) { dy = -h; move = false; }
    if (move) this.scrollArea(dx, dy, x1, y1, x2, y2);
    const bg = this.bg;
    if (dx > 0) this.fillRaw(x1, y1, x1 + dx - 1, y2, bg);
    else if (dx < 0) this.fillRaw(x2 + 1 + dx, y1, x2, y2, bg);
    if (dy > 0) this.fillRaw(x1, y1, x2, y1 + dy - 1, bg);
    else if (dy < 0) this.fillRaw(x1, y2 + 1 + dy, x2, y2, bg);
    return this;
  }

  private scrollArea(dx: number, dy: number, x1: number, y1: number, x2: number, y2: number): void {
    const bpp = this.bpp;
    // The interpreter copies whole rows itself only for buffers in one piece without zigzag, and
    // not for 1 bpp MSB first (its own fast path).
    const flat = isFlat(this.bytes.length) && !this.zigzag && !(bpp === 1 && this.msb);
    if (flat && x1 === 0 && x2 === this.dw - 1 && dx === 0) {
      // Whole rows of a linear buffer: one memmove, when they start and end on byte boundaries.
      const bits = (y2 + 1 - y1 - Math.abs(dy)) * this.dw * bpp;
      const from = (y1 + (dy < 0 ? -dy : 0)) * this.dw * bpp;
      const to = (y1 + (dy > 0 ? dy : 0)) * this.dw * bpp;
      if (((from | to | bits) & 7) === 0) {
        this.bytes.copyWithin(to >> 3, from >> 3, (from + bits) >> 3);
        return;
      }
    }
    if (dx === 0 && dy === 0) return;
    // That build's fallback: note the height uses |dx| and both sizes are one short.
    this.blitRaw(x1 - Math.min(dx, 0), y1 - Math.min(dy, 0), x2 - (x1 + Math.abs(dx)),
      y2 - (y1 + Math.abs(dx)), x1 + Math.max(dx, 0), y1 + Math.max(dy, 0));
  }

  // ---- text ------------------------------------------------------------------------------------

  /**
   * "4x6" or "6x8", optionally ":scale" or ":XxY" (or a size argument); other names call a
   * setFont<name> method if there is one, as font modules add.
   */
  setFont(name: string, size?: number): this {
    if (typeof name !== "string") return this;
    let scale = int(size);
    let fontName = name;
    const colon = name.indexOf(":");
    if (name.startsWith("Vector")) throw new Error("the Graphics stand-in has no vector font");
    if (colon >= 0) {
      const spec = name.slice(colon + 1);
      const x = spec.indexOf("x");
      if (x >= 0) {
        const clamp = (v: number) => Math.max(0, Math.min(63, v));
        scale = clamp(parseInt(spec.slice(0, x), 10) | 0) | (clamp(parseInt(spec.slice(x + 1), 10) | 0) << 6) | SCALE_X_Y;
      } else {
        scale = parseInt(spec, 10) | 0;
      }
      fontName = name.slice(0, colon);
    }
    if (scale < 1) scale = 1;
    if (scale > SCALE_MASK) scale = SCALE_MASK;
    let font = 0;
    if (fontName === "" || fontName === "4x6") font = FONT_4X6;
    else if (fontName === "6x8") font = FONT_6X8;
    else {
      const setter = (this as unknown as { [k: string]: unknown })["setFont" + fontName];
      if (typeof setter !== "function") throw new Error('Unknown font "' + fontName + '"');
      setter.call(this);
      font = this.fontSize >> FONT_SHIFT;
    }
    if (!(font & FONT_CUSTOM)) this.customBitmap = "";
    this.fontSize = (font << FONT_SHIFT) | scale;
    return this;
  }

  /**
   * A font of `height` rows (bits 8-15: scale, bits 16-23: 1, 2 or 4 bpp) whose glyphs are
   * column-first, MSB-first bits of `bitmap`, starting at character firstChar; widths is one
   * width for all or a string holding each character's width.
   */
  setFontCustom(bitmap: string, firstChar: number, widths: string | number, height: number): this {
    if (typeof bitmap !== "string") throw new Error("Font bitmap must be a String");
    firstChar = int(firstChar);
    if (firstChar < 0 || firstChar > 255) throw new Error("First character out of range");
    if (typeof widths !== "string" && !(typeof widths === "number" && Number.isInteger(widths))) {
      throw new Error("Font width must be a String or an integer");
    }
    height = int(height);
    let scale = (height >> 8) & 255;
    if (scale < 1) scale = 1;
    let bpp = height >> 16;
    if (bpp < 1) bpp = 1;
    const kind = CUSTOM_FONT_OF_BPP[bpp];
    if (!kind) throw new Error("Invalid BPP - 1,2,4 supported");
    this.customBitmap = bitmap;
    this.customFirst = firstChar;
    this.customWidths = widths;
    this.customHeight = height & 255;
    this.fontSize = (kind << FONT_SHIFT) | scale;
    return this;
  }

  /** x: -1 left, 0 centre, 1 right; y: -1 top, 0 centre (also when left out), 1 bottom. */
  setFontAlign(x: number, y?: number, rotation?: number): this {
    const clamp = (v: number) => Math.max(-1, Math.min(1, int(v)));
    this.alignX = clamp(x) & 3;
    this.alignY = clamp(y as number) & 3;
    this.fontRotate = Math.max(0, Math.min(3, int(rotation)));
    return this;
  }

  private get fontType(): number {
    return this.fontSize >> FONT_SHIFT;
  }

  private get scaleX(): number {
    const s = this.fontSize & SCALE_MASK;
    return s & SCALE_X_Y ? s & 63 : s;
  }

  private get scaleY(): number {
    const s = this.fontSize & SCALE_MASK;
    return s & SCALE_X_Y ? (s >> 6) & 63 : s;
  }

  getFontHeight(): number {
    const font = this.fontType;
    if (font === FONT_4X6) return 6 * this.scaleY;
    if (font === FONT_6X8) return 8 * this.scaleY;
    return this.scaleY * this.customHeight;
  }

  /** Width of one character in pixels; 0 for characters the font lacks. */
  private charWidth(ch: number): number {
    const font = this.fontType;
    if (ch >= 256) return 0;
    if (font === FONT_4X6) return 4 * this.scaleX;
    if (font === FONT_6X8) return 6 * this.scaleX;
    const widths = this.customWidths;
    if (typeof widths === "number") return this.scaleX * widths;
    if (ch < this.customFirst) return 0;
    // Past the end of the widths the interpreter reads -1 here (drawString reads 0).
    const i = ch - this.customFirst;
    return this.scaleX * (i < widths.length ? widths.charCodeAt(i) & 255 : 255);
  }

  /** Width of the line starting at `from`, or (from < 0) of the widest line. */
  private textWidth(s: string, from: number): number {
    let width = 0;
    let widest = 0;
    for (let i = from < 0 ? 0 : from; i < s.length; i++) {
      const ch = s.charCodeAt(i);
      if (ch === 10) {
        if (width > widest) widest = width;
        width = 0;
        if (from >= 0) break;
      } else if (ch === 0) {
        if (this.openImage(s, i + 1)) {
          width += this.imgWidth;
          i += this.imgHeader + this.imageBytes();
        }
      } else {
        width += this.charWidth(ch);
      }
    }
    return width > widest ? width : widest;
  }

  private textHeight(s: string): number {
    let lines = 1;
    for (let i = 0; i < s.length; i++) {
      const ch = s.charCodeAt(i);
      if (ch === 10) lines++;
      else if (ch === 0 && this.openImage(s, i + 1)) i += this.imgHeader + this.imageBytes();
    }
    return lines * this.getFontHeight();
  }

  /** Width in pixels of the widest line of `str` in the current font. */
  stringWidth(str: unknown): number {
    return this.textWidth(String(str), -1);
  }

  /** Draws `str` at x,y as aligned by setFontAlign; solid fills the glyph cells' background. */
  drawString(str: unknown, x: number, y: number, solid?: boolean): this {
    const s = String(str);
    x = int(x);
    y = int(y);
    const oldFlags = this.flags;
    try {
      if (this.fontRotate === 1) {
        this.flags ^= SWAP_XY | INVERT_X;
        const t = this.dw - (x + 1);
        x = y;
        y = t;
      } else if (this.fontRotate === 2) {
        this.flags ^= INVERT_X | INVERT_Y;
        x = this.dw - (x + 1);
        y = this.dh - (y + 1);
      } else if (this.fontRotate === 3) {
        this.flags ^= SWAP_XY | INVERT_Y;
        const t = this.dh - (y + 1);
        y = x;
        x = t;
      }
      this.drawText(s, x, y, !!solid);
    } finally {
      this.flags = oldFlags;
    }
    return this;
  }

  private drawText(s: string, x: number, y: number, solid: boolean): void {
    const startX = x;
    if (this.alignX < 2) x = startX - div(this.textWidth(s, 0) * (this.alignX + 1), 2);
    if (this.alignY < 2) y -= div(this.textHeight(s) * (this.alignY + 1), 2);
    this.unmap(this.cx1, this.cy1);
    let minX = this.mx;
    let minY = this.my;
    this.unmap(this.cx2, this.cy2);
    let maxX = this.mx;
    let maxY = this.my;
    let t: number;
    if (maxX < minX) { t = minX; minX = maxX; maxX = t; }
    if (maxY < minY) { t = minY; minY = maxY; maxY = t; }
    const fontHeight = this.getFontHeight();
    const font = this.fontType;
    const sx = this.scaleX;
    const sy = this.scaleY;
    for (let i = 0; i < s.length; i++) {
      const ch = s.charCodeAt(i);
      if (ch === 10) {
        x = startX;
        if (this.alignX < 2) x = startX - div(this.textWidth(s, i + 1) * (this.alignX + 1), 2);
        y += fontHeight;
        continue;
      }
      if (ch === 0) {
        if (this.openImage(s, i + 1)) {
          this.drawImageSimple(x, y + div(fontHeight - this.imgHeight, 2));
          x += this.imgWidth;
          i += this.imgHeader + this.imageBytes();
        }
        continue;
      }
      if (font === FONT_4X6 && ch < 256) {
        if (x > minX - 4 * sx && x < maxX && y > minY - fontHeight && y <= maxY) this.drawGlyph(GLYPHS_4X6, FONT_4X6_FIRST, FONT_4X6_COUNT, 3, 6, 2, x, y, ch, solid);
        x += 4 * sx;
      } else if (font === FONT_6X8) {
        if (x > minX - 6 * sx && x < maxX && y > minY - fontHeight && y <= maxY) this.drawGlyph(GLYPHS_6X8, FONT_6X8_FIRST, FONT_6X8_COUNT, 5, 8, 5, x, y, ch & 255, solid);
        x += 6 * sx;
      } else if (font & FONT_CUSTOM && ch < 256) {
        x += this.drawCustomChar(ch, x, y, solid, minX, minY, maxX, maxY);
      }
    }
  }

  /**
   * A built-in font's character: `cols` x `rows` cells, the gap column after them. A character
   * the font lacks clears `blank` + 1 columns when solid (the two fonts differ there).
   */
  private drawGlyph(glyphs: Uint8Array, first: number, count: number, cols: number, rows: number,
    blank: number, x: number, y: number, ch: number, solid: boolean): void {
    const sx = this.scaleX;
    const sy = this.scaleY;
    const idx = ch - first;
    if (idx < 0 || idx >= count) {
      if (solid) this.fillUser(x, y, x + blank * sx, y + (rows - 1) * sy, this.bg);
      return;
    }
    for (let row = 0; row < rows; row++) {
      const bits = glyphs[idx * rows + row];
      const ly = row * sy + y;
      for (let col = 0; col < cols; col++) {
        const on = (bits >> (cols - 1 - col)) & 1;
        if (solid || on) this.fillUser(x + col * sx, ly, x + (col + 1) * sx - 1, ly + sy - 1, on ? this.fg : this.bg);
      }
    }
    if (solid) this.fillUser(x + cols * sx, y, x + (cols + 1) * sx - 1, y + sy * rows - 1, this.bg);
  }

  /** A custom font's character; returns how far x moves. */
  private drawCustomChar(ch: number, x: number, y: number, solid: boolean,
    minX: number, minY: number, maxX: number, maxY: number): number {
    const sx = this.scaleX;
    const sy = this.scaleY;
    const bpp = this.fontType === 5 ? 2 : this.fontType === 6 ? 4 : 1;
    const widths = this.customWidths;
    let width = 0;
    let offset = 0;
    if (typeof widths === "string") {
      if (ch >= this.customFirst) {
        const n = ch - this.customFirst;
        let i = 0;
        for (; i < widths.length && i < n; i++) offset += widths.charCodeAt(i) & 255;
        width = i < widths.length ? widths.charCodeAt(i) & 255 : 0;
      }
    } else {
      width = widths;
      offset = width * (ch - this.customFirst);
    }
    const fontHeight = this.getFontHeight();
    if (ch >= this.customFirst && x > minX - width * sx && x < maxX && y > minY - fontHeight && y <= maxY) {
      const rows = div(fontHeight, sy);
      const range = (1 << bpp) - 1;
      const bitmap = this.customBitmap;
      const byteAt = (i: number) => (i < bitmap.length ? bitmap.charCodeAt(i) & 255 : 0);
      let bit = offset * rows * bpp;
      let pos = bit >> 3;
      bit &= 7;
      let data = byteAt(pos) << (bpp * bit);
      for (let cx = 0; cx < width; cx++) {
        for (let cy = 0; cy < rows; cy++) {
          const col = (data & 255) >> (8 - bpp);
          if (solid || col) {
            this.fillUser(x + cx * sx, y + cy * sy, x + cx * sx + sx - 1, y + cy * sy + sy - 1,
              blend(this.fg, this.bg, div(256 * col, range), this.bpp));
          }
          bit += bpp;
          data <<= bpp;
          if (bit >= 8) {
            bit = 0;
            data = byteAt(++pos);
          }
        }
      }
    }
    return width * sx;
  }

  // ---- images ----------------------------------------------------------------------------------

  /** Points the image reader at a byte source: a view (of a whole buffer) or a string. */
  private source(buffer: unknown): boolean {
    if (typeof buffer === "string") {
      this.srcBytes = null;
      this.srcText = buffer;
      this.srcStart = 0;
      this.srcEnd = buffer.length;
      return true;
    }
    if (isArrayBuffer(buffer)) {
      this.srcBytes = bytesOf(buffer);
      this.srcStart = 0;
    } else if (ArrayBuffer.isView(buffer)) {
      this.srcBytes = bytesOf(buffer.buffer);
      this.srcStart = buffer.byteOffset;
    } else {
      return false;
    }
    this.srcText = "";
    this.srcEnd = this.srcBytes.length;
    return true;
  }

  /** Byte i of the source (from its very start); 0 past its end. */
  private byteAt(i: number): number {
    if (i >= this.srcEnd) return 0;
    return this.srcBytes ? this.srcBytes[i] : this.srcText.charCodeAt(i) & 255;
  }

  /** Bytes of one frame of the open image (a 16-bit count there). */
  private imageBytes(): number {
    return ((this.imgWidth * this.imgHeight * this.imgBpp + 7) >> 3) & 0xffff;
  }

  /**
   * Parses an image string (or ArrayBuffer) at byte `at` of `s`: width, height, bpp (+128 with
   * a transparent colour byte, +64 with a 16-bit palette), then the pixels. False if invalid.
   */
  private openImage(s: string | ArrayBufferLike | ArrayBufferView, at: number): boolean {
    this.source(s);
    const base = this.srcStart + at;
    this.imgWidth = this.byteAt(base);
    this.imgHeight = this.byteAt(base + 1);
    let bpp = this.byteAt(base + 2);
    this.imgTransparent = -1;
    this.imgPalette = null;
    let header = 3;
    if (bpp & 128) {
      bpp &= 127;
      this.imgTransparent = this.byteAt(base + 3);
      header = 4;
    }
    if (bpp & 64) {
      bpp &= 63;
      if (bpp > 8) throw new Error("Can't have palette on >8 bit images");
      const entries = 1 << bpp;
      // The interpreter reads a 256-entry palette from header length bytes further on.
      const from = base + header + (entries * 2 <= 32 ? 0 : header);
      const pal = this.simplePalette.length >= entries ? this.simplePalette : new Uint32Array(entries);
      for (let i = 0; i < entries; i++) pal[i] = this.byteAt(from + i * 2) | (this.byteAt(from + i * 2 + 1) << 8);
      this.imgPalette = pal;
      this.imgPaletteMask = entries - 1;
      header += entries * 2;
    }
    this.imgBpp = bpp;
    this.imgHeader = header;
    this.srcStart = base + header;
    return this.finishImage();
  }

  /** The default palette (1 bpp: background, foreground), then the checks the interpreter makes. */
  private finishImage(): boolean {
    if (!this.imgPalette && this.imgBpp === 1) {
      const pal = this.simplePalette;
      pal[0] = this.bg & 0xffff;
      pal[1] = this.fg & 0xffff;
      this.imgPalette = pal;
      this.imgPaletteMask = 1;
    }
    if (this.imgWidth <= 0 || this.imgHeight <= 0 || this.imgBpp > 32) throw new Error("Expecting valid Image");
    return true;
  }

  /** Reads an image object (or a Graphics) into the img* fields. */
  private openImageObject(image: HostImage | Graphics): void {
    if (image instanceof Graphics) {
      this.imgWidth = image.dw;
      this.imgHeight = image.dh;
      this.imgBpp = image.bpp;
    } else {
      this.imgWidth = int(image.width);
      this.imgHeight = int(image.height);
      this.imgBpp = int(image.bpp);
      if (this.imgBpp <= 0) this.imgBpp = 1;
    }
    if (!this.source(image.buffer)) throw new Error("Expecting valid Image");
    this.imgHeader = 0;
    const o = image as unknown as { transparent?: unknown; palette?: unknown };
    this.imgTransparent = own(image, "transparent") ? int(o.transparent) >>> 0 : -1;
    this.imgPalette = null;
    if (own(image, "palette")) {
      const palette = o.palette;
      if (!isUint16Array(palette)) throw new Error("Palette specified, but must be a flat Uint16Array of 2,4,8,16,256 elements");
      const n = palette.length;
      this.imgPalette = palette;
      this.imgPaletteMask = n === 2 || n === 4 || n === 8 || n === 16 || n === 256 ? n - 1 : 0;
    }
    this.finishImage();
  }

  /** The raw value of the image pixel that starts `bitOffset` bits into its data. */
  private pixelAt(bitOffset: number): number {
    const bpp = this.imgBpp;
    let pos = this.srcStart + (bitOffset >> 3);
    if (bpp === 24 && (bitOffset & 7) === 0) return (this.byteAt(pos) << 16) | (this.byteAt(pos + 1) << 8) | this.byteAt(pos + 2);
    if (bpp === 8) return this.byteAt(pos);
    let data = this.byteAt(pos);
    let b = 8 - ((bitOffset & 7) + bpp);
    for (; b < 0; b += 8) data = ((data << 8) | this.byteAt(++pos)) >>> 0;
    const mask = bpp >= 32 ? 0xffffffff : (1 << bpp) - 1;
    return ((data >>> b) & mask) >>> 0;
  }

  /** The colour drawn for a raw pixel value (through the palette), or -1 if transparent. */
  private colorOf(raw: number): number {
    if (raw === this.imgTransparent) return -1;
    return this.imgPalette ? this.imgPalette[raw & this.imgPaletteMask] : raw;
  }

  /** 1:1 at x,y in drawing coordinates, clipped. */
  private drawImageSimple(xPos: number, yPos: number): void {
    if (this.srcStart >= this.srcEnd) return;
    // The clip rectangle in drawing coordinates.
    this.unmap(this.cx1, this.cy1);
    const ax = this.mx;
    const ay = this.my;
    this.unmap(this.cx2, this.cy2);
    const x1 = Math.max(xPos, Math.min(ax, this.mx));
    const y1 = Math.max(yPos, Math.min(ay, this.my));
    const x2 = Math.min(xPos + this.imgWidth - 1, Math.max(ax, this.mx));
    const y2 = Math.min(yPos + this.imgHeight - 1, Math.max(ay, this.my));
    // The buffer's raw setPixel is used unless coordinates are mapped or columns are clipped.
    const raw = !(this.flags & MAPPED_XY) && x1 === xPos && x2 === xPos + this.imgWidth - 1;
    const mask = raw ? -1 : this.colorMask;
    const bpp = this.imgBpp;
    for (let y = y1; y <= y2; y++) {
      let bit = ((y - yPos) * this.imgWidth + (x1 - xPos)) * bpp;
      for (let x = x1; x <= x2; x++, bit += bpp) {
        const col = this.colorOf(this.pixelAt(bit));
        if (col < 0) continue;
        this.map(x, y);
        this.put(this.mx, this.my, col & mask);
      }
    }
  }

  /**
   * Draws an image object, image string or Graphics at x,y. Options: scale (integer scales of
   * an unrotated Graphics take a pixel-replicating path), rotate (radians; the image is then
   * centred on x,y), frame (the n-th image after the first in the buffer).
   */
  drawImage(image: HostImage | Graphics | string | ArrayBufferLike | ArrayBufferView, x: number, y: number, options?: DrawImageOptions): this {
    if (typeof image === "string" || isArrayBuffer(image) || ArrayBuffer.isView(image)) {
      this.openImage(image as string, 0);
    } else if (typeof image === "object" && image !== null) {
      this.openImageObject(image as HostImage | Graphics);
    } else {
      throw new Error("First argument must be Object or String");
    }
    const xPos = int(x);
    const yPos = int(y);
    let scale = 1;
    let rotate = 0;
    let center = false;
    let filter = false;
    if (typeof options === "object" && options !== null) {
      const frame = int(options.frame);
      if (frame > 0) this.srcStart += this.imageBytes() * frame;
      scale = float(options.scale);
      if (!isFinite(scale) || scale <= 0) scale = 1;
      rotate = float(options.rotate);
      center = isFinite(rotate);
      if (!center) rotate = 0;
      filter = !!options.filter;
    }
    if (scale === 1 && rotate === 0 && !center) this.drawImageSimple(xPos, yPos);
    else if (!center && scale === Math.floor(scale) && !(this.flags & MAPPED_XY)) this.drawImageScaled(xPos, yPos, scale);
    else {
      if (filter && scale < 0.75) throw new Error("the Graphics stand-in does not filter scaled images");
      this.drawImageTransformed(xPos, yPos, scale, rotate, center);
    }
    return this;
  }

  /** Whole-number scale without rotation or coordinate flips: each pixel an s x s block. */
  private drawImageScaled(xPos: number, yPos: number, s: number): void {
    const w = this.imgWidth;
    const bpp = this.imgBpp;
    let yp = yPos;
    for (let y = 0; y < this.imgHeight; y++) {
      for (let iy = 0; iy < s; iy++, yp++) {
        let xp = xPos;
        const inY = yp >= this.cy1 && yp <= this.cy2;
        for (let x = 0; x < w; x++) {
          const col = this.colorOf(this.pixelAt((y * w + x) * bpp));
          if (col >= 0 && inY) {
            for (let ix = 0; ix < s; ix++, xp++) if (xp >= this.cx1 && xp <= this.cx2) this.put(xp, yp, col);
          } else xp += s;
        }
      }
    }
  }

  /** Any scale and rotation: each target pixel samples the image in 8.8 fixed point. */
  private drawImageTransformed(xPos: number, yPos: number, scale: number, rotate: number, center: boolean): void {
    const w = this.imgWidth;
    const h = this.imgHeight;
    const mxMax = w << 8;
    const myMax = h << 8;
    const vcos = Math.cos(rotate);
    const vsin = Math.sin(rotate);
    const sx = int((vcos / scale) * 256);
    const sy = int((vsin / scale) * 256);
    const iw = int(0.5 + scale * (w * Math.abs(vcos) + h * Math.abs(vsin)));
    const ih = int(0.5 + scale * (w * Math.abs(vsin) + h * Math.abs(vcos)));
    let lx1 = xPos * 256;
    let ly1 = yPos * 256;
    if (center) {
      lx1 -= iw * 128;
      ly1 -= ih * 128;
    }
    const lx2 = lx1 + iw * 256;
    const ly2 = ly1 + ih * 256;
    let px = w * 128 - div(1 + sx * iw + sy * ih, 2);
    let py = h * 128 - div(1 + sx * ih - sy * iw, 2);
    // Clipped against the clip rectangle as stored (in buffer coordinates), rotated or not.
    const x1 = Math.max(lx1 >> 8, this.cx1);
    const y1 = Math.max(ly1 >> 8, this.cy1);
    const x2 = Math.min((lx2 >> 8) - 1, this.cx2);
    const y2 = Math.min((ly2 >> 8) - 1, this.cy2);
    const dx = x1 * 256 - lx1;
    const dy = y1 * 256 - ly1;
    px += (sx * dx + sy * dy) >> 8;
    py += (sx * dy - sy * dx) >> 8;
    const mapped = (this.flags & MAPPED_XY) !== 0;
    const bpp = this.imgBpp;
    for (let y = y1; y <= y2; y++) {
      let qx = px;
      let qy = py;
      for (let x = x1; x <= x2; x++) {
        if (qx >= 0 && qy >= 0 && (qx & ~255) < mxMax && (qy & ~255) < myMax) {
          const col = this.colorOf(this.pixelAt(((qx >> 8) + (qy >> 8) * w) * bpp));
          if (col >= 0) {
            if (mapped) this.plotUser(x, y, col);
            else this.put(x, y, col);
          }
        }
        qx += sx;
        qy -= sy;
      }
      px += sy;
      py += sx;
    }
  }
}

/** The object form of fillRect/clearRect/drawRect's first argument. */
export interface RectOptions {
  x?: number;
  y?: number;
  x1?: number;
  y1?: number;
  x2?: number;
  y2?: number;
  w?: number;
  h?: number;
  r?: number;
}

/** Makes `Graphics` a global of `target` (the firmware reaches it as a global). */
export function installGraphics(target: object = globalThis): void {
  (target as { Graphics?: unknown }).Graphics = Graphics;
}

/**
 * A drawing scenario in the shape of the interpreter fixtures: createArrayBuffer(width, height,
 * bpp (24 unless given), options), then `ops` as [method, ...arguments]. Special forms: ["setFontCustom", {bitmap,
 * firstChar, widths, height}] with byte arrays for the strings; ["drawImage", {width, height,
 * bpp, buffer (bytes), transparent?, palette? (16-bit entries)}, x, y, options?] (an image
 * string may be given instead of the object). The results of stringWidth (as in the fixtures),
 * getPixel, getWidth, getHeight and getFontHeight are recorded, in order, in `widths`.
 */
export interface GraphicsScenario {
  name: string;
  width: number;
  height: number;
  bpp?: number;
  options: CreateOptions;
  ops: unknown[][];
  /** What the interpreter drew: base64 of the buffer, and the recorded results. */
  buffer?: string;
  widths?: number[];
}

export interface ScenarioResult {
  buffer: Uint8Array;
  widths: number[];
}

interface ScenarioImage {
  width: number;
  height: number;
  bpp: number;
  buffer: number[];
  transparent?: number;
  palette?: number[];
}

const bytesToString = (bytes: number[]) => String.fromCharCode.apply(null, bytes);

/** Methods whose results a scenario records. */
export const RECORDED_METHODS = ["stringWidth", "getPixel", "getWidth", "getHeight", "getFontHeight"];

/** Runs a scenario on the stand-in. */
export function runScenario(scenario: GraphicsScenario): ScenarioResult {
  const g = Graphics.createArrayBuffer(scenario.width, scenario.height, scenario.bpp || 24, scenario.options);
  const widths: number[] = [];
  const call = g as unknown as { [method: string]: (...args: unknown[]) => unknown };
  for (const op of scenario.ops) {
    const method = op[0] as string;
    const args = op.slice(1);
    if (method === "setFontCustom") {
      const f = args[0] as { bitmap: number[]; firstChar: number; widths: number[] | number; height: number };
      g.setFontCustom(bytesToString(f.bitmap), f.firstChar,
        typeof f.widths === "number" ? f.widths : bytesToString(f.widths), f.height);
    } else if (method === "drawImage" && typeof args[0] === "object") {
      const spec = args[0] as ScenarioImage;
      const image: HostImage = { width: spec.width, height: spec.height, bpp: spec.bpp, buffer: new Uint8Array(spec.buffer).buffer };
      if (spec.transparent !== undefined) image.transparent = spec.transparent;
      if (spec.palette) image.palette = new Uint16Array(spec.palette);
      g.drawImage(image, args[1] as number, args[2] as number, args[3] as DrawImageOptions | undefined);
    } else {
      if (typeof call[method] !== "function") throw new Error("Graphics has no method " + method);
      const result = call[method].apply(g, args);
      if (RECORDED_METHODS.indexOf(method) >= 0) widths.push(result as number);
    }
  }
  return { buffer: new Uint8Array(g.buffer), widths };
}
