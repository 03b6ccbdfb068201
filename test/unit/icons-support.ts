// What the icon suites share: GIFs written with omggif from a frame list (and the frames a GIF
// viewer composes from that list, worked out independently of the firmware), baseline JPEGs
// written by a small encoder of this file (greyscale, 4:4:4, 4:2:2, 4:2:0, restart intervals,
// one scan per component: shapes jpeg-js's encoder does not make), the cases both suites decode,
// the cached form read back, and the host set-up (Storage, E, Graphics).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import omggif from "omggif";
import { installGraphics } from "../harness/graphics";
import { SimStorage } from "../harness/storage";
import { crc32 } from "../harness/crc32";
import { serveStorage } from "./text-support";

// ---------------------------------------------------------------------------------------------
// GIF

export interface GifFrame {
  x?: number;
  y?: number;
  w: number;
  h: number;
  /** Colour table indices, row after row. */
  pixels: number[];
  /** A local colour table (0xRRGGBB, a power of two long). */
  palette?: number[];
  /** Centiseconds. */
  delay?: number;
  disposal?: number;
  transparent?: number;
  interlace?: boolean;
}

export interface GifSpec {
  width: number;
  height: number;
  palette?: number[];
  frames: GifFrame[];
  version?: "87a";
}

/** Rows in the order an interlaced image stores them. */
function interlaceOrder(h: number): number[] {
  const rows: number[] = [];
  for (const [start, step] of [[0, 8], [4, 8], [2, 4], [1, 2]]) for (let y = start; y < h; y += step) rows.push(y);
  return rows;
}

/** The GIF of `spec`, as omggif writes it (interlace and 87a set by hand: omggif writes neither). */
export function makeGif(spec: GifSpec): Buffer {
  const buf = Buffer.alloc(256 * 1024);
  const w = new omggif.GifWriter(buf, spec.width, spec.height, spec.palette ? { palette: spec.palette } : {});
  for (const f of spec.frames) {
    let pixels = f.pixels;
    if (f.interlace) {
      pixels = [];
      for (const y of interlaceOrder(f.h)) pixels.push(...f.pixels.slice(y * f.w, (y + 1) * f.w));
    }
    const start = w.getOutputBufferPosition();
    w.addFrame(f.x || 0, f.y || 0, f.w, f.h, pixels, { palette: f.palette, delay: f.delay, disposal: f.disposal, transparent: f.transparent });
    if (f.interlace) {
      const desc = buf[start] === 0x21 ? start + 8 : start;
      if (buf[desc] !== 0x2c) throw new Error("image descriptor not found");
      buf[desc + 9] |= 0x40;
    }
  }
  const out = Buffer.from(buf.subarray(0, w.end()));
  if (spec.version === "87a") out.write("87a", 3, "latin1");
  return out;
}

/** What a viewer shows of `spec`: each frame as rows of 0xRRGGBB, and each frame's delay in ms. */
export function composeGif(spec: GifSpec): { frames: number[][]; delays: number[] } {
  const W = spec.width;
  const H = spec.height;
  let canvas = new Array<number>(W * H).fill(0);
  let saved = canvas.slice();
  const frames: number[][] = [];
  const delays: number[] = [];
  let before: GifFrame | null = null;
  for (const f of spec.frames) {
    const x0 = f.x || 0;
    const y0 = f.y || 0;
    if (before && before.disposal === 2) {
      for (let y = before.y || 0; y < (before.y || 0) + before.h; y++) {
        for (let x = before.x || 0; x < (before.x || 0) + before.w; x++) if (x < W && y < H) canvas[y * W + x] = 0;
      }
    } else if (before && before.disposal === 3) canvas = saved.slice();
    if (f.disposal === 3) saved = canvas.slice();
    const palette = f.palette || spec.palette || [];
    for (let r = 0; r < f.h; r++) {
      for (let c = 0; c < f.w; c++) {
        const i = f.pixels[r * f.w + c];
        if (i === f.transparent || x0 + c >= W || y0 + r >= H) continue;
        canvas[(y0 + r) * W + x0 + c] = palette[i];
      }
    }
    frames.push(canvas.slice());
    delays.push(f.delay ? f.delay * 10 : 100);
    before = f;
  }
  return { frames, delays };
}

