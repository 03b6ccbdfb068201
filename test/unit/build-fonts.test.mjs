// build/fonts.mjs: the BDF reader, the code pages, and the Storage files it writes (names,
// sizes, widths, bitmap layout, font.map).
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import {
  ANY_PAGE, CODE_PAGES, FIRST_CHAR, FONTS, FONT_FILES, MAP_ENTRY_BYTES, MAP_FILE, buildFontFiles, fontMetrics,
  foldEntries, neededGlyphs, pageFileName, parseBdf, subsetBdf,
} from "../../build/fonts.mjs";
import { STORAGE_FILES } from "../../build/storage-files.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const files = buildFontFiles();
const cp = (c) => c.codePointAt(0);

const SAMPLE = `STARTFONT 2.1
FONT sample
FONT_ASCENT 3
FONT_DESCENT 1
CAP_HEIGHT 3
CHARS 2
STARTCHAR A
ENCODING 65
DWIDTH 4 0
BBX 3 3 0 0
BITMAP
40
A0
E0
ENDCHAR
STARTCHAR j
ENCODING 106
DWIDTH 4 0
BBX 2 3 1 -1
BITMAP
40
40
80
ENDCHAR
ENDFONT
`;

test("parseBdf places each glyph in the font's cell by its box", () => {
  const font = parseBdf(SAMPLE);
  assert.equal([font.height, font.capTop, font.capHeight], [4, 0, 3]);
  assert.equal(font.glyphs.get(65), [".#..", "#.#.", "###.", "...."]);
  assert.equal(font.glyphs.get(106), ["....", "..#.", "..#.", ".#.."]);
});

test("subsetBdf keeps the glyphs asked for and counts them", () => {
  const out = subsetBdf(SAMPLE, new Set([106]));
  assert.match(out, /^CHARS 1$/m);
  assert.not.match(out, /ENCODING 65/);
  assert.equal([...parseBdf(out).glyphs.keys()], [106]);
});

