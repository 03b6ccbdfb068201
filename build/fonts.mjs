// Converts the pixel fonts of fonts/ (BDF) into the Storage files the firmware draws text with.
//
//   node build/fonts.mjs [dir]                        write the files into dir (default dist/fonts)
//   node build/fonts.mjs --subset <in.bdf> <out.bdf>  keep only the glyphs the code pages need
//
// Espruino's strings are 8-bit and a custom font addresses at most 256 codes, so the glyphs are
// split into code pages. Every page carries ASCII at its own codes, so plain text never changes
// page; the firmware turns UTF-8 into runs of 8-bit text, each drawn with its page.
//
// Files (the firmware's font.ts and fold.ts read them):
//   font.<font>.<page>  widths of codes FIRST_CHAR..255 (one byte each; 0 = no glyph), then the
//                       bitmap in Graphics.setFontCustom's layout: glyph after glyph, column after
//                       column, `height` bits a column, most significant bit first, no padding.
//   font.map            5-byte entries, sorted by code point then page: code point (2 bytes, big
//                       endian), page (ANY_PAGE: every page, at the same code), code in that page,
//                       code of its upper-case form in that page. ASCII is not listed.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Where the generated files go before build.mjs copies them into dist/storage. */
export const FONT_DIR = "dist/fonts";
export const MAP_FILE = "font.map";
export const FIRST_CHAR = 1;
export const ANY_PAGE = 255;
export const MAP_ENTRY_BYTES = 5;

/**
 * Source and spacing of each font (all glyphs get one blank column after their ink), and the
 * glyphs its source gets wrong: another glyph of the font, or rows drawn here. 5x8 draws Ё and Ї
 * without their dots; 4x6 draws Ń and Ň as a plain N.
 */
export const FONTS = {
  small: {
    source: "fonts/4x6.bdf",
    spaceWidth: 2,
    fixes: {
      0x143: ["..#.", "#.#.", "###.", "###.", "#.#.", "...."],
      0x147: [".#..", "#.#.", "###.", "###.", "#.#.", "...."],
    },
  },
  large: { source: "fonts/5x8.bdf", spaceWidth: 3, fixes: { 0x401: 0xcb, 0x407: 0xcf } },
};

export function pageFileName(font, page) {
  return "font." + font + "." + page;
}

// ---- code pages --------------------------------------------------------------------------------

function range(first, last) {
  const out = [];
  for (let cp = first; cp <= last; cp++) out.push(cp);
  return out;
}

/** Windows-1252 at 0x80-0x9F (0 where it has no character). */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];
/** Latin-1 letters of Central European alphabets, so such text stays on the Latin Extended-A page. */
const CENTRAL_EUROPEAN_LATIN1 = [..."ÁÂÄÇÉËÍÎÓÔÖÚÜÝßáâäçéëíîóôöúüý"].map((c) => c.codePointAt(0));
/**
 * Codes below 0x20 that Graphics.drawString draws as glyphs: not 0 (starts an inline image), 10
 * (breaks the line) nor 13 (documented to).
 */
const FREE_CONTROL_CODES = range(1, 31).filter((c) => c !== 10 && c !== 13);
/** Ukrainian letters and the punctuation Cyrillic text uses, after the Cyrillic block. */
const CYRILLIC_EXTRAS = [..."Ґґ«»„“”‘’‚–—…№€°•"].map((c) => c.codePointAt(0));

function page(placements) {
  const codes = new Array(256).fill(0);
  for (let c = 0x20; c < 0x7f; c++) codes[c] = c;
  for (const [first, cps] of placements) cps.forEach((cp, i) => { codes[first + i] = cp; });
  return codes;
}

function placeAt(codes, cps) {
  if (cps.length > codes.length) throw new Error("too many characters for the free codes");
  return cps.map((cp, i) => [codes[i], [cp]]);
}

/** CODE_PAGES[page][code] = the code point drawn at that code (0: none). */
export const CODE_PAGES = [
  // 0: Windows-1252 (ASCII, Latin-1, euro, typographic quotes and dashes)
  page([[0x80, CP1252_HIGH], [0xa0, range(0xa0, 0xff)]]),
  // 1: Latin Extended-A
  page([[0x80, range(0x100, 0x17f)], ...placeAt(FREE_CONTROL_CODES, CENTRAL_EUROPEAN_LATIN1)]),
  // 2: Cyrillic
  page([[0x80, range(0x400, 0x45f)], [0xe0, CYRILLIC_EXTRAS]]),
];

