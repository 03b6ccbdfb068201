// Deterministic pseudo-randomness for effects and overlays: a frame is a function of time, so
// "random" placements are hashes of (time step, position) rather than draws from Math.random.
// Shifts and xors only (Espruino has no Math.imul).

/** A well-mixed 32-bit value of integer `n` (any sign), seeded by `seed`. */
export function hash(n: number, seed: number): number {
  let x = (n ^ seed ^ 0x9e3779b9) | 0;
  if (!x) x = 0x2545f491;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  x ^= x >>> 11;
  x ^= x << 7;
  x ^= x >>> 15;
  return x >>> 0;
}

/** hash() reduced to 0 .. m-1. */
export function pick(n: number, seed: number, m: number): number {
  return hash(n, seed) % m;
}