// ---------------------------------------------------------------------------------------------
// JPEG: a baseline encoder for the test files. Its Huffman tables give every DC category a 4-bit
// code and every AC run/size symbol an 8-bit code: valid tables, simpler than optimal ones.

export interface JpegOptions {
  mode: "grey" | "444" | "422" | "420";
  /** Quantiser step of the DC coefficient; AC steps grow from it. */
  q: number;
  /** Restart interval in MCUs (0: none). */
  restart?: number;
  /** One scan per component instead of one interleaved scan (4:4:4 only). */
  scans?: boolean;
}

const AC_SYMBOLS: number[] = [0x00, 0xf0];
for (let r = 0; r < 16; r++) for (let s = 1; s <= 10; s++) AC_SYMBOLS.push((r << 4) | s);

function zigzagOrder(): number[] {
  const z: number[] = [];
  for (let d = 0; d < 15; d++) {
    const cells: number[] = [];
    for (let y = 0; y < 8; y++) {
      const x = d - y;
      if (x >= 0 && x < 8) cells.push(y * 8 + x);
    }
    // Even diagonals run from bottom left to top right.
    if (d % 2 === 0) cells.reverse();
    z.push(...cells);
  }
  return z;
}
const ZIGZAG = zigzagOrder();

class BitWriter {
  bytes: number[] = [];
  private acc = 0;
  private n = 0;
  put(value: number, bits: number): void {
    for (let i = bits - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((value >> i) & 1);
      if (++this.n === 8) this.flushByte();
    }
  }
  private flushByte(): void {
    this.bytes.push(this.acc);
    if (this.acc === 0xff) this.bytes.push(0);
    this.acc = 0;
    this.n = 0;
  }
  /** Pads the last byte with 1 bits. */
  align(): void {
    while (this.n !== 0) this.put(1, 1);
  }
}

function category(v: number): number {
  let a = Math.abs(v);
  let s = 0;
  while (a > 0) {
    s++;
    a >>= 1;
  }
  return s;
}

function putValue(w: BitWriter, v: number, s: number): void {
  if (s > 0) w.put(v < 0 ? v + (1 << s) - 1 : v, s);
}

/** Forward DCT of 64 samples (level-shifted), quantised, in zigzag order. */
function fdct(block: number[], quant: number[]): number[] {
  const out: number[] = [];
  for (let k = 0; k < 64; k++) {
    const u = ZIGZAG[k] % 8;
    const v = Math.floor(ZIGZAG[k] / 8);
    let sum = 0;
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) {
        sum += (block[y * 8 + x] - 128) * Math.cos(((2 * x + 1) * u * Math.PI) / 16) * Math.cos(((2 * y + 1) * v * Math.PI) / 16);
      }
    }
    const cu = u === 0 ? Math.SQRT1_2 : 1;
    const cv = v === 0 ? Math.SQRT1_2 : 1;
    out.push(Math.round((0.25 * cu * cv * sum) / quant[k]));
  }
  return out;
}

function encodeBlock(w: BitWriter, zz: number[], pred: number): number {
  const diff = zz[0] - pred;
  const s = category(diff);
  w.put(s, 4);
  putValue(w, diff, s);
  let run = 0;
  for (let k = 1; k < 64; k++) {
    if (zz[k] === 0) {
      run++;
      continue;
    }
    while (run > 15) {
      w.put(AC_SYMBOLS.indexOf(0xf0), 8);
      run -= 16;
    }
    const size = category(zz[k]);
    w.put(AC_SYMBOLS.indexOf((run << 4) | size), 8);
    putValue(w, zz[k], size);
    run = 0;
  }
  if (run > 0) w.put(AC_SYMBOLS.indexOf(0x00), 8);
  return zz[0];
}

function segment(marker: number, body: number[]): number[] {
  const len = body.length + 2;
  return [0xff, marker, len >> 8, len & 255, ...body];
}

