// The `draw` key of a pushed app or notification. A payload's command list is checked and turned
// once, when it arrives, into one flat byte string: a parsed JSON array of arrays costs one to
// two interpreter variables per element, which an 8 KB list of several hundred commands cannot
// afford while the app sits in the loop, whereas bytes cost one variable per 14.
//
// Layout: [n] [n colours, 3 bytes each] [commands]. A command is an opcode byte (command in the
// low nibble, 16 added when it carries a colour), then a colour byte when it does (an index into
// the table, or 255 followed by 3 bytes once the table is full), then its operands:
//   0 PIXEL x y              1 PIXELS count(2) then x y per point
//   11 PIXEL_PACKED x+32y    12 PIXELS_PACKED count(2) then x+32y per point
//   2 LINE x1 y1 x2 y2       3 RECT / 4 RECT_FILL x1 y1 x2 y2 (corners)
//   5 CIRCLE / 6 CIRCLE_FILL cx cy r
//   7 TEXT x (0: a 4-byte x follows) y length (255: a 2-byte length follows) then its bytes
//   8 STRIP (part of a bitmap) x y w-1 h-1 colours-1, a colour index per cell, the colours
//   9 ARC / 10 DISC cx cy r, 4 bytes each: circles beyond Graphics' reach
// Opcodes are written as numbers with their name beside them: constants in a file that imports
// anything stay variables in the bundle, and each would cost memory wherever this is loaded.
//
// Nothing outside columns 0-127 and rows 0-7 can ever show (panels are at most 128 pixels wide,
// and 8 tall), so compiling drops or trims such geometry and what remains fits in single bytes,
// stored plus BIAS where it may lie a little off the edge; points in the first 32 columns take
// one byte each. A line reaching further away is cut where it crosses the border of that byte
// range, which keeps its slope. Circles too large for Graphics' integer arithmetic, or for bytes,
// keep 4-byte operands.
import type { Canvas } from "../display/canvas";
import { invalid } from "../core/failure";
import type { Failure } from "../core/failure";
import { COLOR_MESSAGE, parseColor } from "../color/color";
import { drawText, layoutText } from "../text/font";
import type { FontName, TextLine } from "../text/font";

/** A compiled `draw` list (see the layout above). */
export type DrawProgram = Uint8Array;

/** Added to coordinates that may lie off the panel, so -BIAS..255-BIAS fits a byte. */
const BIAS = 64;
/** The last column and row any panel has. */
const FAR_X = 127;
const FAR_Y = 7;

/** Whether a coordinate fits a biased byte. */
function near(v: number): boolean {
  return v >= -BIAS && v <= 255 - BIAS;
}

/** The program being written, and its colour table. */
/** A program being compiled (newProgram, addCommand, endProgram). */
export interface Out {
  b: Uint8Array;
  n: number;
  colors: number[];
  index: { [rgb: number]: number };
}

/**
 * Where a bitmap's pixels come from: for an array of colours, the cells that show, taken out
 * beforehand in the order they are used (3 bytes each; `next` is the one to use next); for
 * base64 RGB888, the text, read a chunk at a time.
 */
interface Pixels {
  cells: Uint8Array | null;
  next: number;
  b64: string;
  /** The decoded chunk held, and its number. */
  chunk: string;
  held: number;
}

function opOf(name: unknown): number {
  switch (name) {
    case "pixel": return 0 /* PIXEL */;
    case "pixels": return 1 /* PIXELS */;
    case "line": return 2 /* LINE */;
    case "rect": return 3 /* RECT */;
    case "rectFill": return 4 /* RECT_FILL */;
    case "circle": return 5 /* CIRCLE */;
    case "circleFill": return 6 /* CIRCLE_FILL */;
    case "text": return 7 /* TEXT */;
    case "bitmap": return 8 /* STRIP */;
  }
  return -1;
}

