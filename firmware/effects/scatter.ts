// Random placements for the effects: noise.ts's hash() is made of shifts and xors, so its value
// is a linear function of the bits of its input, and places drawn from neighbouring numbers (or
// from one number with neighbouring seeds) line up in visible lattices. A multiplication's carries
// are not linear: two multiply-and-fold rounds after the hash spread them out.
import { hash } from "./noise";

/** A well-spread integer 0 .. m-1 of integer `n`, seeded by `seed`. */
export function scatter(n: number, seed: number, m: number): number {
  let x = hash(n, seed);
  // x times an odd constant modulo 2^32 (Espruino has no Math.imul), in two halves exact in doubles.
  x = ((x & 0xffff) * 0x2c1b3c6d + ((((x >>> 16) * 0x2c1b3c6d) & 0xffff) << 16)) | 0;
  x ^= x >>> 15;
  x = ((x & 0xffff) * 0x297a2d39 + ((((x >>> 16) * 0x297a2d39) & 0xffff) << 16)) | 0;
  x ^= x >>> 13;
  // By its high bits, the best mixed.
  return Math.floor(((x >>> 0) / 4294967296) * m);
}