test("the committed fonts hold every glyph the pages need, and come from the public-domain misc-fixed", () => {
  for (const [name, { source }] of Object.entries(FONTS)) {
    const text = fs.readFileSync(path.join(root, source), "latin1");
    assert.match(text, /COPYRIGHT "Public domain font\./, name);
    const font = parseBdf(text);
    const has = (c) => font.glyphs.has(c);
    for (const c of neededGlyphs(has)) assert.ok(has(c), name + " lacks U+" + c.toString(16));
  }
});

test("code pages: ASCII everywhere; Windows-1252, Latin Extended-A, Cyrillic", () => {
  assert.is(CODE_PAGES.length, 3);
  for (const codes of CODE_PAGES) {
    for (let c = 0x20; c < 0x7f; c++) assert.is(codes[c], c);
    for (const c of [0, 10, 13, 0x7f]) assert.is(codes[c], 0, "code " + c + " is never drawn");
  }
  const [cp1252, latinA, cyrillic] = CODE_PAGES;
  assert.equal([cp1252[0x80], cp1252[0x81], cp1252[0x9f], cp1252[0xa0], cp1252[0xe9], cp1252[0xff]],
    [0x20ac, 0, 0x178, 0xa0, 0xe9, 0xff]);
  assert.equal([latinA[0x80], latinA[0xff], latinA[1], latinA[9], latinA[11], latinA[31]],
    [0x100, 0x17f, cp("Á"), cp("Ó"), cp("Ô"), cp("ý")]);
  assert.equal([cyrillic[0x80], cyrillic[0x96], cyrillic[0xdf], cyrillic[0xe0], cyrillic[0xee]],
    [0x400, cp("Ж"), 0x45f, cp("Ґ"), cp("€")]);
});

test("file names: the map and one file per font and page, all within Storage's 28 characters", () => {
  assert.equal(Object.keys(files).sort(), [
    "font.large.0", "font.large.1", "font.large.2", "font.map", "font.small.0", "font.small.1", "font.small.2",
  ]);
  assert.equal(Object.keys(FONT_FILES).sort(), Object.keys(files).sort());
  for (const name of Object.keys(files)) {
    assert.ok(name.length <= 28, name);
    assert.is(STORAGE_FILES[name], "dist/fonts/" + name, name + " goes into Storage");
  }
});

test("page files: 255 widths, then the bitmap, `height` bits a column", () => {
  for (const name of Object.keys(FONTS)) {
    const { height } = fontMetrics(name);
    CODE_PAGES.forEach((codes, p) => {
      const data = files[pageFileName(name, p)];
      const widths = data.subarray(0, 256 - FIRST_CHAR);
      const columns = widths.reduce((a, w) => a + w, 0);
      assert.is(data.length, 256 - FIRST_CHAR + Math.ceil((columns * height) / 8), pageFileName(name, p));
      codes.forEach((c, code) => {
        if (code >= FIRST_CHAR) assert.is(widths[code - FIRST_CHAR] > 0, c !== 0, name + " page " + p + " code " + code);
      });
    });
  }
});

/** The columns of one glyph, top row first, as '#'/'.' strings. */
function glyph(name, p, code) {
  const data = files[pageFileName(name, p)];
  const { height } = fontMetrics(name);
  let bit = 0;
  for (let c = FIRST_CHAR; c < code; c++) bit += data[c - FIRST_CHAR] * height;
  const cols = [];
  for (let x = 0; x < data[code - FIRST_CHAR]; x++) {
    let col = "";
    for (let y = 0; y < height; y++, bit++) col += (data[255 + (bit >> 3)] >> (7 - (bit & 7))) & 1 ? "#" : ".";
    cols.push(col);
  }
  return cols;
}

test("glyph bitmaps: column-major, most significant bit first, one blank column after the ink", () => {
  // small '1':  .#. / ##. / .#. / .#. / ###  and a descender row
  assert.equal(glyph("small", 0, 0x31), [".#..#.", "#####.", "....#.", "......"]);
  assert.equal(glyph("small", 0, 0x3a), [".#..#.", "......"]);
  assert.equal(glyph("large", 0, 0x3a), ["..##.##.", "..##.##.", "........"]);
});

test("a glyph the source lacks is drawn as its nearest letter (U+0400 as Е)", () => {
  assert.equal(glyph("small", 2, 0x80), glyph("small", 2, 0x95));
  assert.equal(glyph("large", 2, 0x80), glyph("large", 2, 0x95));
});

test("glyphs the sources get wrong are replaced: large Ё and Ї get their dots, small Ń and Ň their accents", () => {
  assert.equal(glyph("large", 2, 0x81), glyph("large", 0, 0xcb), "Ё as Ë");
  assert.equal(glyph("large", 2, 0x87), glyph("large", 0, 0xcf), "Ї as Ï");
  assert.equal(glyph("small", 1, 0xc3), [".####.", "..##..", "#####.", "......"], "Ń");
  assert.equal(glyph("small", 1, 0xc7), [".####.", "#.##..", ".####.", "......"], "Ň");
  assert.not.equal(glyph("small", 1, 0xc3), glyph("small", 0, 0x4e), "Ń is not N");
  assert.not.equal(glyph("small", 1, 0xc7), glyph("small", 1, 0xc3), "Ň is not Ń");
});

test("metrics the firmware relies on", () => {
  assert.equal(fontMetrics("small"), { height: 6, capTop: 0, capHeight: 5, digitWidth: 4, colonWidth: 2, spaceWidth: 2 });
  assert.equal(fontMetrics("large"), { height: 8, capTop: 1, capHeight: 6, digitWidth: 5, colonWidth: 3, spaceWidth: 3 });
});

test("font.map: sorted 5-byte entries matching the pages, capitals on the same page", () => {
  const map = files[MAP_FILE];
  assert.is(map.length % MAP_ENTRY_BYTES, 0);
  const entries = [];
  for (let at = 0; at < map.length; at += MAP_ENTRY_BYTES) entries.push([map.readUInt16BE(at), map[at + 2], map[at + 3], map[at + 4]]);
  assert.equal(entries, foldEntries());
  for (let i = 1; i < entries.length; i++) {
    const [a, b] = [entries[i - 1], entries[i]];
    assert.ok(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]), "sorted at " + i);
  }
  for (const [c, p, code] of entries) {
    if (p !== ANY_PAGE && CODE_PAGES[p][code] === c) continue;
    assert.ok(p === ANY_PAGE ? code < 0x7f : CODE_PAGES[p][code] !== 0, "U+" + c.toString(16) + " folds to a drawn code");
  }
  const find = (c) => entries.filter((e) => e[0] === c).map((e) => e.slice(1));
  assert.equal(find(cp("é")), [[0, 0xe9, 0xc9], [1, 22, 5]]);
  assert.equal(find(cp("ж")), [[2, 0xb6, 0x96]]);
  assert.equal(find(cp("ÿ")), [[0, 0xff, 0x9f]]);
  assert.equal(find(cp("ß")), [[0, 0xdf, 0xdf], [1, 17, 17]], "its capital SS is the firmware's to write");
  assert.equal(find(cp("ǎ")), [[ANY_PAGE, 0x61, 0x41]]);
  assert.equal(find(cp("ș")), [[1, 0xdf, 0xde]]);
  assert.equal(find(cp("A")), [], "ASCII is not listed");
  assert.equal(find(0x4e00), [], "CJK is not listed");
});

test.run();