/** The message for a wrong argument count: what the command takes. */
function usage(op: number): string {
  switch (op) {
    case 0 /* PIXEL */: return "pixel takes x, y and an optional color";
    case 1 /* PIXELS */: return "pixels takes a color (or null), then x, y pairs";
    case 2 /* LINE */: return "line takes x1, y1, x2, y2 and an optional color";
    case 3 /* RECT */: return "rect takes x, y, w, h and an optional color";
    case 4 /* RECT_FILL */: return "rectFill takes x, y, w, h and an optional color";
    case 5 /* CIRCLE */: return "circle takes cx, cy, r and an optional color";
    case 6 /* CIRCLE_FILL */: return "circleFill takes cx, cy, r and an optional color";
    case 7 /* TEXT */: return "text takes x, y, a string and an optional color";
  }
  return "bitmap takes x, y, w, h and data";
}

function isNumber(v: unknown): boolean {
  return typeof v === "number" && isFinite(v);
}

/** Towards zero, as Graphics reads a coordinate. */
function trunc(v: number): number {
  return v < 0 ? Math.ceil(v) : Math.floor(v);
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/** Makes room for k more bytes. */
function room(o: Out, k: number): void {
  if (o.n + k <= o.b.length) return;
  let size = o.b.length * 2;
  while (size < o.n + k) size *= 2;
  const b = new Uint8Array(size);
  b.set(o.b);
  o.b = b;
}

function put(o: Out, v: number): void {
  room(o, 1);
  o.b[o.n++] = v & 255;
}

function put16(o: Out, v: number): void {
  put(o, v);
  put(o, v >> 8);
}

function put32(o: Out, v: number): void {
  put16(o, v);
  put16(o, v >> 16);
}

/**
 * The opcode, and the colour unless `rgb` is -1 (the text colour). Leaves room for 16 more
 * bytes, so that a command's operands can be written straight into o.b.
 */
function head(o: Out, op: number, rgb: number): void {
  room(o, 21);
  const b = o.b;
  if (rgb < 0) {
    b[o.n++] = op;
    return;
  }
  b[o.n++] = op | 16 /* COLORED */;
  let k = o.index[rgb];
  if (k === undefined && o.colors.length < 255) {
    k = o.colors.length;
    o.colors.push(rgb);
    o.index[rgb] = k;
  }
  if (k !== undefined) {
    b[o.n++] = k;
    return;
  }
  b[o.n++] = 255;
  b[o.n++] = rgb >> 16;
  b[o.n++] = (rgb >> 8) & 255;
  b[o.n++] = rgb & 255;
}

/** True when the box x1..x2, y1..y2 (in order) misses every panel. */
function outside(x1: number, y1: number, x2: number, y2: number): boolean {
  return x2 < 0 || y2 < 0 || x1 > FAR_X || y1 > FAR_Y;
}

function pixel(o: Out, rgb: number, x: number, y: number): void {
  if (outside(x, y, x, y)) return;
  if (x < 32) {
    head(o, 11 /* PIXEL_PACKED */, rgb);
    o.b[o.n++] = x + 32 * y;
    return;
  }
  head(o, 0 /* PIXEL */, rgb);
  o.b[o.n++] = x;
  o.b[o.n++] = y;
}

/** A line, its ends already within the byte range. */
function segment(o: Out, rgb: number, x1: number, y1: number, x2: number, y2: number): void {
  head(o, 2 /* LINE */, rgb);
  const b = o.b;
  b[o.n++] = x1 + BIAS;
  b[o.n++] = y1 + BIAS;
  b[o.n++] = x2 + BIAS;
  b[o.n++] = y2 + BIAS;
}

function line(o: Out, rgb: number, x1: number, y1: number, x2: number, y2: number): void {
  if (outside(Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2))) return;
  if (near(x1) && near(y1) && near(x2) && near(y2)) {
    segment(o, rgb, x1, y1, x2, y2);
    return;
  }
  // Liang-Barsky against the byte range: the part of the segment inside it, as t0..t1.
  const dx = x2 - x1;
  const dy = y2 - y1;
  let t0 = 0;
  let t1 = 1;
  for (let side = 0; side < 4; side++) {
    const q = side === 0 ? x1 + BIAS : side === 1 ? 255 - BIAS - x1 : side === 2 ? y1 + BIAS : 255 - BIAS - y1;
    const d = side === 0 ? -dx : side === 1 ? dx : side === 2 ? -dy : dy;
    if (d === 0) {
      if (q < 0) return;
      continue;
    }
    const t = q / d;
    if (d < 0) {
      if (t > t1) return;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return;
      if (t < t1) t1 = t;
    }
  }
  const ax = clamp(Math.round(x1 + t0 * dx), -BIAS, 255 - BIAS);
  const ay = clamp(Math.round(y1 + t0 * dy), -BIAS, 255 - BIAS);
  const bx = clamp(Math.round(x1 + t1 * dx), -BIAS, 255 - BIAS);
  const by = clamp(Math.round(y1 + t1 * dy), -BIAS, 255 - BIAS);
  if (!outside(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by))) segment(o, rgb, ax, ay, bx, by);
}

