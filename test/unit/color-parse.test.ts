import { test } from "uvu";
import * as assert from "uvu/assert";
import { parseColor, formatColor, hsvToRgb, COLOR_MESSAGE } from "../../firmware/color/color";

test("six-digit hex, with and without #, either case", () => {
  assert.is(parseColor("#FF8800"), 0xFF8800);
  assert.is(parseColor("FF8800"), 0xFF8800);
  assert.is(parseColor("ff8800"), 0xFF8800);
  assert.is(parseColor("#aBcDeF"), 0xABCDEF);
  assert.is(parseColor("#000000"), 0);
  assert.is(parseColor("FFFFFF"), 0xFFFFFF);
});

test("three-digit shorthand doubles each digit", () => {
  assert.is(parseColor("F80"), 0xFF8800);
  assert.is(parseColor("#F0A"), 0xFF00AA);
  assert.is(parseColor("#fff"), 0xFFFFFF);
  assert.is(parseColor("000"), 0);
  assert.is(parseColor("#123"), 0x112233);
});

test("malformed strings are refused", () => {
  for (const s of ["", "#", "F", "FF", "FFFF", "FFFFF", "FFFFFFF", "#FF00AA80", "FF00AA80", "GG0000", "#12345G",
    "##FFF", " FFFFFF", "FFFFFF ", "0xFFFFFF", "red", "#-12345", "+FF000"]) {
    assert.is(parseColor(s), -1, JSON.stringify(s));
  }
});

test("RGB arrays: integer channels clamped to 0-255, extras ignored", () => {
  assert.is(parseColor([255, 136, 0]), 0xFF8800);
  assert.is(parseColor([0, 0, 0]), 0);
  assert.is(parseColor([300, -5, 255]), 0xFF00FF);
  assert.is(parseColor([1, 2, 3, 4]), 0x010203);
  assert.is(parseColor([1e12, 0, 0]), 0xFF0000);
});

test("RGB arrays: short, fractional or non-numeric channels are refused", () => {
  for (const a of [[], [1], [1, 2], [1.5, 0, 0], [0, 0, 0.1], ["1", 2, 3], [null, 0, 0], [true, 0, 0],
    [NaN, 0, 0], [Infinity, 0, 0], [[1], 2, 3]]) {
    assert.is(parseColor(a), -1, JSON.stringify(a));
  }
});

test("HSV arrays: hue wrapped into 0-359, saturation and value clamped to 0-100", () => {
  assert.is(parseColor(["HSV", 0, 100, 100]), 0xFF0000);
  assert.is(parseColor(["HSV", 120, 100, 100]), 0x00FF00);
  assert.is(parseColor(["HSV", 240, 100, 100]), 0x0000FF);
  assert.is(parseColor(["HSV", 32, 100, 100]), 0xFF8800);
  assert.is(parseColor(["HSV", 60, 100, 100]), 0xFFFF00);
  assert.is(parseColor(["HSV", 180, 100, 100]), 0x00FFFF);
  assert.is(parseColor(["HSV", 300, 100, 100]), 0xFF00FF);
  assert.is(parseColor(["HSV", 0, 0, 100]), 0xFFFFFF);
  assert.is(parseColor(["HSV", 200, 0, 50]), 0x808080);
  assert.is(parseColor(["HSV", 77, 100, 0]), 0);
  // Wrapping: 360 is 0, -30 is 330, 720 + 120 is 120.
  assert.is(parseColor(["HSV", 360, 100, 100]), 0xFF0000);
  assert.is(parseColor(["HSV", -30, 100, 100]), parseColor(["HSV", 330, 100, 100]));
  assert.is(parseColor(["HSV", 330, 100, 100]), 0xFF0080);
  assert.is(parseColor(["HSV", 840, 100, 100]), 0x00FF00);
  assert.is(parseColor(["HSV", -360, 100, 100]), 0xFF0000);
  // Clamping: v 255 is v 100, s -5 is s 0.
  assert.is(parseColor(["HSV", 0, 100, 255]), 0xFF0000);
  assert.is(parseColor(["HSV", 0, -5, 100]), 0xFFFFFF);
  assert.is(parseColor(["HSV", 0, 500, -3]), 0);
  // Extra elements are ignored, as for RGB.
  assert.is(parseColor(["HSV", 0, 100, 100, 7]), 0xFF0000);
});

test("HSV arrays: the tag is case-sensitive; short or fractional ones are refused", () => {
  for (const a of [["hsv", 0, 100, 100], ["Hsv", 0, 100, 100], ["HSV"], ["HSV", 0, 100], ["HSV", 0.5, 100, 100],
    ["HSV", 0, 99.9, 100], ["HSV", "0", 100, 100], ["HSV", 0, 100, null]]) {
    assert.is(parseColor(a), -1, JSON.stringify(a));
  }
});

test("packed integers 0-16777215; anything outside or fractional is refused", () => {
  assert.is(parseColor(0), 0);
  assert.is(parseColor(16746496), 0xFF8800);
  assert.is(parseColor(16777215), 0xFFFFFF);
  for (const n of [-1, 16777216, 1.5, NaN, Infinity, -Infinity]) assert.is(parseColor(n), -1, String(n));
});

test("other JSON values are not colours", () => {
  for (const v of [null, undefined, true, false, {}, { r: 1, g: 2, b: 3 }]) assert.is(parseColor(v), -1, String(v));
});

test("formatColor writes upper-case #RRGGBB, zero-padded", () => {
  assert.is(formatColor(0), "#000000");
  assert.is(formatColor(0xFF8800), "#FF8800");
  assert.is(formatColor(0x0000AB), "#0000AB");
  assert.is(formatColor(0xFFFFFF), "#FFFFFF");
  assert.is(formatColor(0x0A0B0C), "#0A0B0C");
  // Every parsed form reads back as the same text.
  assert.is(formatColor(parseColor("#abc")), "#AABBCC");
  assert.is(formatColor(parseColor(["HSV", 32, 100, 100])), "#FF8800");
});

test("hsvToRgb rounds channels to the nearest step", () => {
  assert.is(hsvToRgb(0, 100, 50), 0x800000);
  assert.is(hsvToRgb(30, 50, 100), 0xFFBF80);
  assert.is(hsvToRgb(359, 100, 100), 0xFF0004);
});

test("the message of a malformed colour names every accepted form", () => {
  assert.is(COLOR_MESSAGE, 'must be a color ("#RGB", "#RRGGBB", [r,g,b], ["HSV",h,s,v] or a packed integer)');
});

test.run();