/** Characters drawn as another one (beyond what canonical decomposition finds). */
const ALIASES = {
  // Romanian comma-below letters: their cedilla twins
  0x218: 0x15e, 0x219: 0x15f, 0x21a: 0x162, 0x21b: 0x163,
  // capital sharp s: the font has none
  0x1e9e: 0xdf,
  // dashes, minus, primes, spaces
  0x2010: 0x2d, 0x2011: 0x2d, 0x2012: 0x2d, 0x2015: 0x2014, 0x2212: 0x2d, 0x2032: 0x27, 0x2033: 0x22,
  0x2000: 0x20, 0x2001: 0x20, 0x2002: 0x20, 0x2003: 0x20, 0x2004: 0x20, 0x2005: 0x20, 0x2006: 0x20,
  0x2007: 0x20, 0x2008: 0x20, 0x2009: 0x20, 0x200a: 0x20, 0x202f: 0x20, 0x205f: 0x20,
};
/** Blocks whose letters fold to the nearest letter the pages have (ǎ -> a, ǘ -> ü, ế -> ê). */
const DECOMPOSED_BLOCKS = [[0x180, 0x24f], [0x1e00, 0x1eff]];

/**
 * The nearest character `has` accepts: cp itself, else its canonical decomposition with as
 * many of its accents as `has` allows (ǘ: ü, then u). 0 when there is none.
 */
export function nearest(cp, has) {
  if (has(cp)) return cp;
  const parts = [...String.fromCodePoint(cp).normalize("NFD")];
  for (let keep = parts.length - 1; keep >= 1; keep--) {
    const composed = [...parts.slice(0, keep).join("").normalize("NFC")];
    if (composed.length === 1 && has(composed[0].codePointAt(0))) return composed[0].codePointAt(0);
  }
  return 0;
}

/** Pages (with their codes) that hold cp. */
function placesOf(cp) {
  const out = [];
  CODE_PAGES.forEach((codes, p) => {
    const code = codes.indexOf(cp);
    if (code > 0) out.push({ page: p, code });
  });
  return out;
}

const inAnyPage = (cp) => CODE_PAGES.some((codes) => codes.indexOf(cp) > 0);

/** The code of cp's upper-case form in the same page; cp's own code when it has no single one. */
function upperCode(cp, p, code) {
  const upper = [...String.fromCodePoint(cp).toUpperCase()];
  if (upper.length !== 1 || upper[0].codePointAt(0) === cp) return code;
  const u = upper[0].codePointAt(0);
  const at = CODE_PAGES[p].indexOf(u);
  if (at > 0) return at;
  if (inAnyPage(u)) throw new Error("U+" + hex(cp) + " and its capital are on different pages");
  return code;
}

function hex(cp) {
  return cp.toString(16).toUpperCase().padStart(4, "0");
}

/** Entries of font.map: [code point, page, code, upper code], sorted. */
export function foldEntries() {
  const entries = [];
  CODE_PAGES.forEach((codes, p) => {
    codes.forEach((cp, code) => {
      if (cp === 0 || (code >= 0x20 && code < 0x7f)) return;
      entries.push([cp, p, code, upperCode(cp, p, code)]);
    });
  });
  const aliases = Object.entries(ALIASES).map(([from, to]) => [+from, to]);
  for (const [first, last] of DECOMPOSED_BLOCKS) {
    for (let cp = first; cp <= last; cp++) {
      if (ALIASES[cp] || inAnyPage(cp)) continue;
      const to = nearest(cp, (c) => (c >= 0x20 && c < 0x7f) || inAnyPage(c));
      if (to) aliases.push([cp, to]);
    }
  }
  for (const [from, to] of aliases) {
    if (to >= 0x20 && to < 0x7f) {
      const upper = [...String.fromCodePoint(to).toUpperCase()][0].codePointAt(0);
      entries.push([from, ANY_PAGE, to, upper]);
      continue;
    }
    const places = placesOf(to);
    if (places.length === 0) throw new Error("alias U+" + hex(from) + " names a character no page has");
    for (const { page: p, code } of places) entries.push([from, p, code, upperCode(to, p, code)]);
  }
  entries.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (let i = 1; i < entries.length; i++) {
    if (entries[i][0] === entries[i - 1][0] && entries[i][1] === entries[i - 1][1]) {
      throw new Error("U+" + hex(entries[i][0]) + " is twice on page " + entries[i][1]);
    }
  }
  return entries;
}

