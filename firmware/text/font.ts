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

const FIRST_CHAR = 1;
const WIDTHS_LENGTH = 256 - FIRST_CHAR;
/**
 * The fonts' geometry, as constants rather than a table held in memory: rows of the cell, the row
 * where capital letters start (accents of capitals may use the rows above), rows of a capital.
 */
const SMALL_ROWS = 6;
const SMALL_CAP_ROWS = 5;
const LARGE_ROWS = 8;
const LARGE_CAP_TOP = 1;
const LARGE_CAP_ROWS = 6;
/** Code pages per font: the large font's pages follow the small one's in the caches below. */
const PAGE_COUNT = 3;

/**
 * Per font and page (slot = page, plus PAGE_COUNT for the large font): the glyph widths by code at
 * 2 * slot and the bitmap at 2 * slot + 1; one array rather than two, one variable less.
 */
const fontFiles: string[] = [];

/**
 * Folds, upper-cases (when `upper`), splits into runs and measures a UTF-8 text: into a new line,
 * or into `line` (reusing its objects) to lay it out again for another text, font or case.
 */
export function layoutText(text: string, font: FontName, upper: boolean, line?: TextLine): TextLine {
  if (!line) line = { width: 0, font: font, runs: [] };
  line.font = font;
  line.width = 0;
  foldText(text, upper, line.runs);
  let x = 0;
  for (let r = 0; r < line.runs.length; r++) {
    const run = line.runs[r];
    const slot = (font === "large" ? PAGE_COUNT : 0) + run.page;
    if (!fontFiles[2 * slot + 1]) {
      // The page's files, read the first time a text needs them and held from then on.
      const name = fwFile("font." + font + "." + run.page);
      const Storage = require("Storage");
      const w = Storage.read(name, 0, WIDTHS_LENGTH);
      const bitmap = Storage.read(name, WIDTHS_LENGTH);
      if (!w || !bitmap) {
        // The fonts are not in Storage: nothing to draw.
        line.runs.splice(0);
        return line;
      }
      fontFiles[2 * slot] = w;
      fontFiles[2 * slot + 1] = bitmap;
    }
    const widths = fontFiles[2 * slot];
    run.x = x;
    for (let i = 0; i < run.text.length; i++) x += widths.charCodeAt(run.text.charCodeAt(i) - FIRST_CHAR);
  }
  // The blank column after the last glyph is spacing, not part of the text.
  line.width = x > 0 ? x - 1 : 0;
  return line;
}

/**
 * Draws a laid-out line in the current colour, its left edge at x and the top row of its
 * capital letters at y. Sets the font (and left/top alignment) for each run it draws.
 */
export function drawText(g: Graphics, line: TextLine, x: number, y: number): void {
  const large = line.font === "large";
  const top = large ? y - LARGE_CAP_TOP : y;
  g.setFontAlign(-1, -1, 0);
  for (let r = 0; r < line.runs.length; r++) {
    const run = line.runs[r];
    const slot = (large ? PAGE_COUNT : 0) + run.page;
    g.setFontCustom(fontFiles[2 * slot + 1], FIRST_CHAR, fontFiles[2 * slot], large ? LARGE_ROWS : SMALL_ROWS);
    g.drawString(run.text, x + run.x, top);
  }
}

/** Rows of a capital letter (drawText's y is its top row). */
export function capHeight(font: FontName): number {
  return font === "large" ? LARGE_CAP_ROWS : SMALL_CAP_ROWS;
}
