// GIF87a and GIF89a, read the way the GIF89a specification describes them, turned into what an
// icon plays: every frame composed onto the logical screen (its own position, transparency and
// the previous frame's disposal applied), as indices into one list of distinct colours that all
// frames share. It runs on the clock, once per icon, while a page is made: the work per pixel is
// kept to a few typed-array operations, and every buffer is sized from a first pass over the
// blocks, so that a 1 KB animation decodes in well under 200 ms in the interpreter.
//
// Rules an icon adds to the format:
// - a frame wider than 32 or taller than 8 rejects the whole file (no icon); a logical screen
//   larger than that is cut to 32x8 (the panel shows no more), one of 0x0 takes the first frame's
//   extent;
// - transparent pixels of the first frame are black, "restore to background" restores black;
// - a delay of 0 plays 10 cs (100 ms); the loop count is ignored (icons loop forever);
// - at most MAX_PIXELS pixels over all frames (64 frames of 8x8, 16 of 32x8): later frames are
//   dropped, which bounds the cached form at 12 KB and the memory a decode takes;
// - damaged data keeps what decoded: LZW data that ends early leaves the rest of its frame as if
//   transparent, a file cut short keeps the frames it completed.

/** Largest icon, in pixels: the panel. */
export const MAX_WIDTH = 32;
export const MAX_HEIGHT = 8;
/** Pixels over all frames at most (frames beyond are dropped). */
export const MAX_PIXELS = 4096;

/** Decoded frames: colour indices into a shared list of distinct colours. */
export interface Frames {
  width: number;
  height: number;
  count: number;
  /** How long each frame shows, in centiseconds (as GIF counts); never 0. */
  delays: Uint16Array;
  /**
   * count * width * height colour indices, frame after frame, each row after row: a byte each
   * while there are at most 256 colours.
   */
  pixels: Uint8Array | Uint16Array;
  /** 0xRRGGBB of each index below `ncolors`. */
  colors: Uint32Array;
  ncolors: number;
}

/**
 * Distinct colours, found again by an open-addressing hash (no Map in the interpreter): a slot
 * holds an index + 1 (0 = empty), and the table doubles once it is half full.
 */
export interface ColorSet {
  colors: Uint32Array;
  n: number;
  slots: Int16Array;
}

export function newColorSet(): ColorSet {
  return { colors: new Uint32Array(64), n: 0, slots: new Int16Array(256) };
}

function slotOf(slots: Int16Array, colors: Uint32Array, rgb: number): number {
  const mask = slots.length - 1;
  let h = (rgb ^ (rgb >> 9) ^ (rgb >> 17)) & mask;
  for (;;) {
    const s = slots[h];
    if (s === 0 || colors[s - 1] === rgb) return h;
    h = (h + 1) & mask;
  }
}

/** The index of colour `rgb` (0xRRGGBB) in `set`, added when new. */
export function colorIndex(set: ColorSet, rgb: number): number {
  let h = slotOf(set.slots, set.colors, rgb);
  const s = set.slots[h];
  if (s > 0) return s - 1;
  const n = set.n;
  if (n === set.colors.length) {
    const more = new Uint32Array(n * 2);
    more.set(set.colors);
    set.colors = more;
  }
  set.colors[n] = rgb;
  set.n = n + 1;
  if (set.n * 2 > set.slots.length) {
    const slots = new Int16Array(set.slots.length * 2);
    for (let i = 0; i <= n; i++) slots[slotOf(slots, set.colors, set.colors[i])] = i + 1;
    set.slots = slots;
  } else set.slots[h] = n + 1;
  return n;
}

/** Past the data sub-blocks that start at p (the position after their terminator). */
function skipBlocks(b: Uint8Array, p: number): number {
  const n = b.length;
  while (p < n) {
    const len = b[p];
    p += 1 + len;
    if (len === 0) return p;
  }
  return n;
}

/** The payload of the data sub-blocks b[p..end) copied into `data` (natively, a block at a time); returns its length. */
function unblock(b: Uint8Array, p: number, end: number, data: Uint8Array): number {
  let q = 0;
  while (p < end) {
    const len = b[p++];
    if (len === 0) break;
    const stop = p + len < end ? p + len : end;
    data.set(b.subarray(p, stop), q);
    q += stop - p;
    p = stop;
  }
  return q;
}

/**
 * Decodes LZW data (`n` bytes of `data`) with minimum code size `min` into `out` (at most
 * `total` indices); returns how many it produced. Every string in the dictionary first appeared
 * in the output: an entry is kept as where it appeared and how long it is, and a code is a
 * forward copy from there (the copy that overlaps its own start is exactly the code just being
 * defined), so the dictionary costs two small arrays and no chains are walked.
 */