function rect(o: Out, op: number, rgb: number, x: number, y: number, w: number, h: number): void {
  if (w <= 0 || h <= 0) return;
  const x2 = x + w - 1;
  const y2 = y + h - 1;
  if (outside(x, y, x2, y2)) return;
  head(o, op, rgb);
  // An edge pulled in to just off the panel stays invisible; the others keep their place.
  const b = o.b;
  b[o.n++] = clamp(x, -1, FAR_X + 1) + BIAS;
  b[o.n++] = clamp(y, -1, FAR_Y + 1) + BIAS;
  b[o.n++] = clamp(x2, -1, FAR_X + 1) + BIAS;
  b[o.n++] = clamp(y2, -1, FAR_Y + 1) + BIAS;
}

function circle(o: Out, fill: boolean, rgb: number, cx: number, cy: number, r: number): void {
  if (r < 0 || outside(cx - r, cy - r, cx + r, cy + r)) return;
  if (r === 0) {
    // A radius of 0 is the centre alone (Graphics' fill would draw nothing).
    pixel(o, rgb, cx, cy);
    return;
  }
  if (near(cx) && near(cy) && r <= 255) {
    head(o, fill ? 6 /* CIRCLE_FILL */ : 5 /* CIRCLE */, rgb);
    const b = o.b;
    b[o.n++] = cx + BIAS;
    b[o.n++] = cy + BIAS;
    b[o.n++] = r;
    return;
  }
  // Huge: the nearest and farthest point of the visible area from the centre decide.
  const nx = cx < 0 ? -cx : cx > FAR_X ? cx - FAR_X : 0;
  const ny = cy < 0 ? -cy : cy > FAR_Y ? cy - FAR_Y : 0;
  const fx = Math.max(Math.abs(cx), Math.abs(cx - FAR_X));
  const fy = Math.max(Math.abs(cy), Math.abs(cy - FAR_Y));
  const nearest = Math.sqrt(nx * nx + ny * ny);
  const farthest = Math.sqrt(fx * fx + fy * fy);
  if (r < nearest - 1 || (!fill && r > farthest + 1)) return;
  if (fill && r > farthest + 1) {
    rect(o, 4 /* RECT_FILL */, rgb, -1, -1, FAR_X + 3, FAR_Y + 3);
    return;
  }
  if (Math.abs(cx) > 0x7fffffff || Math.abs(cy) > 0x7fffffff || r > 0x7fffffff) return;
  head(o, fill ? 10 /* DISC */ : 9 /* ARC */, rgb);
  put32(o, cx);
  put32(o, cy);
  put32(o, r);
}

function text(o: Out, rgb: number, x: number, y: number, s: string): void {
  // No glyph is wider than 16 pixels, and a cell reaches at most 8 rows above or below y.
  const n = s.length < 0xffff ? s.length : 0xffff;
  if (n === 0 || x > FAR_X || x + n * 16 < 0 || y < -8 || y > FAR_Y + 8) return;
  head(o, 7 /* TEXT */, rgb);
  // x as a biased byte; 0 there means a 4-byte x follows.
  if (x > -BIAS && near(x)) o.b[o.n++] = x + BIAS;
  else {
    o.b[o.n++] = 0;
    put32(o, x);
  }
  o.b[o.n++] = y + BIAS;
  if (n < 255) o.b[o.n++] = n;
  else {
    o.b[o.n++] = 255;
    put16(o, n);
  }
  room(o, n);
  const b = o.b;
  for (let i = 0; i < n; i++) b[o.n++] = s.charCodeAt(i);
}