/** A baseline JPEG of `rgb` (0xRRGGBB, w x h). */
export function encodeJpeg(rgb: number[], w: number, h: number, o: JpegOptions): Buffer {
  const grey = o.mode === "grey";
  const hy = o.mode === "422" || o.mode === "420" ? 2 : 1;
  const vy = o.mode === "420" ? 2 : 1;
  const comps = grey ? [{ id: 1, h: 1, v: 1 }] : [{ id: 1, h: hy, v: vy }, { id: 2, h: 1, v: 1 }, { id: 3, h: 1, v: 1 }];
  const quant: number[] = [];
  for (let k = 0; k < 64; k++) quant.push(Math.min(255, o.q + Math.floor(k / 4)));
  const mcuW = 8 * hy;
  const mcuH = 8 * vy;
  const mcusX = Math.ceil(w / mcuW);
  const mcusY = Math.ceil(h / mcuH);
  // Full-resolution planes, edges repeated out to whole MCUs.
  const PW = mcusX * mcuW;
  const PH = mcusY * mcuH;
  const planes = [new Array<number>(PW * PH), new Array<number>(PW * PH), new Array<number>(PW * PH)];
  for (let y = 0; y < PH; y++) {
    for (let x = 0; x < PW; x++) {
      const c = rgb[Math.min(y, h - 1) * w + Math.min(x, w - 1)];
      const R = c >> 16;
      const G = (c >> 8) & 255;
      const B = c & 255;
      planes[0][y * PW + x] = 0.299 * R + 0.587 * G + 0.114 * B;
      planes[1][y * PW + x] = -0.168736 * R - 0.331264 * G + 0.5 * B + 128;
      planes[2][y * PW + x] = 0.5 * R - 0.418688 * G - 0.081312 * B + 128;
    }
  }
  if (grey) for (let i = 0; i < PW * PH; i++) planes[0][i] = rgb[Math.min(Math.floor(i / PW), h - 1) * w + Math.min(i % PW, w - 1)] & 255;
  /** Block (bx, by) of component c, its samples averaged down to its resolution. */
  const block = (c: number, bx: number, by: number): number[] => {
    const sx = hy / comps[c].h;
    const sy = vy / comps[c].v;
    const out: number[] = [];
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) {
        let sum = 0;
        for (let j = 0; j < sy; j++) {
          for (let i = 0; i < sx; i++) {
            const px = Math.min(PW - 1, (bx * 8 + x) * sx + i);
            const py = Math.min(PH - 1, (by * 8 + y) * sy + j);
            sum += planes[c][py * PW + px];
          }
        }
        out.push(sum / (sx * sy));
      }
    }
    return out;
  };
  const head: number[] = [0xff, 0xd8];
  head.push(...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]));
  head.push(...segment(0xdb, [0, ...ZIGZAG.map((_, k) => quant[k])]));
  head.push(...segment(0xc0, [8, h >> 8, h & 255, w >> 8, w & 255, comps.length, ...comps.flatMap((c) => [c.id, (c.h << 4) | c.v, 0])]));
  const dcBits = new Array<number>(16).fill(0);
  dcBits[3] = 12;
  head.push(...segment(0xc4, [0x00, ...dcBits, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]));
  const acBits = new Array<number>(16).fill(0);
  acBits[7] = AC_SYMBOLS.length;
  head.push(...segment(0xc4, [0x10, ...acBits, ...AC_SYMBOLS]));
  if (o.restart) head.push(...segment(0xdd, [o.restart >> 8, o.restart & 255]));
  const scans: number[][] = o.scans ? comps.map((_, i) => [i]) : [comps.map((_, i) => i)];
  for (const scan of scans) {
    head.push(...segment(0xda, [scan.length, ...scan.flatMap((c) => [comps[c].id, 0x00]), 0, 63, 0]));
    const wr = new BitWriter();
    const pred = [0, 0, 0];
    // An interleaved scan goes by MCUs; a scan of one component by its blocks.
    const units = scan.length > 1 || grey || o.mode === "444" ? mcusX * mcusY : 0;
    let rst = 0;
    for (let u = 0; u < units; u++) {
      if (o.restart && u > 0 && u % o.restart === 0) {
        wr.align();
        wr.bytes.push(0xff, 0xd0 + (rst++ % 8));
        pred.fill(0);
      }
      const mx = u % mcusX;
      const my = Math.floor(u / mcusX);
      for (const c of scan) {
        const blocksX = scan.length > 1 ? comps[c].h : 1;
        const blocksY = scan.length > 1 ? comps[c].v : 1;
        for (let by = 0; by < blocksY; by++) {
          for (let bx = 0; bx < blocksX; bx++) {
            pred[c] = encodeBlock(wr, fdct(block(c, mx * blocksX + bx, my * blocksY + by), quant), pred[c]);
          }
        }
      }
    }
    wr.align();
    head.push(...wr.bytes);
  }
  head.push(0xff, 0xd9);
  return Buffer.from(head);
}