function lzw(data: Uint8Array, n: number, min: number, out: Uint8Array, total: number, at: Uint16Array, len: Uint16Array): number {
  let acc = 0;
  let bits = 0;
  let q = 0;
  let o = 0;
  const clear = 1 << min;
  const first = clear + 2;
  let next = first;
  let size = min + 1;
  let mask = (1 << size) - 1;
  let prevAt = -1;
  let prevLen = 0;
  while (o < total) {
    while (bits < size) {
      if (q >= n) return o;
      acc |= data[q++] << bits;
      bits += 8;
    }
    const code = acc & mask;
    acc >>= size;
    bits -= size;
    if (code === clear) {
      next = first;
      size = min + 1;
      mask = (1 << size) - 1;
      prevAt = -1;
      continue;
    }
    if (code === clear + 1) return o;
    if (prevAt < 0) {
      if (code > clear) return o;
      out[o] = code;
      prevAt = o++;
      prevLen = 1;
      continue;
    }
    if (code > next) return o;
    if (next < 4096) {
      // The new entry: the previous string and the first index of this one, which starts where
      // the previous string ended.
      at[next - first] = prevAt;
      len[next - first] = prevLen + 1;
      next++;
      if (next === 1 << size && size < 12) {
        size++;
        mask = (1 << size) - 1;
      }
    }
    prevAt = o;
    if (code < clear) {
      out[o++] = code;
      prevLen = 1;
    } else {
      let from = at[code - first];
      prevLen = len[code - first];
      const stop = o + prevLen < total ? o + prevLen : total;
      while (o < stop) out[o++] = out[from++];
    }
  }
  return o;
}

/** 0xRRGGBB of entry i of the colour table at b[t]. */
function rgbAt(b: Uint8Array, t: number, i: number): number {
  const k = t + 3 * i;
  return (b[k] << 16) | (b[k + 1] << 8) | b[k + 2];
}

/**
 * A first pass over the blocks from p: how many frames, the largest frame's pixel count and
 * data length, and the first frame's extent; null when a frame is too large.
 */
function survey(b: Uint8Array, p: number): { frames: number; most: number; longest: number; right: number; bottom: number } | null {
  const n = b.length;
  let frames = 0;
  let most = 0;
  let longest = 0;
  let right = 0;
  let bottom = 0;
  while (p < n) {
    const t = b[p++];
    if (t === 0x21) p = skipBlocks(b, p + 1);
    else if (t === 0x2c) {
      if (p + 9 > n) break;
      const w = b[p + 4] | (b[p + 5] << 8);
      const h = b[p + 6] | (b[p + 7] << 8);
      if (w > MAX_WIDTH || h > MAX_HEIGHT) return null;
      if (frames === 0) {
        right = (b[p] | (b[p + 1] << 8)) + w;
        bottom = (b[p + 2] | (b[p + 3] << 8)) + h;
      }
      const f = b[p + 8];
      p += 9 + (f & 0x80 ? 6 << (f & 7) : 0);
      const start = p + 1;
      p = skipBlocks(b, start);
      if (p - start > longest) longest = p - start;
      frames++;
      if (w * h > most) most = w * h;
    } else break;
  }
  return { frames, most, longest, right, bottom };
}

/**
 * Gives every colour table entry the pixels out[0..got) use (but the transparent one) its colour
 * index, looked up or added when first met.
 */
function resolve(out: Uint8Array, got: number, map: Int16Array, transparent: number, set: ColorSet, b: Uint8Array, table: number, size: number): void {
  for (let i = 0; i < got; i++) {
    const v = out[i];
    if (map[v] < 0 && v !== transparent) map[v] = v < size ? colorIndex(set, rgbAt(b, table, v)) : 0;
  }
}

/**
 * Draws a frame's colour indices (`got` of them, rows in the order `rows` gives, 0xFFFF for
 * transparent) onto the canvas at left, top, clipped to W x H; whole rows are copied natively
 * when nothing in the frame is transparent.
 */
function compose(mapped: Uint16Array, got: number, fw: number, fh: number, left: number, top: number, W: number, H: number, rows: Uint8Array,
  canvas: Uint16Array, opaque: boolean): void {
  for (let r = 0; r < fh; r++) {
    let i = r * fw;
    if (i >= got) return;
    const y = top + rows[r];
    let n = left + fw > W ? W - left : fw;
    if (i + n > got) n = got - i;
    if (y >= H || n <= 0) continue;
    let o = y * W + left;
    if (opaque) canvas.set(mapped.subarray(i, i + n), o);
    else {
      const stop = i + n;
      for (; i < stop; i++, o++) {
        const c = mapped[i];
        if (c !== 0xffff) canvas[o] = c;
      }
    }
  }
}