/**
 * The base64 text of chunk `k`, padded. Chunks of 512 characters (384 bytes, 128 whole pixels)
 * keep the decoded text short: the interpreter finds a character by walking the string.
 */
function chunkText(s: string, k: number): string {
  const c = s.substr(k * 512, 512);
  return c.length % 4 ? c + "==".substr(0, 4 - (c.length % 4)) : c;
}

/** Pixels in a bitmap's data; -1 when it is neither an array nor base64 RGB888, -2 when the array holds something that is not a colour. */
function pixelCount(data: unknown): number {
  if (Array.isArray(data)) {
    // In order: the interpreter reaches an array's n-th element by walking from the first.
    for (const v of data) if (parseColor(v) < 0) return -2;
    return data.length;
  }
  if (typeof data !== "string" || data.length % 4 === 1) return -1;
  let bytes = 0;
  const last = Math.ceil(data.length / 512) - 1;
  for (let k = 0; k <= last; k++) {
    const c = chunkText(data, k);
    if (k < last && c.indexOf("=") >= 0) return -1;
    let bin = "";
    try {
      bin = atob(c);
    } catch (e) {
      return -1;
    }
    // Decoding skips what is not base64; only a faithful round trip proves the text was.
    if (btoa(bin) !== c) return -1;
    bytes += bin.length;
  }
  return Math.floor(bytes / 3);
}

/** The colour of pixel k, asked for in the order the cells are used. */
function pixelAt(src: Pixels, k: number): number {
  if (src.cells) {
    const i = 3 * src.next++;
    return (src.cells[i] << 16) | (src.cells[i + 1] << 8) | src.cells[i + 2];
  }
  const chunk = Math.floor(k / 128);
  if (chunk !== src.held) {
    src.chunk = atob(chunkText(src.b64, chunk));
    src.held = chunk;
  }
  const i = (k - chunk * 128) * 3;
  return (src.chunk.charCodeAt(i) << 16) | (src.chunk.charCodeAt(i + 1) << 8) | src.chunk.charCodeAt(i + 2);
}

/** The colours of an array bitmap's cells within left..right, top..bottom, row by row. */
function shownCells(data: unknown[], x: number, y: number, w: number, left: number, top: number, right: number, bottom: number): Uint8Array {
  const cells = new Uint8Array(3 * (right - left + 1) * (bottom - top + 1));
  let n = 0;
  let k = 0;
  for (const v of data) {
    const row = y + Math.floor(k / w);
    const col = x + k - (row - y) * w;
    k++;
    if (row > bottom) break;
    if (row < top || col < left || col > right) continue;
    const rgb = parseColor(v);
    cells[n++] = rgb >> 16;
    cells[n++] = (rgb >> 8) & 255;
    cells[n++] = rgb & 255;
  }
  return cells;
}

/** The current strip of a bitmap: where its header starts, its rows, its colours. */
interface Strip {
  start: number;
  rows: number;
  colors: number[];
  index: { [rgb: number]: number };
}

function openStrip(o: Out, s: Strip, x: number, y: number, w: number): void {
  s.start = o.n;
  s.rows = 0;
  s.colors = [];
  s.index = {};
  put(o, 8 /* STRIP */);
  put(o, x);
  put(o, y);
  put(o, w - 1);
  put(o, 0);
  put(o, 0);
}

function closeStrip(o: Out, s: Strip): void {
  if (s.rows === 0) {
    o.n = s.start;
    return;
  }
  o.b[s.start + 4] = s.rows - 1;
  o.b[s.start + 5] = s.colors.length - 1;
  room(o, s.colors.length * 3);
  for (let i = 0; i < s.colors.length; i++) {
    const c = s.colors[i];
    o.b[o.n++] = c >> 16;
    o.b[o.n++] = (c >> 8) & 255;
    o.b[o.n++] = c & 255;
  }
}

