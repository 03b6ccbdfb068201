// UTF-8 folded into the fonts' code pages (firmware/text/fold.ts) against the font.map that
// build/fonts.mjs writes: which page and code each character gets, '?' for the rest, runs, and
// upper-casing.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { codes, fontFiles, serveStorage, storageOf, utf8 } from "./text-support";
import { foldText } from "../../firmware/text/fold";
import type { TextRun } from "../../firmware/text/fold";

let restore = () => {};
test.before(() => {
  restore = serveStorage(storageOf(fontFiles()));
});
test.after(() => restore());

/** Runs as [page, char codes] pairs. */
function fold(s: string, upper = false): [number, number[]][] {
  const runs: TextRun[] = [];
  foldText(utf8(s), upper, runs);
  return runs.map((r) => [r.page, codes(r.text)] as [number, number[]]);
}

/** The single run's text, as char codes. */
function one(s: string, upper = false): number[] {
  const runs = fold(s, upper);
  assert.is(runs.length, 1, JSON.stringify(s) + " gives one run");
  return runs[0][1];
}

const Q = 0x3f;

test("ASCII stays as it is, in one run of page 0", () => {
  assert.equal(fold("Hello, World! 12:34"), [[0, codes("Hello, World! 12:34")]]);
  assert.equal(fold(""), []);
});

test("Latin-1 letters land at their Latin-1 codes on page 0", () => {
  assert.equal(fold("é"), [[0, [0xe9]]]);
  assert.equal(fold("Ä"), [[0, [0xc4]]]);
  assert.equal(fold("ß"), [[0, [0xdf]]]);
  assert.equal(fold("°"), [[0, [0xb0]]]);
});

test("the euro sign and the typographic signs of Windows-1252 are on page 0", () => {
  assert.equal(fold("€"), [[0, [0x80]]]);
  assert.equal(fold("“x”—…"), [[0, [0x93, 0x78, 0x94, 0x97, 0x85]]]);
});

test("Latin Extended-A is on page 1 at 0x80 + (code point - U+0100)", () => {
  assert.equal(fold("ł"), [[1, [0xc2]]]);
  assert.equal(fold("Ő"), [[1, [0xd0]]]);
  assert.equal(fold("ĀſŁ"), [[1, [0x80, 0xff, 0xc1]]]);
});

test("Cyrillic is on page 2 at 0x80 + (code point - U+0400)", () => {
  assert.equal(fold("Ж"), [[2, [0x96]]]);
  assert.equal(fold("ё"), [[2, [0xd1]]]);
  assert.equal(fold("Ґ"), [[2, [0xe0]]]);
});

test("characters outside the pages become exactly one '?' each", () => {
  assert.equal(one("😀"), [Q], "emoji (4 bytes)");
  assert.equal(one("日本"), [Q, Q], "CJK (3 bytes each)");
  assert.equal(one("a😀b"), [0x61, Q, 0x62]);
  assert.equal(one("Ω"), [Q], "Greek");
});

test("an emoji with a skin tone, variation selector or joined family is one '?'", () => {
  assert.equal(one("👍🏽"), [Q]);
  assert.equal(one("❤️"), [Q]);
  assert.equal(one("👨‍👩‍👧!"), [Q, 0x21]);
  assert.equal(one("a\u200db"), [0x61, 0x62], "a joiner between letters hides neither");
});

test("malformed UTF-8: each bad sequence is one '?' and decoding goes on after it", () => {
  const runs: TextRun[] = [];
  const cases: [string, number[]][] = [
    ["\xff", [Q]], // never a UTF-8 byte
    ["a\x80b", [0x61, Q, 0x62]], // stray continuation byte
    ["\xc3A", [Q, 0x41]], // sequence cut short by ASCII
    ["\xc9A\xcd", [Q, 0x41, Q]], // cut short, with the bits of a tab and a line break so far
    ["\xe2\x82", [Q]], // cut short by the end
    ["\xe0\x80\x80", [Q]], // overlong
    ["\xc0\xaf", [Q, Q]], // overlong lead byte, then a stray continuation
    ["\xed\xa0\x80", [Q]], // UTF-16 surrogate
    ["\xf4\x90\x80\x80", [Q]], // past U+10FFFF
  ];
  for (const [input, expected] of cases) {
    foldText(input, false, runs);
    assert.equal(runs.map((r) => codes(r.text)), [expected], JSON.stringify(input));
  }
});

