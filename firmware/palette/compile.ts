// A palette compiled once into its 16 entries (logical 0xRRGGBB), from colour stops: a list of
// colours spread evenly, or [pos, colour] pairs (pos 0-100, sorted). Entry i sits at i/15 of the
// ramp; before the first stop and after the last the colour is flat, and two stops at one
// position make a hard edge there.

/** Entries of a palette. */
export const ENTRIES = 16;

/** The colour a fraction `k` (0..1) of the way from `a` to `b`, per channel, rounded. */
export function mix(a: number, b: number, k: number): number {
  let out = 0;
  for (let shift = 16; shift >= 0; shift -= 8) {
    const ca = (a >> shift) & 255;
    const cb = (b >> shift) & 255;
    out |= Math.round(ca + (cb - ca) * k) << shift;
  }
  return out;
}

/** The 16 entries of sorted stops [[pos, colour], ...] (at least one). */
export function entriesFromStops(stops: number[][]): Uint32Array {
  const out = new Uint32Array(ENTRIES);
  const last = stops.length - 1;
  let k = 0;
  for (let i = 0; i < ENTRIES; i++) {
    const at = (i * 100) / (ENTRIES - 1);
    while (k < last && stops[k + 1][0] <= at) k++;
    const s = stops[k];
    if (at <= s[0] || k === last) out[i] = s[1];
    else {
      const n = stops[k + 1];
      out[i] = mix(s[1], n[1], (at - s[0]) / (n[0] - s[0]));
    }
    // Before the first stop: flat at its colour.
    if (at < stops[0][0]) out[i] = stops[0][1];
  }
  return out;
}

/** The 16 entries of colours spread evenly over the ramp (at least one). */
export function entriesFromColors(colors: number[]): Uint32Array {
  return entriesFromStops(spreadStops(colors));
}

/**
 * Stops written as text, one per word or line: `RRGGBB` or `RRGGBB@pos` (a leading `#` allowed,
 * blank lines skipped). 1-16 stops, positions all or none; sorted by position. Null when the text
 * is not such a list (a palette file that does not read is refused, not guessed at).
 */
export function parseStops(text: string): number[][] | null {
  const words = text.split(/\s+/);
  const colors: number[] = [];
  const stops: number[][] = [];
  let placed = 0;
  for (let i = 0; i < words.length; i++) {
    let w = words[i];
    if (!w) continue;
    if (w.charAt(0) === "#") w = w.substr(1);
    const at = w.indexOf("@");
    const hex = at < 0 ? w : w.substr(0, at);
    if (hex.length !== 6 || !/^[0-9A-Fa-f]+$/.test(hex)) return null;
    const color = parseInt(hex, 16);
    let pos = 0;
    if (at >= 0) {
      const p = w.substr(at + 1);
      if (!p || !/^[0-9]+$/.test(p) || p.length > 3) return null;
      pos = parseInt(p, 10);
      if (pos > 100) return null;
      placed++;
    }
    colors.push(color);
    stops.push([pos, color]);
  }
  const n = colors.length;
  if (n === 0 || n > ENTRIES || (placed && placed !== n)) return null;
  if (!placed) return spreadStops(colors);
  return sortStops(stops);
}

/**
 * [pos, colour] stops sorted by position, in place; stable (an insertion sort of at most 16), so
 * stops at one position keep their order and make a hard edge.
 */
export function sortStops(stops: number[][]): number[][] {
  for (let i = 1; i < stops.length; i++) {
    const s = stops[i];
    let j = i - 1;
    while (j >= 0 && stops[j][0] > s[0]) {
      stops[j + 1] = stops[j];
      j--;
    }
    stops[j + 1] = s;
  }
  return stops;
}

/** Colours spread evenly over the ramp, as stops. */
export function spreadStops(colors: number[]): number[][] {
  const n = colors.length;
  const stops: number[][] = [];
  for (let i = 0; i < n; i++) stops.push([n > 1 ? (i * 100) / (n - 1) : 0, colors[i]]);
  return stops;
}