/** Adds pixels first..first+count-1 as a row of the strip; false (and nothing added) when its colours do not fit. */
function stripRow(o: Out, s: Strip, src: Pixels, first: number, count: number): boolean {
  const mark = s.colors.length;
  const rowStart = o.n;
  const cell = src.next;
  room(o, count);
  for (let i = 0; i < count; i++) {
    const rgb = pixelAt(src, first + i);
    let k = s.index[rgb];
    if (k === undefined) {
      if (s.colors.length === 256) {
        for (let j = mark; j < s.colors.length; j++) delete s.index[s.colors[j]];
        s.colors.splice(mark);
        o.n = rowStart;
        src.next = cell;
        return false;
      }
      k = s.colors.length;
      s.colors.push(rgb);
      s.index[rgb] = k;
    }
    o.b[o.n++] = k;
  }
  s.rows++;
  return true;
}

/**
 * The visible part of a bitmap as strips of at most 256 colours each: whole rows while the data
 * lasts, then the cells of the row it ends in.
 */
function bitmap(o: Out, x: number, y: number, w: number, h: number, data: unknown, count: number): void {
  if (w <= 0 || h <= 0 || outside(x, y, x + w - 1, y + h - 1)) return;
  const left = Math.max(x, 0);
  const right = Math.min(x + w - 1, FAR_X);
  const top = Math.max(y, 0);
  const bottom = Math.min(y + h - 1, FAR_Y);
  const src: Pixels = { cells: null, next: 0, b64: Array.isArray(data) ? "" : data as string, chunk: "", held: -1 };
  if (Array.isArray(data)) src.cells = shownCells(data, x, y, w, left, top, right, bottom);
  const full = Math.floor(Math.min(count, w * h) / w);
  const s: Strip = { start: 0, rows: 0, colors: [], index: {} };
  openStrip(o, s, left, top, right - left + 1);
  for (let row = top; row <= bottom && row - y < full; row++) {
    const first = (row - y) * w + left - x;
    if (!stripRow(o, s, src, first, right - left + 1)) {
      closeStrip(o, s);
      openStrip(o, s, left, row, right - left + 1);
      stripRow(o, s, src, first, right - left + 1);
    }
  }
  closeStrip(o, s);
  // The row the data ends in, up to its last cell.
  const row = y + full;
  const last = x + Math.min(count, w * h) - full * w - 1;
  if (row >= top && row <= bottom && last >= left) {
    const end = Math.min(last, right);
    openStrip(o, s, left, row, end - left + 1);
    stripRow(o, s, src, full * w + left - x, end - left + 1);
    closeStrip(o, s);
  }
}

