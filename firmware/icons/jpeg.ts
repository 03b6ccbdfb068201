// Baseline JPEG (ITU-T T.81: sequential DCT, Huffman coding, 8-bit samples), decoded as far as an
// icon shows it: the top-left 8x8 pixels. Those pixels come from the first 8x8 block of every
// component, whatever the subsampling, and in every scan that block is the first one coded
// (the first of the first MCU), so only the start of each scan is entropy-decoded and one inverse
// DCT runs per component. Restart intervals are read, but a restart marker can only come after
// the first MCU, so none is ever reached; the entropy data is then skipped to the next marker.
//
// Supported: SOF0 and SOF1 frames with 1 component (greyscale, shown as grey) or 3 (YCbCr as
// JFIF defines it, or RGB when an Adobe segment says there is no transform), any sampling factors
// (4:4:4, 4:2:2, 4:2:0, ...), chroma upsampled by repeating samples, several scans. Progressive,
// lossless, arithmetic-coded and 12-bit files, and CMYK, decode to null (no icon).

/** Pixels of a decoded JPEG icon, a side. */
export const JPEG_SIDE = 8;

/**
 * A Huffman table: MAXCODE (-1: no code of that length), VALPTR and MINCODE per length 1..16
 * (T.81 F.2.2.3), and for codes of up to 8 bits a lookup by the next 8 bits: length << 8 | value
 * (0 when the code is longer).
 */
interface Huffman {
  max: Int32Array;
  ptr: Int32Array;
  min: Int32Array;
  values: Uint8Array;
  lut: Uint16Array;
}

/**
 * The entropy-coded bits of a scan, read MSB first with stuffed zero bytes dropped: `acc` holds
 * the next `n` bits, topped up to more than 16 before each code so that a code and its extra
 * bits come out of it without a call per bit.
 */
interface Bits {
  b: Uint8Array;
  p: number;
  acc: number;
  n: number;
}

function fill(r: Bits): void {
  const b = r.b;
  while (r.n <= 16) {
    let c = 0;
    if (r.p < b.length) {
      c = b[r.p];
      if (c !== 0xff) r.p++;
      else if (b[r.p + 1] === 0) r.p += 2;
      // A marker ends the data: what is still asked for reads as zeros (T.81 F.2.2.5).
      else c = 0;
    }
    r.acc = ((r.acc & ((1 << r.n) - 1)) << 8) | c;
    r.n += 8;
  }
}

/** The next Huffman-coded value, -1 for a code the table does not have. */
function huffman(r: Bits, t: Huffman): number {
  if (r.n <= 16) fill(r);
  const acc = r.acc;
  const n = r.n;
  const e = t.lut[(acc >> (n - 8)) & 255];
  if (e > 0) {
    r.n = n - (e >> 8);
    return e & 255;
  }
  const max = t.max;
  for (let l = 9; l <= 16; l++) {
    const code = (acc >> (n - l)) & ((1 << l) - 1);
    if (code <= max[l]) {
      r.n = n - l;
      return t.values[t.ptr[l] + code - t.min[l]];
    }
  }
  return -1;
}

/** `s` (at most 16) more bits as a signed value (T.81 F.2.2.1, RECEIVE and EXTEND). */
function receive(r: Bits, s: number): number {
  if (r.n <= 16) fill(r);
  r.n -= s;
  const v = (r.acc >> r.n) & ((1 << s) - 1);
  return v < 1 << (s - 1) ? v - (1 << s) + 1 : v;
}

/** T.81 Annex C: the code of every value, from the count of codes of each length. */
function buildHuffman(b: Uint8Array, p: number, count: number): Huffman {
  const values = b.subarray(p + 16, p + 16 + count);
  const t: Huffman = { max: new Int32Array(17), ptr: new Int32Array(17), min: new Int32Array(17), values, lut: new Uint16Array(256) };
  let code = 0;
  let k = 0;
  for (let l = 1; l <= 16; l++) {
    const n = b[p + l - 1];
    t.ptr[l] = k;
    t.min[l] = code;
    if (l <= 8) {
      // Every 8-bit sequence that starts with the code.
      const span = 1 << (8 - l);
      for (let j = 0; j < n; j++) {
        const from = (code + j) * span;
        for (let x = from; x < from + span && x < 256; x++) t.lut[x] = (l << 8) | values[k + j];
      }
    }
    code += n;
    k += n;
    t.max[l] = n > 0 ? code - 1 : -1;
    code <<= 1;
  }
  return t;
}

/** Position in the 8x8 block of each coefficient in the order they are coded (the zigzag). */
function zigzag(): Uint8Array {
  const z = new Uint8Array(64);
  let x = 0;
  let y = 0;
  for (let k = 0; k < 64; k++) {
    z[k] = y * 8 + x;
    if (((x + y) & 1) === 0) {
      if (x === 7) y++;
      else if (y === 0) x++;
      else {
        x++;
        y--;
      }
    } else if (y === 7) x++;
    else if (x === 0) y++;
    else {
      x--;
      y++;
    }
  }
  return z;
}

