// Colours at the API boundary. Every colour the API accepts goes through parseColor, so settings,
// payloads, palettes and indicators agree on what a colour is; inside the firmware a colour is a
// packed 0xRRGGBB integer.
import { isInteger } from "../core/number";

const WHITE = 0xFFFFFF;

/** What a malformed colour is told where one key alone takes it (settings, indicators, moodlight). */
export const COLOR_MESSAGE = 'must be a color ("#RGB", "#RRGGBB", [r,g,b], ["HSV",h,s,v] or a packed integer)';

function clamp(n: number, lo: number, hi: number): number {
  return n < lo ? lo : n > hi ? hi : n;
}

/** Hue 0-359 degrees, saturation and value 0-100 percent, to packed RGB. */
export function hsvToRgb(h: number, s: number, v: number): number {
  const value = v / 100;
  const chroma = value * s / 100;
  const sector = h / 60;
  const x = chroma * (1 - Math.abs((sector % 2) - 1));
  const m = value - chroma;
  let r = 0;
  let g = 0;
  let b = 0;
  if (sector < 1) { r = chroma; g = x; }
  else if (sector < 2) { r = x; g = chroma; }
  else if (sector < 3) { g = chroma; b = x; }
  else if (sector < 4) { g = x; b = chroma; }
  else if (sector < 5) { r = x; b = chroma; }
  else { r = chroma; b = x; }
  return (Math.round((r + m) * 255) << 16) | (Math.round((g + m) * 255) << 8) | Math.round((b + m) * 255);
}

function parseHex(s: string): number {
  const digits = s.charAt(0) === "#" ? s.substr(1) : s;
  if ((digits.length !== 6 && digits.length !== 3) || !/^[0-9A-Fa-f]+$/.test(digits)) return -1;
  const n = parseInt(digits, 16);
  if (digits.length === 6) return n;
  // Shorthand: each digit doubled, F80 is FF8800.
  return ((n >> 8) * 0x110000) | (((n >> 4) & 15) * 0x1100) | ((n & 15) * 0x11);
}

function parseArray(a: unknown[]): number {
  // The tag is case-sensitive: ["hsv", ...] is an RGB array with a bad first channel.
  const hsv = a[0] === "HSV";
  const first = hsv ? 1 : 0;
  if (a.length < first + 3) return -1;
  for (let i = first; i < first + 3; i++) if (!isInteger(a[i])) return -1;
  const p = a[first] as number;
  const q = a[first + 1] as number;
  const r = a[first + 2] as number;
  if (hsv) return hsvToRgb(((p % 360) + 360) % 360, clamp(q, 0, 100), clamp(r, 0, 100));
  return (clamp(p, 0, 255) << 16) | (clamp(q, 0, 255) << 8) | clamp(r, 0, 255);
}

/**
 * Any colour form of the API as packed 0xRRGGBB, or -1 when `v` is not a colour: "RRGGBB" or
 * "RGB" with or without "#", [r,g,b] (integers, clamped to 0-255), ["HSV",h,s,v] (integers; h
 * wrapped into 0-359, s and v clamped to 0-100), or a packed integer 0-16777215. Null is not a
 * colour here; nullable keys handle it before asking.
 */
export function parseColor(v: unknown): number {
  if (typeof v === "string") return parseHex(v);
  if (typeof v === "number") return isInteger(v) && v >= 0 && v <= WHITE ? v : -1;
  if (Array.isArray(v)) return parseArray(v);
  return -1;
}

/** Packed 0xRRGGBB as the API writes it: "#RRGGBB", upper case. */
export function formatColor(n: number): string {
  return "#" + ((n & WHITE) | 0x1000000).toString(16).toUpperCase().substr(1);
}