/** Compiles one element; an empty string when it is fine, else what is wrong with it. */
export function addCommand(o: Out, e: unknown): string {
  if (!Array.isArray(e)) return "must be an array: a command name, then its arguments";
  const op = opOf(e[0]);
  if (op < 0) return "unknown command (pixel, pixels, line, rect, rectFill, circle, circleFill, text or bitmap)";
  const args = e.length - 1;
  const numbers = "coordinates, sizes and radii must be numbers";
  if (op === 1 /* PIXELS */) {
    if (args < 1) return usage(op);
    const rgb = e[1] === null ? -1 : parseColor(e[1]);
    if (rgb < 0 && e[1] !== null) return COLOR_MESSAGE;
    if (args % 2 === 0) {
      for (let i = 2; i < e.length; i++) if (!isNumber(e[i])) return numbers;
      return "pixels takes x, y pairs after its color: the last coordinate has no partner";
    }
    // Checks the points; counts those that can show, and whether all lie in the first 32 columns.
    // Far values become -1: off the panel, as they are (and `| 0` would wrap them). The list is
    // read in order, as the interpreter reaches its n-th element by walking from the first.
    let n = 0;
    let packed = true;
    let k = 0;
    let px = 0;
    for (const v of e) {
      if (k++ < 2) continue;
      if (typeof v !== "number" || !isFinite(v)) return numbers;
      if (k % 2) {
        px = v > -1e9 && v < 1e9 ? v | 0 : -1;
        continue;
      }
      const py = v > -1e9 && v < 1e9 ? v | 0 : -1;
      if (px < 0 || py < 0 || px > FAR_X || py > FAR_Y) continue;
      n++;
      if (px >= 32) packed = false;
    }
    if (n === 0) return "";
    head(o, packed ? 12 /* PIXELS_PACKED */ : op, rgb);
    put16(o, n);
    room(o, packed ? n : n * 2);
    const b = o.b;
    k = 0;
    for (const v of e) {
      if (k++ < 2) continue;
      if (k % 2) {
        px = v > -1e9 && v < 1e9 ? v | 0 : -1;
        continue;
      }
      const py = v > -1e9 && v < 1e9 ? v | 0 : -1;
      if (px < 0 || py < 0 || px > FAR_X || py > FAR_Y) continue;
      if (packed) b[o.n++] = px + 32 * py;
      else {
        b[o.n++] = px;
        b[o.n++] = py;
      }
    }
    return "";
  }
  if (op === 8 /* STRIP */) {
    if (args !== 5) return usage(op);
    for (let i = 1; i <= 4; i++) if (!isNumber(e[i])) return numbers;
    const count = pixelCount(e[5]);
    if (count === -2) return COLOR_MESSAGE;
    if (count < 0) return "bitmap data must be base64 RGB888 or an array of colors";
    bitmap(o, trunc(e[1]), trunc(e[2]), trunc(e[3]), trunc(e[4]), e[5], count);
    return "";
  }
  // The fixed arguments, then an optional colour.
  const fixed = op === 0 /* PIXEL */ ? 2 : op <= 4 /* RECT_FILL */ ? 4 : 3;
  if (args !== fixed && args !== fixed + 1) return usage(op);
  const last = op === 7 /* TEXT */ ? 2 : fixed;
  for (let i = 1; i <= last; i++) if (typeof e[i] !== "number" || !isFinite(e[i])) return numbers;
  if (op === 7 /* TEXT */ && typeof e[3] !== "string") return "text takes a string after x and y";
  let rgb = -1;
  if (args > fixed && e[args] !== null) {
    rgb = parseColor(e[args]);
    if (rgb < 0) return COLOR_MESSAGE;
  }
  const a = trunc(e[1]);
  const b = trunc(e[2]);
  if (op === 0 /* PIXEL */) {
    pixel(o, rgb, a, b);
  } else if (op === 2 /* LINE */) {
    line(o, rgb, a, b, trunc(e[3]), trunc(e[4]));
  } else if (op === 3 /* RECT */ || op === 4 /* RECT_FILL */) {
    rect(o, op, rgb, a, b, trunc(e[3]), trunc(e[4]));
  } else if (op === 7 /* TEXT */) {
    text(o, rgb, a, b, e[3]);
  } else {
    circle(o, op === 6 /* CIRCLE_FILL */, rgb, a, b, trunc(e[3]));
  }
  return "";
}

/** A payload's `draw` value compiled into a compact program (of length 0 when nothing in it can show); a Failure (422, field "draw[<i>]", or "draw" when the value is not an array) on a bad element. */
export function compileDraw(v: unknown): DrawProgram | Failure {
  if (!Array.isArray(v)) return invalid("draw", "must be an array of commands");
  const o = newProgram();
  let i = 0;
  for (const e of v) {
    const message = addCommand(o, e);
    if (message) return invalid("draw[" + i + "]", message);
    i++;
  }
  return endProgram(o);
}

/**
 * The same compiler a command at a time, for lists read from a request's text one command after
 * the other (payload/parse-body): newProgram, addCommand for each (a message when the command is
 * refused), endProgram.
 */
export function newProgram(): Out {
  return { b: new Uint8Array(64), n: 0, colors: [], index: {} };
}

export function endProgram(o: Out): DrawProgram {
  let i = 0;
  // Nothing that can show: an empty program, which a caller need not keep.
  if (o.n === 0) return new Uint8Array(0);
  const k = o.colors.length;
  const p = new Uint8Array(1 + 3 * k + o.n);
  p[0] = k;
  for (i = 0; i < k; i++) {
    const c = o.colors[i];
    p[1 + 3 * i] = c >> 16;
    p[2 + 3 * i] = (c >> 8) & 255;
    p[3 + 3 * i] = c & 255;
  }
  p.set(o.b.subarray(0, o.n), 1 + 3 * k);
  return p;
}