/**
 * One dimension of the inverse DCT over v[o], v[o+d], ... v[o+7d], in place:
 * x[n] = 1/2 sum C(k) X[k] cos((2n+1)k pi/16), C(0) = 1/sqrt 2. The even coefficients give the
 * same terms to x[n] and x[7-n] and the odd ones opposite terms, so 4 sums of each make all 8.
 */
function idct8(v: Float64Array, o: number, d: number, odd: Float64Array): void {
  const x0 = v[o];
  const x1 = v[o + d];
  const x2 = v[o + 2 * d];
  const x3 = v[o + 3 * d];
  const x4 = v[o + 4 * d];
  const x5 = v[o + 5 * d];
  const x6 = v[o + 6 * d];
  const x7 = v[o + 7 * d];
  // cos(k pi/16) for k = 2, 4, 6
  const c2 = 0.9238795325112867;
  const c4 = 0.7071067811865476;
  const c6 = 0.3826834323650898;
  const t0 = (x0 + x4) * c4;
  const t1 = (x0 - x4) * c4;
  const t2 = x2 * c2 + x6 * c6;
  const t3 = x2 * c6 - x6 * c2;
  for (let i = 0; i < 4; i++) {
    // odd[4i + j] = cos((2i+1)(2j+1) pi/16)
    const q = 4 * i;
    const e = i === 0 ? t0 + t2 : i === 1 ? t1 + t3 : i === 2 ? t1 - t3 : t0 - t2;
    const s = x1 * odd[q] + x3 * odd[q + 1] + x5 * odd[q + 2] + x7 * odd[q + 3];
    v[o + i * d] = (e + s) / 2;
    v[o + (7 - i) * d] = (e - s) / 2;
  }
}

/** cos((2i+1)(2j+1) pi/16) at 4i + j: what the odd coefficients contribute to x[i] and x[7-i]. */
function oddTerms(): Float64Array {
  const odd = new Float64Array(16);
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) odd[4 * i + j] = Math.cos(((2 * i + 1) * (2 * j + 1) * Math.PI) / 16);
  return odd;
}

/** Samples 0..255 of an 8x8 block of coefficients (natural order), written to out[at..at+64). */
function inverse(c: Float64Array, out: Uint8Array, at: number, odd: Float64Array): void {
  for (let col = 0; col < 8; col++) idct8(c, col, 8, odd);
  for (let row = 0; row < 8; row++) idct8(c, row * 8, 1, odd);
  for (let i = 0; i < 64; i++) {
    const s = c[i] + 128.5;
    out[at + i] = s < 0 ? 0 : s >= 255 ? 255 : s | 0;
  }
}

/** A sample rounded and kept within 0..255. */
function clamp(v: number): number {
  v += 0.5;
  return v < 0 ? 0 : v >= 255 ? 255 : v | 0;
}

/**
 * The top-left 8x8 pixels of a baseline JPEG held in a byte string, 0xRRGGBB row after row
 * (black where the image is smaller); null when it is not a JPEG this decoder reads.
 */