// ---------------------------------------------------------------------------------------------
// Test images

/** A deterministic sequence of numbers 0..n-1. */
export function noise(seed: number): (n: number) => number {
  let s = seed >>> 0 || 1;
  return (n: number) => {
    s = (s * 1103515245 + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

/** Colours that differ in every channel. */
export function spread(count: number, seed: number): number[] {
  const out: number[] = [];
  for (let i = 0; out.length < count; i++) {
    let h = Math.imul(seed * 7919 + i + 1, 0x9e3779b1);
    h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
    const c = (h ^ (h >>> 13)) & 0xffffff;
    if (!out.includes(c)) out.push(c);
  }
  return out;
}

const PAL4 = [0x000000, 0xff0000, 0x00ff00, 0x0000ff];
const PAL8 = [0x000000, 0xffffff, 0xff8000, 0x0080ff, 0x808080, 0xff00ff, 0x00ff00, 0x202020];

/** An 8x8 picture of 0..3: a frame with a border, a diagonal and a dot. */
function picture(shift: number): number[] {
  const p: number[] = [];
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) p.push(x === 0 || y === 0 || x === 7 || y === 7 ? 1 : (x + shift) % 8 === y ? 2 : x === 4 && y === 2 ? 3 : 0);
  }
  return p;
}

/** An 8x8, 8-frame animation in 80 of its 128 colours, hard to compress: about 1 KB. */
export function kilobyteSpec(): GifSpec {
  const r = noise(7);
  const frames: GifFrame[] = [];
  for (let k = 0; k < 8; k++) {
    const pixels: number[] = [];
    for (let i = 0; i < 64; i++) pixels.push(r(3) === 0 ? (i + k * 3) % 80 : r(80));
    frames.push({ w: 8, h: 8, pixels, delay: 5 + 3 * k });
  }
  return { width: 8, height: 8, palette: spread(128, 3), frames };
}

export const GIF_SPECS: { [name: string]: GifSpec } = {
  static: { width: 8, height: 8, palette: PAL4, frames: [{ w: 8, h: 8, pixels: picture(0) }] },
  gif87a: { width: 8, height: 8, palette: PAL4, frames: [{ w: 8, h: 8, pixels: picture(3) }], version: "87a" },
  animated: {
    width: 8, height: 8, palette: PAL4,
    frames: [{ w: 8, h: 8, pixels: picture(0), delay: 5 }, { w: 8, h: 8, pixels: picture(2), delay: 20 }, { w: 8, h: 8, pixels: picture(5), delay: 0 }],
  },
  // Transparent pixels on the first frame (black), then kept, restored to black and restored to
  // the frame before, with frames smaller than the screen.
  disposal: {
    width: 8, height: 8, palette: PAL8,
    frames: [
      { w: 8, h: 8, pixels: picture(1).map((v) => (v === 0 ? 7 : v)), transparent: 7, disposal: 1, delay: 10 },
      { x: 2, y: 2, w: 4, h: 4, pixels: [4, 4, 7, 4, 4, 5, 5, 4, 7, 5, 5, 7, 4, 4, 7, 4], transparent: 7, disposal: 2, delay: 10 },
      { x: 1, y: 1, w: 3, h: 3, pixels: [6, 6, 6, 6, 7, 6, 6, 6, 6], transparent: 7, disposal: 3, delay: 10 },
      { x: 4, y: 4, w: 4, h: 4, pixels: [2, 2, 2, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 2, 2, 2], disposal: 0, delay: 10 },
      { x: 0, y: 6, w: 8, h: 2, pixels: [1, 7, 1, 7, 1, 7, 1, 7, 7, 1, 7, 1, 7, 1, 7, 1], transparent: 7, delay: 10 },
    ],
  },
  local: {
    width: 8, height: 8, palette: PAL4,
    frames: [
      { w: 8, h: 8, pixels: picture(0), delay: 10 },
      { w: 8, h: 8, pixels: picture(4), delay: 10, palette: [0x112233, 0x445566, 0x778899, 0xaabbcc] },
      { x: 2, y: 0, w: 4, h: 8, pixels: picture(1).slice(0, 32), delay: 10, palette: [0x010203, 0xff0000, 0x0a0b0c, 0x0d0e0f, 0x101112, 0x131415, 0x161718, 0x191a1b] },
    ],
  },
  interlaced: {
    width: 8, height: 8, palette: PAL8,
    frames: [{ w: 8, h: 8, pixels: Array.from({ length: 64 }, (_, i) => (Math.floor(i / 8) + (i % 8)) % 8), interlace: true }],
  },
  interlacedSmall: {
    width: 8, height: 8, palette: PAL8,
    frames: [{ x: 1, y: 2, w: 5, h: 5, pixels: Array.from({ length: 25 }, (_, i) => (Math.floor(i / 5) * 3 + (i % 5)) % 8), interlace: true }],
  },
  wide: {
    width: 32, height: 8, palette: PAL8,
    frames: [
      { w: 32, h: 8, pixels: Array.from({ length: 256 }, (_, i) => (i % 32 >> 2) % 8), delay: 15 },
      { x: 8, y: 2, w: 16, h: 4, pixels: Array.from({ length: 64 }, (_, i) => (i >> 3) % 8), delay: 25 },
    ],
  },
  // 4 frames of 64 colours each, every frame its own: 256 colours to bring down to 85.
  manyColours: {
    width: 8, height: 8,
    frames: [0, 1, 2, 3].map((k) => ({ w: 8, h: 8, pixels: Array.from({ length: 64 }, (_, i) => i), palette: spread(64, 100 + k), delay: 10 })),
  },
  kilobyte: kilobyteSpec(),
  tooWide: { width: 33, height: 8, palette: PAL4, frames: [{ w: 33, h: 8, pixels: new Array(264).fill(1) }] },
  tooTall: { width: 8, height: 9, palette: PAL4, frames: [{ w: 8, h: 8, pixels: picture(0) }, { w: 8, h: 9, pixels: new Array(72).fill(2) }] },
};

/** An 8x8 (or w x h) photo-like picture: gradients with an edge. */
export function photo(w: number, h: number, seed: number): number[] {
  const r = noise(seed);
  const out: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const R = Math.min(255, 30 + x * 25 + r(12));
      const G = Math.min(255, 200 - y * 20 + r(12));
      const B = x + y > 7 ? 220 - r(20) : 40 + r(20);
      out.push((R << 16) | (G << 8) | B);
    }
  }
  return out;
}

