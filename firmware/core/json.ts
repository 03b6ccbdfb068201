// JSON for 8-bit strings. On the device a string is a sequence of bytes and UTF-8 text is kept
// as its bytes. Espruino's JSON.stringify writes every byte above 127 as its own \u00XX escape,
// and its JSON.parse keeps only the low byte of a \uXXXX escape, so both directions are mended
// here. Where the escapes do not occur (nearly always) the builtins run untouched.
import { findText } from "./text";

/** Number of backslashes immediately before position i. */
function backslashesBefore(s: string, i: number): number {
  let n = 0;
  while (i - n - 1 >= 0 && s.charAt(i - n - 1) === "\\") n++;
  return n;
}

/** JSON text whose non-ASCII text is raw UTF-8 bytes. */
export function toJson(value: unknown): string {
  const s = JSON.stringify(value);
  if (s === undefined) return "null";
  let at = findText(s, "\\u00");
  if (at < 0) return s;
  let out = "";
  let from = 0;
  while (at >= 0) {
    const code = parseInt(s.substr(at + 4, 2), 16);
    if (code >= 0x80 && backslashesBefore(s, at) % 2 === 0) {
      out += s.substring(from, at) + String.fromCharCode(code);
      from = at + 6;
    }
    at = findText(s, "\\u00", at + 1);
  }
  return out + s.substr(from);
}

/** UTF-8 bytes of one code point, as a byte string. */
export function utf8Bytes(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  if (cp < 0x800) return String.fromCharCode(0xC0 | (cp >> 6), 0x80 | (cp & 63));
  if (cp < 0x10000) {
    return String.fromCharCode(0xE0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return String.fromCharCode(0xF0 | (cp >> 18), 0x80 | ((cp >> 12) & 63),
    0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
}

/** Rewrites \uXXXX escapes above 0x7F as raw UTF-8 bytes (surrogate pairs joined). */
function escapesToUtf8(text: string): string {
  let at = findText(text, "\\u");
  if (at < 0) return text;
  let out = "";
  let from = 0;
  while (at >= 0) {
    const hex = text.substr(at + 2, 4);
    let cp = hex.length === 4 && /^[0-9A-Fa-f]+$/.test(hex) ? parseInt(hex, 16) : -1;
    let len = 6;
    if (cp >= 0x80 && backslashesBefore(text, at) % 2 === 0) {
      if (cp >= 0xD800 && cp < 0xDC00 && text.substr(at + 6, 2) === "\\u") {
        const lo = parseInt(text.substr(at + 8, 4), 16);
        if (lo >= 0xDC00 && lo < 0xE000) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          len = 12;
        }
      }
      out += text.substring(from, at) + utf8Bytes(cp);
      from = at + len;
    }
    at = findText(text, "\\u", from > at + 2 ? from : at + 2);
  }
  return out + text.substr(from);
}

/** Parsed value, or undefined when the text is not JSON. */
export function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(escapesToUtf8(text)) };
  } catch (e) {
    return undefined;
  }
}