function mapFile() {
  const entries = foldEntries();
  const out = Buffer.alloc(entries.length * MAP_ENTRY_BYTES);
  entries.forEach(([cp, p, code, upper], i) => {
    out.writeUInt16BE(cp, i * MAP_ENTRY_BYTES);
    out[i * MAP_ENTRY_BYTES + 2] = p;
    out[i * MAP_ENTRY_BYTES + 3] = code;
    out[i * MAP_ENTRY_BYTES + 4] = upper;
  });
  return out;
}

// ---- BDF ---------------------------------------------------------------------------------------

/** A BDF font: its properties and each glyph as rows of '#'/'.' in the font's cell. */
export function parseBdf(text) {
  const props = {};
  const glyphs = new Map();
  let glyph = null;
  let bitmap = null;
  for (const line of text.split(/\r?\n/)) {
    const words = line.trim().split(/\s+/);
    const key = words[0];
    if (bitmap) {
      if (key === "ENDCHAR") {
        glyph.rows = bitmap;
        glyphs.set(glyph.encoding, glyph);
        glyph = null;
        bitmap = null;
      } else {
        bitmap.push(parseInt(key, 16));
      }
    } else if (key === "STARTCHAR") {
      glyph = { encoding: -1, advance: 0, box: [0, 0, 0, 0], rows: null };
    } else if (glyph) {
      if (key === "ENCODING") glyph.encoding = +words[1];
      else if (key === "DWIDTH") glyph.advance = +words[1];
      else if (key === "BBX") glyph.box = words.slice(1, 5).map(Number);
      else if (key === "BITMAP") bitmap = [];
    } else if (words.length >= 2) {
      props[key] = words.slice(1).join(" ");
    }
  }
  const ascent = +props.FONT_ASCENT;
  const descent = +props.FONT_DESCENT;
  const capHeight = +props.CAP_HEIGHT;
  if (!(ascent > 0 && descent >= 0 && capHeight > 0)) throw new Error("BDF without FONT_ASCENT, FONT_DESCENT or CAP_HEIGHT");
  const height = ascent + descent;
  const cells = new Map();
  for (const [cp, g] of glyphs) {
    const [w, h, xo, yo] = g.box;
    const top = ascent - (h + yo);
    if (xo < 0 || top < 0 || xo + w > g.advance || top + h > height) throw new Error("glyph U+" + hex(cp) + " leaves its cell");
    const bits = Math.ceil(w / 8) * 8;
    const rows = [];
    for (let y = 0; y < height; y++) {
      let row = "";
      for (let x = 0; x < g.advance; x++) {
        const gy = y - top;
        const gx = x - xo;
        const on = gy >= 0 && gy < h && gx >= 0 && gx < w && ((g.rows[gy] >> (bits - 1 - gx)) & 1) === 1;
        row += on ? "#" : ".";
      }
      rows.push(row);
    }
    cells.set(cp, rows);
  }
  return { props, ascent, descent, height, capHeight, capTop: ascent - capHeight, glyphs: cells };
}

/** The BDF text with only the glyphs whose code points `keep` holds. */
export function subsetBdf(text, keep) {
  const lines = text.split(/\r?\n/);
  const head = [];
  const blocks = [];
  let block = null;
  for (const line of lines) {
    if (line.startsWith("STARTCHAR")) block = [line];
    else if (block) {
      block.push(line);
      if (line.startsWith("ENDCHAR")) {
        const enc = block.find((l) => l.startsWith("ENCODING"));
        if (enc && keep.has(+enc.split(/\s+/)[1])) blocks.push(block.join("\n"));
        block = null;
      }
    } else if (line.startsWith("ENDFONT")) break;
    else if (line.trim() !== "") head.push(line);
  }
  const header = head.join("\n")
    .replace(/^STARTFONT .*$/m, (line) => line + "\nCOMMENT Subset: the glyphs the code pages of build/fonts.mjs need.")
    .replace(/^CHARS \d+$/m, "CHARS " + blocks.length);
  return header + "\n" + blocks.join("\n") + "\nENDFONT\n";
}

/** Code points a font needs from its source: the pages' characters, or their nearest stand-ins. */
export function neededGlyphs(has) {
  const keep = new Set();
  for (const codes of CODE_PAGES) {
    for (const cp of codes) if (cp) keep.add(nearest(cp, has) || cp);
  }
  return keep;
}

// ---- pages of a font -----------------------------------------------------------------------------

