// UTF-8 text (held, as everywhere in Espruino, in 8-bit strings) folded into the fonts' code
// pages: each character becomes one 8-bit code of a page, and the text a few runs, one per change
// of page. ASCII is at its own code on every page, so it never starts a run of its own. The
// table of everything else is the Storage file font.map (written by build/fonts.mjs); a
// character it does not list, and each malformed UTF-8 sequence, becomes one '?'.
//
// Upper-casing uses the capital the table gives in the same page, so it covers accented,
// Latin Extended-A and Cyrillic letters, which Espruino's toUpperCase leaves alone. ß has no
// capital in the fonts and becomes "SS", as in Unicode's own upper-casing.

import { fwFile } from "../platform/slot";

/** A piece of text drawn with one page of a font; `x` is set when the line is measured. */
export interface TextRun {
  page: number;
  text: string;
  x: number;
}

const MAP_FILE = "font.map";
/** Bytes of one font.map entry: code point (2), page, code, code of the capital. */
const ENTRY_BYTES = 5;
/** Page value of entries that are at the same code on every page. */
const ANY_PAGE = 255;
/** Page of a run that so far holds only ASCII. */
const UNDECIDED = -1;
const UNKNOWN = "?";
const SHARP_S = 0xdf;
const ZERO_WIDTH_JOINER = 0x200d;

/** Stores run `index` (reusing the object there) and returns the number of runs. */
function putRun(runs: TextRun[], index: number, page: number, text: string): number {
  const run = runs[index];
  if (run) {
    run.page = page;
    run.text = text;
    run.x = 0;
  } else {
    runs.push({ page: page, text: text, x: 0 });
  }
  return index + 1;
}

/** Folds UTF-8 `text` into runs of code-page text, written over `runs` (which is trimmed to fit). */
export function foldText(text: string, upper: boolean, runs: TextRun[]): void {
  // Plain ASCII (every clock and most texts) is one run of itself.
  let i = 0;
  while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x7e) i++;
  if (i === text.length) {
    runs.splice(text ? putRun(runs, 0, 0, upper ? text.toUpperCase() : text) : 0);
    return;
  }
  const map = require("Storage").read(fwFile(MAP_FILE)) || "";
  const entries = map.length / ENTRY_BYTES;
  let count = 0;
  let page = UNDECIDED;
  let out = "";
  let skipNext = false;
  i = 0;
  while (i < text.length) {
    const lead = text.charCodeAt(i);
    // Bytes in the UTF-8 sequence the byte starts; 0 for a byte no valid sequence starts with.
    const length = lead < 0x80 ? 1 : lead < 0xc2 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf5 ? 4 : 0;
    let cp = length > 1 ? lead & (0xff >> (length + 1)) : lead;
    let read = 1;
    while (read < length && i + read < text.length && (text.charCodeAt(i + read) & 0xc0) === 0x80) {
      cp = (cp << 6) | (text.charCodeAt(i + read) & 0x3f);
      read++;
    }
    i += read;
    const malformed = length === 0 || read < length || (length === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
      (length === 4 && (cp < 0x10000 || cp > 0x10ffff));
    // Marks that belong to the character before them and are not drawn: combining accents,
    // zero-width spaces and joiners, variation selectors, emoji skin tones and tags, byte order
    // mark. A joiner makes the character after it part of the one before (emoji sequences).
    const attached = (cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2060 && cp <= 0x2064) ||
      (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0xfeff ||
      (cp >= 0x1f3fb && cp <= 0x1f3ff) || (cp >= 0xe0000 && cp <= 0xe007f);
    if (!malformed && ((skipNext && cp >= 0x80) || attached)) {
      skipNext = cp === ZERO_WIDTH_JOINER;
      continue;
    }
    skipNext = false;
    if (malformed) {
      out += UNKNOWN;
    } else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
      // Tabs and line breaks are gaps on a one-line display; other control codes are unknown.
      out += cp === 9 || cp === 10 || cp === 13 ? " " : UNKNOWN;
    } else if (cp < 0x7f) {
      out += String.fromCharCode(upper && cp >= 0x61 && cp <= 0x7a ? cp - 0x20 : cp);
    } else if (upper && cp === SHARP_S) {
      out += "SS";
    } else {
      // The font.map entry of cp: the first of its entries (binary search), then the one on the
      // page of the run if there is one.
      let lo = 0;
      let hi = entries - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const e = mid * ENTRY_BYTES;
        if (((map.charCodeAt(e) << 8) | map.charCodeAt(e + 1)) < cp) lo = mid + 1;
        else hi = mid - 1;
      }
      const first = lo * ENTRY_BYTES;
      let at = first;
      while (at < map.length && ((map.charCodeAt(at) << 8) | map.charCodeAt(at + 1)) === cp &&
        map.charCodeAt(at + 2) !== page && map.charCodeAt(at + 2) !== ANY_PAGE) at += ENTRY_BYTES;
      if (at >= map.length || ((map.charCodeAt(at) << 8) | map.charCodeAt(at + 1)) !== cp) at = first;
      if (at >= map.length || ((map.charCodeAt(at) << 8) | map.charCodeAt(at + 1)) !== cp) {
        out += UNKNOWN;
        continue;
      }
      const p = map.charCodeAt(at + 2);
      if (p !== ANY_PAGE && p !== page) {
        if (page !== UNDECIDED) {
          count = putRun(runs, count, page, out);
          out = "";
        }
        page = p;
      }
      out += map.charAt(at + (upper ? 4 : 3));
    }
  }
  if (out) count = putRun(runs, count, page === UNDECIDED ? 0 : page, out);
  runs.splice(count);
}
