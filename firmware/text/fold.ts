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

/** Bytes in the UTF-8 sequence a byte starts; 0 for a byte no valid sequence starts with. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead < 0xc2) return 0;
  if (lead < 0xe0) return 2;
  if (lead < 0xf0) return 3;
  return lead < 0xf5 ? 4 : 0;
}

/**
 * Marks that belong to the character before them and are not drawn: combining accents,
 * zero-width spaces and joiners, variation selectors, emoji skin tones and tags, byte order mark.
 */
function isAttached(cp: number): boolean {
  return (cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2060 && cp <= 0x2064) ||
    (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0xfeff ||
    (cp >= 0x1f3fb && cp <= 0x1f3ff) || (cp >= 0xe0000 && cp <= 0xe007f);
}

/** Offset of the font.map entry for cp, on `page` if it is there, else on its first page; -1 if none. */
function findEntry(map: string, cp: number, page: number): number {
  let lo = 0;
  let hi = map.length / ENTRY_BYTES - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = mid * ENTRY_BYTES;
    if (((map.charCodeAt(at) << 8) | map.charCodeAt(at + 1)) < cp) lo = mid + 1;
    else hi = mid - 1;
  }
  const first = lo * ENTRY_BYTES;
  for (let at = first; at < map.length; at += ENTRY_BYTES) {
    if (((map.charCodeAt(at) << 8) | map.charCodeAt(at + 1)) !== cp) break;
    const p = map.charCodeAt(at + 2);
    if (p === page || p === ANY_PAGE) return at;
  }
  return first < map.length && ((map.charCodeAt(first) << 8) | map.charCodeAt(first + 1)) === cp ? first : -1;
}

function isPlainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

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
  if (isPlainAscii(text)) {
    runs.splice(text ? putRun(runs, 0, 0, upper ? text.toUpperCase() : text) : 0);
    return;
  }
  const map = require("Storage").read(fwFile(MAP_FILE)) || "";
  let count = 0;
  let page = UNDECIDED;
  let out = "";
  let skipNext = false;
  let i = 0;
  while (i < text.length) {
    const lead = text.charCodeAt(i);
    const length = sequenceLength(lead);
    let cp = length > 1 ? lead & (0xff >> (length + 1)) : lead;
    let read = 1;
    while (read < length && i + read < text.length && (text.charCodeAt(i + read) & 0xc0) === 0x80) {
      cp = (cp << 6) | (text.charCodeAt(i + read) & 0x3f);
      read++;
    }
    i += read;
    const malformed = length === 0 || read < length || (length === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
      (length === 4 && (cp < 0x10000 || cp > 0x10ffff));
    // A joiner makes the character after it part of the one before (emoji sequences).
    if (!malformed && ((skipNext && cp >= 0x80) || isAttached(cp))) {
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
      const at = findEntry(map, cp, page);
      if (at < 0) {
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