export const JPEG_FILES: { [name: string]: () => Buffer } = {
  grey: () => encodeJpeg(photo(8, 8, 1), 8, 8, { mode: "grey", q: 2 }),
  c444: () => encodeJpeg(photo(8, 8, 2), 8, 8, { mode: "444", q: 2 }),
  c422: () => encodeJpeg(photo(16, 8, 3), 16, 8, { mode: "422", q: 2 }),
  c420: () => encodeJpeg(photo(16, 16, 4), 16, 16, { mode: "420", q: 2 }),
  restart: () => encodeJpeg(photo(24, 16, 5), 24, 16, { mode: "420", q: 3, restart: 1 }),
  scans: () => encodeJpeg(photo(16, 8, 6), 16, 8, { mode: "444", q: 2, scans: true }),
  small: () => encodeJpeg(photo(5, 6, 7), 5, 6, { mode: "444", q: 1 }),
};

// ---------------------------------------------------------------------------------------------
// The cached form, read back

export interface Cached {
  width: number;
  height: number;
  frames: number;
  colors: number[];
  crc: number;
  delays: number[];
  /** Per frame, every pixel as 0xRRGGBB. */
  pixels: number[][];
  /** Whether every pixel is a well-formed triplet (3i, 3i+1, 3i+2 with i < colours). */
  triplets: boolean;
}

