// The two pixel fonts and the one way the firmware lays out and draws text with them. Glyphs
// live in Storage files (build/fonts.mjs writes them: per font and code page, the widths of codes
// 1-255 and then the bitmap Graphics.setFontCustom takes); a page's files are read when a text
// first needs them and kept, as strings mapped onto flash, so drawing reads nothing and
// allocates nothing. Every glyph's width includes the blank column after it.
import { foldText } from "./fold";
import type { TextRun } from "./fold";
import { fwFile } from "../platform/slot";

export type FontName = "small" | "large";

/** A laid-out text: what drawText draws, and how wide it is. */
export interface TextLine {
  /** Pixels from the first column of the first glyph to the last column of the last one. */
  width: number;
  font: FontName;
  runs: TextRun[];
}

interface FontInfo {
  /** Rows of the font's cell. */
  height: number;
  /** Row of the cell where capital letters start (accents of capitals may use the rows above). */
  capTop: number;
  capHeight: number;
  /** Index of its first page in the caches below. */
  firstSlot: number;
}

const FIRST_CHAR = 1;
const WIDTHS_LENGTH = 256 - FIRST_CHAR;
const PAGE_COUNT = 3;
const FONTS: { small: FontInfo; large: FontInfo } = {
  small: { height: 6, capTop: 0, capHeight: 5, firstSlot: 0 },
  large: { height: 8, capTop: 1, capHeight: 6, firstSlot: PAGE_COUNT },
};

/** Per font and page (slot = firstSlot + page): glyph widths by code, and the bitmap. */
const widthsOf: string[] = [];
const bitmapOf: string[] = [];

/** Reads a page's files unless they are held already; false when the fonts are not in Storage. */
function loadPage(font: FontName, page: number): boolean {
  const slot = FONTS[font].firstSlot + page;
  if (bitmapOf[slot]) return true;
  const name = fwFile("font." + font + "." + page);
  const Storage = require("Storage");
  const widths = Storage.read(name, 0, WIDTHS_LENGTH);
  const bitmap = Storage.read(name, WIDTHS_LENGTH);
  if (!widths || !bitmap) return false;
  widthsOf[slot] = widths;
  bitmapOf[slot] = bitmap;
  return true;
}

/** Lays `line` out again for another text (or font, or case), reusing its objects. */
export function relayoutText(line: TextLine, text: string, font: FontName, upper: boolean): void {
  line.font = font;
  line.width = 0;
  foldText(text, upper, line.runs);
  let x = 0;
  for (let r = 0; r < line.runs.length; r++) {
    const run = line.runs[r];
    if (!loadPage(font, run.page)) {
      line.runs.splice(0);
      return;
    }
    const widths = widthsOf[FONTS[font].firstSlot + run.page];
    run.x = x;
    for (let i = 0; i < run.text.length; i++) x += widths.charCodeAt(run.text.charCodeAt(i) - FIRST_CHAR);
  }
  // The blank column after the last glyph is spacing, not part of the text.
  line.width = x > 0 ? x - 1 : 0;
}

/** Folds, upper-cases (when `upper`), splits into runs and measures a UTF-8 text. */
export function layoutText(text: string, font: FontName, upper: boolean): TextLine {
  const line: TextLine = { width: 0, font: font, runs: [] };
  relayoutText(line, text, font, upper);
  return line;
}

/**
 * Draws a laid-out line in the current colour, its left edge at x and the top row of its
 * capital letters at y. Sets the font (and left/top alignment) for each run it draws.
 */
export function drawText(g: Graphics, line: TextLine, x: number, y: number): void {
  const info = FONTS[line.font];
  const top = y - info.capTop;
  g.setFontAlign(-1, -1, 0);
  for (let r = 0; r < line.runs.length; r++) {
    const run = line.runs[r];
    const slot = info.firstSlot + run.page;
    g.setFontCustom(bitmapOf[slot], FIRST_CHAR, widthsOf[slot], info.height);
    g.drawString(run.text, x + run.x, top);
  }
}

/** Rows of a capital letter (drawText's y is its top row). */
export function capHeight(font: FontName): number {
  return FONTS[font].capHeight;
}