test("tabs and line breaks are spaces, other control codes '?'", () => {
  assert.equal(one("a\tb\nc\r"), codes("a b c "));
  assert.equal(one("a\x01\x7f"), [0x61, Q, Q]);
  assert.equal(one("\u0085"), [Q], "C1 control");
});

test("combining accents are dropped; letters outside the pages fold to the nearest one", () => {
  assert.equal(one("e\u0301"), [0x65]);
  assert.equal(fold("ǎ"), [[0, [0x61]]], "to ASCII, on any page");
  assert.equal(fold("ế"), [[0, [0xea]]], "ê");
  assert.equal(fold("ș"), [[1, [0xdf]]], "Romanian s comma: ş (U+015F)");
  assert.equal(fold("ẞ"), [[0, [0xdf]]]);
  assert.equal(one("a–b−c"), [0x61, 0x96, 0x62, 0x2d, 0x63]);
});

test("a run changes page only where the next character is not on the current one", () => {
  assert.equal(fold("Zażółć gęślą jaźń"), [[1, [
    0x5a, 0x61, 0xfc, 0x1a, 0xc2, 0x87, 0x20, 0x67, 0x99, 0xdb, 0x6c, 0x85, 0x20, 0x6a, 0x61, 0xfa, 0xc4,
  ]]], "Polish: ó is on page 1 too");
  assert.equal(fold("Цена 5€ «ок»"), [[2, [0xa6, 0xb5, 0xbd, 0xb0, 0x20, 0x35, 0xee, 0x20, 0xe2, 0xbe, 0xba, 0xe3]]]);
  const mixed = fold("café Привет");
  assert.equal(mixed.map((r) => r[0]), [0, 2]);
  assert.equal(mixed[0][1], codes("caf\xe9 "));
  assert.equal(mixed[1][1], [0x9f, 0xc0, 0xb8, 0xb2, 0xb5, 0xc2]);
  assert.equal(fold("Ł x é").map((r) => r[0]), [1], "é is on page 1 as well");
  assert.equal(fold("é x Ł").map((r) => r[0]), [0, 1]);
});

test("upper-casing: ASCII, accented, Latin Extended-A and Cyrillic letters", () => {
  assert.equal(one("abc xyz", true), codes("ABC XYZ"));
  assert.equal(one("é", true), [0xc9]);
  assert.equal(one("ÿ", true), [0x9f], "Ÿ is at 0x9F on page 0");
  assert.equal(one("ł", true), [0xc1]);
  assert.equal(one("ő", true), [0xd0]);
  assert.equal(one("ı", true), [0x49], "dotless i: I");
  assert.equal(one("ж", true), [0x96]);
  assert.equal(one("ё", true), [0x81]);
  assert.equal(one("привет", true), [0x9f, 0xa0, 0x98, 0x92, 0x95, 0xa2]);
  assert.equal(one("ґ", true), [0xe0]);
  assert.equal(one("ǎ", true), [0x41], "folded letters are upper-cased too");
});

test("upper-casing: ß becomes SS; letters without a capital stay", () => {
  assert.equal(one("straße", true), codes("STRASSE"));
  assert.equal(one("µ", true), [0xb5]);
  assert.equal(one("ĸ", true), [0xb8]);
  assert.equal(one("1€?", true), [0x31, 0x80, 0x3f]);
});

test("runs are written over the array given, reusing its objects", () => {
  const runs: TextRun[] = [];
  foldText(utf8("é Ł Ж"), false, runs);
  assert.is(runs.length, 3);
  const first = runs[0];
  foldText("plain", false, runs);
  assert.is(runs.length, 1);
  assert.ok(runs[0] === first);
  assert.equal([runs[0].page, runs[0].text], [0, "plain"]);
});

test("without font.map only ASCII is known", () => {
  restore();
  try {
    restore = serveStorage(storageOf({}));
    assert.equal(fold("aé€Ж"), [[0, [0x61, Q, Q, Q]]]);
  } finally {
    restore();
    restore = serveStorage(storageOf(fontFiles()));
  }
});

test.run();