declare const Uint24Array: { new (n: number): Uint8Array } | undefined;

/**
 * A strip at p[i..]: its colours graded through the canvas, then drawn as one image. Where the
 * interpreter has Uint24Array, E.mapInPlace turns the colour indices into the 24 bpp image in
 * native code. Returns where the next command starts.
 */
function strip(c: Canvas, p: DrawProgram, i: number): number {
  const x = p[i];
  const y = p[i + 1];
  const w = p[i + 2] + 1;
  const h = p[i + 3] + 1;
  const n = p[i + 4] + 1;
  const pixels = p.subarray(i + 5, i + 5 + w * h);
  const colors = i + 5 + w * h;
  const g = c.g;
  if (typeof Uint24Array !== "undefined") {
    const map = new Uint24Array(n);
    for (let k = 0; k < n; k++) {
      const at = colors + 3 * k;
      c.color((p[at] << 16) | (p[at + 1] << 8) | p[at + 2]);
      const v = g.getColor();
      // Uint24Array stores little-endian; a 24 bpp image holds the top byte first.
      map[k] = ((v & 255) << 16) | (v & 0xff00) | ((v >> 16) & 255);
    }
    const image = new Uint24Array(w * h);
    E.mapInPlace(pixels, image, map);
    g.drawImage({ width: w, height: h, bpp: 24, buffer: image.buffer }, x, y);
  } else {
    const image = new Uint8Array(w * h * 3);
    for (let k = 0; k < w * h; k++) {
      const at = colors + 3 * pixels[k];
      c.color((p[at] << 16) | (p[at + 1] << 8) | p[at + 2]);
      const v = g.getColor();
      image[3 * k] = (v >> 16) & 255;
      image[3 * k + 1] = (v >> 8) & 255;
      image[3 * k + 2] = v & 255;
    }
    g.drawImage({ width: w, height: h, bpp: 24, buffer: image.buffer }, x, y);
  }
  return colors + 3 * n;
}

/** A signed 4-byte integer at p[i..]. */
function int32(p: DrawProgram, i: number): number {
  return p[i] | (p[i + 1] << 8) | (p[i + 2] << 16) | (p[i + 3] << 24);
}

/**
 * A filled circle, a row at a time: the cells whose centres lie within r + 1/2 of the centre
 * (dx² + dy² < r² + r). That keeps small discs round (Graphics' own fill makes a radius 2 a
 * square) and always covers what drawCircle outlines, and it works for any radius.
 */
function disc(c: Canvas, cx: number, cy: number, r: number): void {
  const top = cy - r > 0 ? cy - r : 0;
  const bottom = cy + r < c.height - 1 ? cy + r : c.height - 1;
  const reach = r * r + r - 1;
  let half = 0;
  for (let y = top; y <= bottom; y++) {
    half = reach - (y - cy) * (y - cy);
    if (half < 0) continue;
    half = Math.floor(Math.sqrt(half));
    // Kept within reach of the panel: Graphics would wrap what exceeds 32 bits.
    c.g.fillRect(cx - half > -1 ? cx - half : -1, y, cx + half < c.width ? cx + half : c.width, y);
  }
}

/** A circle outline too large for Graphics' integer arithmetic, over the visible columns and rows. */
function arc(c: Canvas, cx: number, cy: number, r: number): void {
  const g = c.g;
  const r2 = r * r;
  let d = 0;
  let v = 0;
  for (let x = 0; x < c.width; x++) {
    d = r2 - (x - cx) * (x - cx);
    if (d < 0) continue;
    d = Math.sqrt(d);
    v = Math.round(cy - d);
    if (v >= 0 && v < c.height) g.setPixel(x, v);
    v = Math.round(cy + d);
    if (v >= 0 && v < c.height) g.setPixel(x, v);
  }
  for (let y = 0; y < c.height; y++) {
    d = r2 - (y - cy) * (y - cy);
    if (d < 0) continue;
    d = Math.sqrt(d);
    v = Math.round(cx - d);
    if (v >= 0 && v < c.width) g.setPixel(v, y);
    v = Math.round(cx + d);
    if (v >= 0 && v < c.width) g.setPixel(v, y);
  }
}