/** Decodes a GIF held in a byte string; null when it is not one or cannot be shown. */
export function decodeGif(src: string): Frames | null {
  const b = new Uint8Array(E.toArrayBuffer(src));
  const n = b.length;
  if (n < 13 || b[0] !== 0x47 || b[1] !== 0x49 || b[2] !== 0x46 || b[3] !== 0x38 || b[5] !== 0x61) return null;
  const screen = b[10];
  const global = screen & 0x80 ? 13 : -1;
  const globalSize = screen & 0x80 ? 2 << (screen & 7) : 0;
  let p = 13 + 3 * globalSize;
  const s = survey(b, p);
  if (!s || s.frames === 0) return null;
  let W = b[6] | (b[7] << 8);
  let H = b[8] | (b[9] << 8);
  if (W === 0 || H === 0) {
    W = s.right;
    H = s.bottom;
  }
  if (W > MAX_WIDTH) W = MAX_WIDTH;
  if (H > MAX_HEIGHT) H = MAX_HEIGHT;
  if (W === 0 || H === 0) return null;
  const area = W * H;
  const count = s.frames < MAX_PIXELS / area ? s.frames : Math.floor(MAX_PIXELS / area);
  let pixels: Uint8Array | Uint16Array = new Uint8Array(count * area);
  const delays = new Uint16Array(count);
  const canvas = new Uint16Array(area);
  let saved: Uint16Array | null = null;
  const most = s.most > 0 ? s.most : 1;
  const out = new Uint8Array(most);
  const mapped = new Uint16Array(most);
  const data = new Uint8Array(s.longest);
  const at = new Uint16Array(most + 1);
  const len = new Uint16Array(most + 1);
  const rows = new Uint8Array(MAX_HEIGHT);
  const set = newColorSet();
  // Index 0 is black: the empty canvas, what transparency shows on the first frame and what
  // "restore to background" leaves.
  colorIndex(set, 0);
  // Colour table entry -> colour index, -1 until first used: the global table's for the whole
  // file, a local table's for its frame.
  const globalMap = new Int16Array(256);
  for (let i = 0; i < 256; i++) globalMap[i] = -1;
  let localMap: Int16Array | null = null;
  let disposal = 0;
  let transparent = -1;
  let delay = 0;
  let prevDisposal = 0;
  let px = 0;
  let py = 0;
  let pw = 0;
  let ph = 0;
  let k = 0;
  while (p < n && k < count) {
    const t = b[p++];
    if (t === 0x21) {
      if (b[p] === 0xf9 && b[p + 1] >= 4 && p + 5 < n) {
        const f = b[p + 2];
        disposal = (f >> 2) & 7;
        delay = b[p + 3] | (b[p + 4] << 8);
        transparent = f & 1 ? b[p + 5] : -1;
      }
      p = skipBlocks(b, p + 1);
      continue;
    }
    if (t !== 0x2c) break;
    const left = b[p] | (b[p + 1] << 8);
    const top = b[p + 2] | (b[p + 3] << 8);
    const fw = b[p + 4] | (b[p + 5] << 8);
    const fh = b[p + 6] | (b[p + 7] << 8);
    const f = b[p + 8];
    p += 9;
    let table = global;
    let tableSize = globalSize;
    let map = globalMap;
    if (f & 0x80) {
      table = p;
      tableSize = 2 << (f & 7);
      p += 3 * tableSize;
      if (!localMap) localMap = new Int16Array(256);
      for (let i = 0; i < 256; i++) localMap[i] = -1;
      map = localMap;
    }
    const min = b[p++];
    const end = skipBlocks(b, p);
    if (min < 1 || min > 8) return null;
    if (k > 0) {
      if (prevDisposal === 2) {
        for (let y = py; y < py + ph && y < H; y++) {
          for (let x = px; x < px + pw && x < W; x++) canvas[y * W + x] = 0;
        }
      } else if (prevDisposal === 3 && saved) canvas.set(saved);
    }
    if (disposal === 3) {
      if (!saved) saved = new Uint16Array(area);
      saved.set(canvas);
    }
    const total = fw * fh;
    const got = total > 0 ? lzw(data, unblock(b, p, end, data), min, out, total, at, len) : 0;
    p = end;
    if (f & 0x40) {
      // Interlaced: rows arrive every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
      let r = 0;
      for (let pass = 0; pass < 4; pass++) {
        const step = pass < 2 ? 8 : 8 >> (pass - 1);
        for (let y = pass === 0 ? 0 : step >> 1; y < fh; y += step) rows[r++] = y;
      }
    } else for (let y = 0; y < fh; y++) rows[y] = y;
    resolve(out, got, map, transparent, set, b, table, tableSize);
    // Table entries -> colour indices natively; the transparent entry becomes 0xFFFF meanwhile.
    const kept = transparent >= 0 ? map[transparent] : 0;
    if (transparent >= 0) map[transparent] = -1;
    E.mapInPlace(out.subarray(0, got), mapped as unknown as Uint8Array, map as unknown as Uint8Array);
    if (transparent >= 0) map[transparent] = kept;
    compose(mapped, got, fw, fh, left, top, W, H, rows, canvas, transparent < 0);
    if (set.n > 256 && pixels instanceof Uint8Array) {
      const wide: Uint16Array = new Uint16Array(pixels.length);
      wide.set(pixels);
      pixels = wide;
    }
    pixels.set(canvas, k * area);
    delays[k] = delay > 0 ? delay : 10;
    prevDisposal = disposal;
    px = left;
    py = top;
    pw = fw;
    ph = fh;
    disposal = 0;
    transparent = -1;
    delay = 0;
    k++;
  }
  if (k === 0) return null;
  return { width: W, height: H, count: k, delays: delays.subarray(0, k), pixels: pixels.subarray(0, k * area), colors: set.colors, ncolors: set.n };
}