export function decodeJpeg(src: string): Uint32Array | null {
  const b = new Uint8Array(E.toArrayBuffer(src));
  const n = b.length;
  if (n < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  const quant = new Uint16Array(4 * 64);
  let quantSet = 0;
  const tables: (Huffman | null)[] = [null, null, null, null, null, null, null, null];
  const zz = zigzag();
  let width = 0;
  let height = 0;
  let count = 0;
  // Per component: identifier, sampling factors, quantisation table.
  const ids = new Uint8Array(4);
  const hs = new Uint8Array(4);
  const vs = new Uint8Array(4);
  const tq = new Uint8Array(4);
  let hmax = 1;
  let vmax = 1;
  // The first block of each component, as samples, once decoded.
  const samples = new Uint8Array(4 * 64);
  let decoded = 0;
  let transform = true;
  const coef = new Float64Array(64);
  const odd = oddTerms();
  const pred = new Int32Array(4);
  let p = 2;
  while (p + 1 < n) {
    if (b[p] !== 0xff) return null;
    const m = b[p + 1];
    p += 2;
    if (m === 0xff) {
      p--;
      continue;
    }
    if (m === 0xd9) break;
    if (m === 0x01 || (m >= 0xd0 && m <= 0xd8)) continue;
    if (p + 2 > n) return null;
    const seg = p + 2;
    const next = p + ((b[p] << 8) | b[p + 1]);
    if (next > n || next < seg) return null;
    if (m === 0xdb) {
      for (let q = seg; q < next; ) {
        const precision = b[q] >> 4;
        const id = b[q] & 3;
        q++;
        for (let k = 0; k < 64; k++) {
          quant[id * 64 + k] = precision ? (b[q + 2 * k] << 8) | b[q + 2 * k + 1] : b[q + k];
        }
        q += precision ? 128 : 64;
        quantSet |= 1 << id;
      }
    } else if (m === 0xc4) {
      for (let q = seg; q + 17 <= next; ) {
        const cls = b[q] >> 4;
        const id = b[q] & 3;
        let total = 0;
        for (let l = 0; l < 16; l++) total += b[q + 1 + l];
        if (cls > 1 || q + 17 + total > next) return null;
        tables[cls * 4 + id] = buildHuffman(b, q + 1, total);
        q += 17 + total;
      }
    } else if (m === 0xc0 || m === 0xc1) {
      if (b[seg] !== 8) return null;
      height = (b[seg + 1] << 8) | b[seg + 2];
      width = (b[seg + 3] << 8) | b[seg + 4];
      count = b[seg + 5];
      if ((count !== 1 && count !== 3) || seg + 6 + 3 * count > next) return null;
      for (let i = 0; i < count; i++) {
        const c = seg + 6 + 3 * i;
        ids[i] = b[c];
        hs[i] = b[c + 1] >> 4;
        vs[i] = b[c + 1] & 15;
        tq[i] = b[c + 2] & 3;
        if (hs[i] < 1 || vs[i] < 1) return null;
        if (hs[i] > hmax) hmax = hs[i];
        if (vs[i] > vmax) vmax = vs[i];
      }
    } else if (m >= 0xc2 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) {
      return null;
    } else if (m === 0xee) {
      // Adobe: transform 0 means the three components are R, G, B.
      if (next - seg >= 12 && b[seg] === 0x41 && b[seg + 1] === 0x64 && b[seg + 2] === 0x6f && b[seg + 3] === 0x62 && b[seg + 4] === 0x65) {
        transform = b[seg + 11] !== 0;
      }
    } else if (m === 0xda) {
      if (count === 0) return null;
      const ns = b[seg];
      const r: Bits = { b, p: next, acc: 0, n: 0 };
      for (let i = 0; i < 4; i++) pred[i] = 0;
      for (let s = 0; s < ns; s++) {
        const id = b[seg + 1 + 2 * s];
        let c = 0;
        while (c < count && ids[c] !== id) c++;
        if (c === count || !(quantSet & (1 << tq[c]))) return null;
        const dc = tables[b[seg + 2 + 2 * s] >> 4];
        const ac = tables[4 + (b[seg + 2 + 2 * s] & 3)];
        if (!dc || !ac) return null;
        // An interleaved scan codes h x v blocks of each component per MCU, a scan of one
        // component one block per MCU.
        const blocks = ns > 1 ? hs[c] * vs[c] : 1;
        for (let k = 0; k < blocks; k++) {
          const t = huffman(r, dc);
          if (t < 0 || t > 11) return null;
          pred[s] += t ? receive(r, t) : 0;
          const keep = k === 0;
          if (keep) {
            for (let i = 0; i < 64; i++) coef[i] = 0;
            coef[0] = pred[s] * quant[tq[c] * 64];
          }
          for (let i = 1; i < 64; ) {
            const rs = huffman(r, ac);
            if (rs < 0) return null;
            const size = rs & 15;
            if (size === 0) {
              if (rs !== 0xf0) break;
              i += 16;
              continue;
            }
            i += rs >> 4;
            const v = receive(r, size);
            if (i > 63) break;
            if (keep) coef[zz[i]] = v * quant[tq[c] * 64 + i];
            i++;
          }
          if (keep) {
            inverse(coef, samples, c * 64, odd);
            decoded |= 1 << c;
          }
        }
      }
      // Past the rest of the entropy-coded data: to the next marker that is not a restart.
      p = r.p;
      while (p + 1 < n && !(b[p] === 0xff && b[p + 1] !== 0 && (b[p + 1] < 0xd0 || b[p + 1] > 0xd7))) p++;
      continue;
    }
    p = next;
  }
  if (count === 0 || decoded !== (1 << count) - 1) return null;
  const out = new Uint32Array(JPEG_SIDE * JPEG_SIDE);
  for (let y = 0; y < JPEG_SIDE; y++) {
    for (let x = 0; x < JPEG_SIDE; x++) {
      if (x >= width || (height > 0 && y >= height)) continue;
      // Nearest sample of each component: a component of h/hmax resolution repeats its samples.
      const i0 = Math.floor((y * vs[0]) / vmax) * 8 + Math.floor((x * hs[0]) / hmax);
      const Y = samples[i0];
      if (count === 1) {
        out[y * JPEG_SIDE + x] = (Y << 16) | (Y << 8) | Y;
        continue;
      }
      const a = samples[64 + Math.floor((y * vs[1]) / vmax) * 8 + Math.floor((x * hs[1]) / hmax)];
      const c = samples[128 + Math.floor((y * vs[2]) / vmax) * 8 + Math.floor((x * hs[2]) / hmax)];
      let R = Y;
      let G = a;
      let B = c;
      if (transform) {
        R = clamp(Y + 1.402 * (c - 128));
        G = clamp(Y - 0.344136 * (a - 128) - 0.714136 * (c - 128));
        B = clamp(Y + 1.772 * (a - 128));
      }
      out[y * JPEG_SIDE + x] = (R << 16) | (G << 8) | B;
    }
  }
  return out;
}