/** Runs the program onto the canvas; `textColor` is the colour of commands that left theirs out. Geometry outside the panel is clipped; zero-size shapes draw nothing. `font` is the page's font, for `text` (small when left out). */
export function runDraw(c: Canvas, p: DrawProgram, textColor: number, font?: FontName): void {
  if (p.length === 0) return;
  const g = c.g;
  let i = 1 + 3 * p[0];
  // The colour selected last: a table index, 256 for the text colour, or -1 (none yet, or one
  // given inline): a run of commands in one colour grades it once.
  let selected = -1;
  let laid: TextLine | undefined;
  // Declared once out here: the interpreter makes block-scoped names afresh on every pass.
  const size = p.length;
  let op = 0;
  let cmd = 0;
  let k = 0;
  let at = 0;
  while (i < size) {
    op = p[i++];
    cmd = op & 15;
    if (cmd === 8 /* STRIP */) {
      i = strip(c, p, i);
      selected = -1;
      continue;
    }
    if (!(op & 16 /* COLORED */)) {
      if (selected !== 256) {
        c.color(textColor);
        selected = 256;
      }
    } else {
      k = p[i++];
      if (k === 255) {
        c.color((p[i] << 16) | (p[i + 1] << 8) | p[i + 2]);
        i += 3;
        selected = -1;
      } else if (k !== selected) {
        at = 1 + 3 * k;
        c.color((p[at] << 16) | (p[at + 1] << 8) | p[at + 2]);
        selected = k;
      }
    }
    switch (cmd) {
      case 11 /* PIXEL_PACKED */:
        g.setPixel(p[i] & 31, p[i] >> 5);
        i++;
        break;
      case 12 /* PIXELS_PACKED */: {
        const end = i + 2 + (p[i] | (p[i + 1] << 8));
        for (i += 2; i < end; i++) g.setPixel(p[i] & 31, p[i] >> 5);
        break;
      }
      case 0 /* PIXEL */:
        g.setPixel(p[i], p[i + 1]);
        i += 2;
        break;
      case 1 /* PIXELS */: {
        const end = i + 2 + 2 * (p[i] | (p[i + 1] << 8));
        for (i += 2; i < end; i += 2) g.setPixel(p[i], p[i + 1]);
        break;
      }
      case 2 /* LINE */:
        g.drawLine(p[i] - BIAS, p[i + 1] - BIAS, p[i + 2] - BIAS, p[i + 3] - BIAS);
        i += 4;
        break;
      case 3 /* RECT */:
        g.drawRect(p[i] - BIAS, p[i + 1] - BIAS, p[i + 2] - BIAS, p[i + 3] - BIAS);
        i += 4;
        break;
      case 4 /* RECT_FILL */:
        g.fillRect(p[i] - BIAS, p[i + 1] - BIAS, p[i + 2] - BIAS, p[i + 3] - BIAS);
        i += 4;
        break;
      case 5 /* CIRCLE */:
        g.drawCircle(p[i] - BIAS, p[i + 1] - BIAS, p[i + 2]);
        i += 3;
        break;
      case 6 /* CIRCLE_FILL */:
        disc(c, p[i] - BIAS, p[i + 1] - BIAS, p[i + 2]);
        i += 3;
        break;
      case 7 /* TEXT */: {
        let x = p[i++] - BIAS;
        if (x === -BIAS) {
          x = int32(p, i);
          i += 4;
        }
        const y = p[i++] - BIAS;
        let n = p[i++];
        if (n === 255) {
          n = p[i] | (p[i + 1] << 8);
          i += 2;
        }
        const s = String.fromCharCode.apply(null, p.subarray(i, i + n) as unknown as number[]);
        i += n;
        laid = layoutText(s, font || "small", false, laid);
        drawText(g, laid, x, y);
        break;
      }
      default:
        if (cmd === 10 /* DISC */) disc(c, int32(p, i), int32(p, i + 4), int32(p, i + 8));
        else arc(c, int32(p, i), int32(p, i + 4), int32(p, i + 8));
        i += 12;
    }
  }
}