export function readCached(s: string): Cached {
  const b = Buffer.from(s, "latin1");
  if (b[0] !== 0x49 || b[1] !== 0x43 || b[2] !== 1) throw new Error("not a cached icon");
  const width = b[3];
  const height = b[4];
  const count = b[5];
  const frames = b.readUInt16LE(6);
  const delays: number[] = [];
  for (let k = 0; k < frames; k++) delays.push(b.readUInt16LE(12 + 2 * k));
  const colors: number[] = [];
  const at = 12 + 2 * frames;
  for (let i = 0; i < count; i++) colors.push((b[at + 3 * i] << 16) | (b[at + 3 * i + 1] << 8) | b[at + 3 * i + 2]);
  const pixels: number[][] = [];
  let triplets = true;
  let o = at + 3 * count;
  for (let k = 0; k < frames; k++) {
    const f: number[] = [];
    for (let i = 0; i < width * height; i++, o += 3) {
      const t = b[o];
      if (t % 3 !== 0 || t / 3 >= count || b[o + 1] !== t + 1 || b[o + 2] !== t + 2) triplets = false;
      f.push(colors[t / 3]);
    }
    pixels.push(f);
  }
  if (o !== b.length) triplets = false;
  return { width, height, frames, colors, crc: b.readUInt32LE(8), delays, pixels, triplets };
}

// ---------------------------------------------------------------------------------------------
// The host

export interface IconHost {
  storage: SimStorage;
  /** How many times the decode module was loaded. */
  decodes: () => number;
  restore: () => void;
}

type HostModules = (id: string) => unknown;

/** Storage in a fresh folder, Espruino's E, Graphics and a counter of decode module loads. */
export function installIconHost(): IconHost {
  installGraphics();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-icons-"));
  const storage = new SimStorage(dir);
  const g = globalThis as unknown as { E?: object; print?: unknown; PIXLOOP_HOST_MODULES: HostModules };
  const E = g.E;
  const print = g.print;
  g.E = Object.assign({}, E, {
    CRC32: (s: string | Uint8Array) => crc32(typeof s === "string" ? Buffer.from(s, "latin1") : Buffer.from(s)),
    toString: (x: unknown) => (x instanceof Uint8Array ? Buffer.from(x.buffer, x.byteOffset, x.length).toString("latin1") : String(x)),
    toArrayBuffer: (s: string) => Uint8Array.from(Buffer.from(s, "latin1")).buffer,
    mapInPlace: (from: ArrayLike<number>, to: Uint8Array, map: Uint8Array) => {
      for (let i = 0; i < from.length && i < to.length; i++) to[i] = map[from[i]] || 0;
    },
  });
  if (!print) g.print = () => {};
  const modules = g.PIXLOOP_HOST_MODULES;
  let loads = 0;
  g.PIXLOOP_HOST_MODULES = (id: string) => {
    if (id === "icons/decode") loads++;
    return modules(id);
  };
  const unserve = serveStorage(storage);
  return {
    storage,
    decodes: () => loads,
    restore: () => {
      unserve();
      g.PIXLOOP_HOST_MODULES = modules;
      g.E = E;
      if (print) g.print = print;
      else delete g.print;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The Storage name of an icon's cache: "c/" and the CRC32 of its source's name (or inline string). */
export function cacheName(key: string): string {
  return "c/" + crc32(Buffer.from(key, "latin1")).toString(16).padStart(8, "0");
}

export function latin1(b: Buffer): string {
  return b.toString("latin1");
}