/** Columns [first, last] that have ink in any of the rows sets given. */
function inkColumns(cells) {
  let first = Infinity;
  let last = -1;
  for (const rows of cells) {
    for (const row of rows) {
      for (let x = 0; x < row.length; x++) {
        if (row[x] === "#") {
          first = Math.min(first, x);
          last = Math.max(last, x);
        }
      }
    }
  }
  return last < 0 ? null : [first, last];
}

const isDigit = (cp) => cp >= 0x30 && cp <= 0x39;

/**
 * Each glyph of a page as columns of '#'/'.' strings (top row first): ink columns trimmed, one
 * blank column after. Digits share one window, so times do not jitter.
 */
function pageGlyphs(font, spaceWidth, codes) {
  const cellOf = (cp) => {
    const stand = nearest(cp, (c) => font.glyphs.has(c));
    if (!stand) throw new Error("no glyph for U+" + hex(cp) + " nor for a character like it");
    return font.glyphs.get(stand);
  };
  const digitWindow = inkColumns(range(0x30, 0x39).map(cellOf));
  return codes.map((cp, code) => {
    if (cp === 0 || code < FIRST_CHAR) return null;
    const rows = cellOf(cp);
    const window = isDigit(cp) ? digitWindow : inkColumns([rows]);
    const columns = [];
    if (window) {
      for (let x = window[0]; x <= window[1]; x++) columns.push(rows.map((r) => r[x]).join(""));
      columns.push(".".repeat(font.height));
    } else {
      for (let x = 0; x < spaceWidth; x++) columns.push(".".repeat(font.height));
    }
    return columns;
  });
}

function pageFile(glyphs, height) {
  const widths = Buffer.alloc(256 - FIRST_CHAR);
  const bits = [];
  glyphs.forEach((columns, code) => {
    if (!columns) return;
    widths[code - FIRST_CHAR] = columns.length;
    for (const col of columns) for (let y = 0; y < height; y++) bits.push(col[y] === "#" ? 1 : 0);
  });
  const bitmap = Buffer.alloc(Math.ceil(bits.length / 8));
  bits.forEach((b, i) => { if (b) bitmap[i >> 3] |= 0x80 >> (i & 7); });
  return Buffer.concat([widths, bitmap]);
}

function loadFont(name) {
  const font = parseBdf(fs.readFileSync(path.join(root, FONTS[name].source), "latin1"));
  for (const [cp, fix] of Object.entries(FONTS[name].fixes)) {
    const rows = typeof fix === "number" ? font.glyphs.get(fix) : fix;
    if (!rows || rows.length !== font.height) throw new Error(name + ": bad fix for U+" + hex(+cp));
    font.glyphs.set(+cp, rows);
  }
  return font;
}

/** Sizes the firmware relies on: font height, cap row, and advances of digits, colon, space. */
export function fontMetrics(name) {
  const font = loadFont(name);
  const glyphs = pageGlyphs(font, FONTS[name].spaceWidth, CODE_PAGES[0]);
  return {
    height: font.height,
    capTop: font.capTop,
    capHeight: font.capHeight,
    digitWidth: glyphs[0x30].length,
    colonWidth: glyphs[0x3a].length,
    spaceWidth: glyphs[0x20].length,
  };
}

/** Every generated file: Storage name -> contents. */
export function buildFontFiles() {
  const files = { [MAP_FILE]: mapFile() };
  for (const name of Object.keys(FONTS)) {
    const font = loadFont(name);
    CODE_PAGES.forEach((codes, p) => {
      files[pageFileName(name, p)] = pageFile(pageGlyphs(font, FONTS[name].spaceWidth, codes), font.height);
    });
  }
  return files;
}

/** Storage name -> generated file, for build/storage-files.mjs. */
export const FONT_FILES = Object.fromEntries(
  [MAP_FILE, ...Object.keys(FONTS).flatMap((name) => CODE_PAGES.map((_, p) => pageFileName(name, p)))]
    .map((name) => [name, FONT_DIR + "/" + name]),
);

/** Writes the files into dir (default FONT_DIR); returns their names. */
export function writeFontFiles(dir) {
  const out = dir || path.join(root, FONT_DIR);
  fs.mkdirSync(out, { recursive: true });
  const files = buildFontFiles();
  for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(out, name), data);
  return Object.keys(files);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === "--subset") {
    const text = fs.readFileSync(args[1], "latin1");
    const font = parseBdf(text);
    fs.writeFileSync(args[2], subsetBdf(text, neededGlyphs((c) => font.glyphs.has(c))), "latin1");
  } else {
    for (const name of writeFontFiles(args[0])) console.log(name);
  }
}
