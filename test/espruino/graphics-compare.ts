// Draws the same scenarios in the real interpreter ($ESPRUINO) and in the Graphics stand-in
// (test/harness/graphics.ts) and reports every scenario whose bytes or recorded results differ.
//
//   ESPRUINO=/path/to/espruino npx tsx test/espruino/graphics-compare.ts [file.jsonl]
//     [--random N [--seed S]] [--print | --pins]
//
// Without a file it runs EXTRA_SCENARIOS below (behaviour the captured fixtures leave out);
// a file holds one scenario a line, in the fixtures' shape (see GraphicsScenario); --random
// runs N scenarios of random calls instead. --print writes the interpreter's results as
// scenario lines (with `buffer` and `widths`); --pins writes them as the PINNED entries of
// test/unit/harness-graphics.test.ts.
// Exits 1 when anything differs; without $ESPRUINO it says it was skipped and exits 0.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { RECORDED_METHODS, runScenario, type GraphicsScenario } from "../harness/graphics";

// ---- scenarios -------------------------------------------------------------------------------

/** width x height 24 bpp pixels, each a different colour. */
function rainbow(width: number, height: number): number[] {
  const bytes: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) bytes.push((x * 37 + 20) & 255, (y * 53 + 40) & 255, ((x + y) * 29 + 60) & 255);
  }
  return bytes;
}

const rgb = (width: number, height: number) => ({ width, height, bpp: 24, buffer: rainbow(width, height) });

/** A 1 bpp arrow, 8x8. */
const ARROW = { width: 8, height: 8, bpp: 1, buffer: [0x18, 0x3c, 0x7e, 0xff, 0x18, 0x18, 0x18, 0x18] };

/** A custom font of 8 rows from char 32: ' ' (2 columns), '!' (1), '"' (3) and '#' (3, an A). */
const FONT_32 = {
  bitmap: [0x00, 0x00, 0xb8, 0x40, 0x00, 0x40, 0x7c, 0x90, 0x7c],
  firstChar: 32,
  widths: [2, 1, 3, 3],
  height: 8,
};

/** Calls on a fresh buffer, recorded by name. */
function scenario(name: string, width: number, height: number, ops: unknown[][], options: { zigzag?: boolean; msb?: boolean } = {}, bpp = 24): GraphicsScenario {
  return bpp === 24 ? { name, width, height, options, ops } : { name, width, height, bpp, options, ops };
}

/** 0/1 palette entries of an 8-bit rank image: entry v is 0x0101 while v < k. */
const threshold = (k: number) => Array.from({ length: 256 }, (_, v) => (v < k ? 0x0101 : 0));
/** 8-bit ranks 0..255 over w x h, scattered. */
const ranks = (w: number, h: number) => Array.from({ length: w * h }, (_, i) => (i * 97 + 13) & 255);

/** Every glyph from `first`, `perRow` to a row. */
function glyphSheet(font: string, first: number, count: number, perRow: number, cw: number, ch: number): GraphicsScenario {
  const ops: unknown[][] = [["setFont", font], ["setColor", 1, 1, 1]];
  for (let i = 0; i < count; i += perRow) {
    let line = "";
    for (let c = first + i; c < first + Math.min(count, i + perRow); c++) line += String.fromCharCode(c);
    ops.push(["drawString", line, 0, (i / perRow) * ch]);
  }
  return scenario("glyphs-" + font, perRow * cw, Math.ceil(count / perRow) * ch, ops);
}

const ROTATIONS: [number, boolean][] = [[0, false], [1, false], [2, false], [3, false], [0, true], [1, true], [2, true], [3, true]];

export const EXTRA_SCENARIOS: GraphicsScenario[] = [
  // The panel output: a 24 bpp frame drawn 1:1 onto rotated, reflected and zigzag panels.
  ...ROTATIONS.map(([r, reflect]) => scenario("image24-rot" + r + (reflect ? "-reflect" : "") + "-zigzag", 8, 16, [
    ["setRotation", r, reflect],
    ["drawImage", rgb(7, 5), 1, 2],
    ["drawImage", rgb(4, 3), -2, 6],
    ["drawImage", rgb(5, 3), 13, -1],
    ["getWidth"], ["getHeight"], ["getPixel", 1, 2], ["getPixel", 3, 4],
  ], { zigzag: true })),
  // The cases test/unit/harness-graphics.test.ts spells out.
  scenario("unit-panel-rot1-zigzag", 8, 8, [
    ["setRotation", 1, false],
    ["drawImage", { width: 3, height: 2, bpp: 24, buffer: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0, 0, 255, 255, 255, 0, 255] }, 1, 2],
  ], { zigzag: true }),
  scenario("unit-second-panel", 8, 8, [
    ["setRotation", 3, true],
    ["drawImage", { width: 10, height: 1, bpp: 24, buffer: [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 255, 0, 0, 0, 255, 0] }, -8, 0],
  ], { zigzag: true }),
  scenario("unit-clip-image-text", 16, 8, [
    ["setClipRect", 3, 1, 12, 5],
    ["drawImage", { width: 3, height: 3, bpp: 24, buffer: new Array(27).fill(255) }, 2, 0],
    ["setColor", 1, 0, 0], ["drawString", "1234", 5, 2],
    ["setRotation", 2, false], ["setColor", 0, 0, 1], ["drawImage", { width: 2, height: 2, bpp: 24, buffer: new Array(12).fill(0x80) }, 2, 1],
  ]),
  scenario("image24-panels-rot1", 8, 32, [
    ["setRotation", 1, false], ["drawImage", rgb(64, 8), -32, 0],
  ], { zigzag: true }),
  scenario("image24-clip", 16, 8, [
    ["setClipRect", 3, 1, 12, 5], ["drawImage", rgb(16, 8), -1, -1], ["setClipRect", 0, 0, 15, 7],
  ]),
  scenario("image24-clip-rot3-zigzag", 8, 16, [
    ["setRotation", 3, false], ["setClipRect", 2, 1, 12, 5], ["drawImage", rgb(16, 8), 0, 0],
  ], { zigzag: true }),
  scenario("image24-transparent", 8, 8, [
    ["setColor", 0, 0, 1], ["fillRect", 0, 0, 7, 7],
    ["drawImage", { width: 2, height: 2, bpp: 24, transparent: 0xff0000, buffer: [255, 0, 0, 0, 255, 0, 1, 2, 3, 255, 0, 0] }, 3, 3],
  ]),
  scenario("image24-frame", 8, 4, [["drawImage", rgb(2, 2), 1, 1, { frame: 1 }]]),
  // Images in other depths, palettes and the image string form.
  scenario("image1-low-colours", 16, 8, [
    ["setColor", 0x00ffff], ["setBgColor", 0x0000ff], ["drawImage", ARROW, 0, 0],
    ["setColor", 0xff8844], ["drawImage", Object.assign({ transparent: 0 }, ARROW), 8, 0],
  ]),
  scenario("image1-palette", 16, 8, [
    ["drawImage", Object.assign({ palette: [0x0001, 0xf800] }, ARROW), 0, 0],
    ["drawImage", Object.assign({ palette: [0x1234, 0xabcd], transparent: 1 }, ARROW), 8, 0],
  ]),
  scenario("image2-blend", 8, 4, [
    ["setColor", 0, 0, 1], ["setBgColor", 0, 0, 0.25],
    ["drawImage", { width: 4, height: 2, bpp: 2, buffer: [0x1b, 0xe4] }, 0, 0],
    ["drawImage", { width: 4, height: 2, bpp: 2, buffer: [0x1b, 0xe4], palette: [0x0f00, 0x00f0, 0x000f, 0x1111] }, 4, 2],
  ]),
  scenario("image4-palette16", 8, 2, [
    ["drawImage", { width: 8, height: 2, bpp: 4, buffer: [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef],
      palette: [0, 1, 2, 3, 4, 5, 6, 7, 0x100, 0x200, 0x300, 0x400, 0x1000, 0x2000, 0xff00, 0xffff] }, 0, 0],
  ]),
  scenario("image8-raw", 4, 2, [["drawImage", { width: 4, height: 2, bpp: 8, buffer: [1, 2, 3, 4, 250, 251, 252, 253] }, 0, 0]]),
  scenario("image-string", 8, 4, [
    ["setColor", 0x00ff00], ["drawImage", "\x05\x03\x01\xff\xff\x80", 1, 0],
    ["drawImage", "\x03\x02\x81\x01\xaa", 0, 2],
  ]),
  // scale and rotate: whole-number scales, fractions, rotation (centred) and rotated buffers.
  scenario("image-scale2-clip", 16, 8, [["setClipRect", 2, 1, 13, 6], ["drawImage", rgb(4, 3), 1, 0, { scale: 2 }]]),
  scenario("image-scale1.5", 16, 8, [["drawImage", rgb(4, 3), 1, 1, { scale: 1.5 }]]),
  scenario("image-scale0.5", 16, 8, [["drawImage", rgb(8, 6), 1, 1, { scale: 0.5 }]]),
  scenario("image-rotate0-centres", 16, 8, [["drawImage", rgb(4, 3), 8, 4, { rotate: 0 }]]),
  scenario("image-rotate-quarter", 16, 8, [["drawImage", rgb(5, 3), 8, 4, { rotate: Math.PI / 2 }]]),
  scenario("image-rotate-scale", 16, 8, [["drawImage", rgb(4, 4), 8, 4, { rotate: 0.4, scale: 1.5 }]]),
  scenario("image1-rotate", 16, 8, [["setColor", 0x00ffff], ["drawImage", ARROW, 8, 4, { rotate: 2 }]]),
  scenario("image-scale2-rot1-zigzag", 8, 32, [["setRotation", 1, false], ["drawImage", rgb(5, 3), 3, 1, { scale: 2 }]], { zigzag: true }),
  scenario("image-rotate-rot2", 16, 8, [["setRotation", 2, false], ["drawImage", rgb(4, 3), 5, 3, { rotate: 0.5 }]]),
  // Text: custom fonts, clipping, alignment, solid backgrounds, text rotation, built-in glyphs.
  scenario("font-custom-32", 32, 8, [
    ["setFontCustom", FONT_32], ["setColor", 1, 1, 0],
    ["drawString", "#!\"# #", 0, 0], ["drawString", "\x1f#A#", 16, 0],
    ["stringWidth", "#!\"# #"], ["stringWidth", "\x1f#A"], ["stringWidth", "##\n#"], ["getFontHeight"],
  ]),
  scenario("font-custom-fixed-scaled", 32, 16, [
    ["setFontCustom", { bitmap: [0x7c, 0x90, 0x7c, 0xfc, 0xa4, 0x58], firstChar: 65, widths: 3, height: 8 | (2 << 8) }],
    ["drawString", "ABA", 0, 0], ["drawString", "@A", 20, 0], ["stringWidth", "@AB"], ["getFontHeight"],
  ]),
  scenario("font-custom-2bpp", 16, 8, [
    ["setColor", 1, 1, 1], ["setBgColor", 0, 0, 0.5],
    ["setFontCustom", { bitmap: [0x1b, 0xe4, 0xff, 0x00, 0x55, 0xaa], firstChar: 65, widths: 3, height: 4 | (2 << 16) }],
    ["drawString", "AB", 0, 0], ["drawString", "A", 8, 2, true],
  ]),
  scenario("font-custom-clip", 32, 8, [
    ["setFontCustom", FONT_32], ["setClipRect", 2, 1, 9, 4], ["drawString", "####", 0, 0],
  ]),
  scenario("font-clip-4x6", 32, 8, [
    ["setClipRect", 5, 2, 20, 6], ["drawString", "12345678", 0, 0], ["drawString", "90", 17, 4],
  ]),
  scenario("font-solid", 32, 8, [
    ["setBgColor", 0, 0, 1], ["drawString", "A B\x80", 0, 0, true], ["setFont", "6x8"], ["drawString", "x\x01", 16, 0, true],
  ]),
  scenario("font-align-multiline", 32, 16, [
    ["setFontAlign", 1, 1], ["drawString", "AB\nC", 31, 15], ["setFontAlign", 0], ["drawString", "X\nYZ", 8, 8],
  ]),
  scenario("font-rotate-text", 32, 16, [
    ["setFontAlign", -1, -1, 1], ["drawString", "AB", 10, 0], ["setFontAlign", -1, -1, 2], ["drawString", "CD", 20, 10],
    ["setFontAlign", -1, -1, 3], ["drawString", "EF", 25, 15],
  ]),
  scenario("font-on-rot1-zigzag", 8, 32, [
    ["setRotation", 1, false], ["setColor", 1, 0, 0], ["drawString", "12:34", 1, 1], ["setFont", "6x8"], ["drawString", "A", 24, 0],
  ], { zigzag: true }),
  scenario("font-scales", 48, 24, [
    ["setFont", "4x6:2"], ["drawString", "A1", 0, 0], ["setFont", "6x8:2x3"], ["drawString", "B", 20, 0],
    ["stringWidth", "B\u00ff"], ["getFontHeight"], ["setFont", "4x6", 3], ["stringWidth", "ab"],
  ]),
  glyphSheet("4x6", 33, 100, 32, 4, 6),
  glyphSheet("6x8", 33, 223, 32, 6, 8),
  // Shapes on a rotated buffer, rounded rectangles, colour strings.
  scenario("shapes-rot1-reflect", 8, 16, [
    ["setRotation", 1, true], ["setColor", "#f80"], ["drawLine", 0, 0, 15, 7], ["fillPoly", [2, 1, 9, 2, 4, 6]],
    ["setColor", "#00ff7f"], ["drawEllipse", 9, 1, 15, 6], ["drawRect", 1, 5, 3, 7], ["setPixel", 15, 0],
  ]),
  scenario("shapes-rounded", 32, 16, [
    ["fillRect", { x: 1, y: 1, w: 12, h: 9, r: 3 }], ["setColor", 1, 0, 0], ["drawRect", { x: 16, y: 2, x2: 30, y2: 13, r: 4 }],
    ["clearRect", { x: 3, y: 3, w: 2, h: 2 }],
  ]),
  scenario("shapes-clip-clear", 16, 8, [
    ["setColor", 1, 1, 1], ["fillRect", 0, 0, 15, 7], ["setClipRect", 4, 2, 11, 5], ["setBgColor", 0.5, 0, 0], ["clear"],
    ["fillCircle", 8, 4, 5], ["setClipRect", 0, 0, 15, 7], ["drawCircle", 2, 2, 2],
  ]),
  scenario("shapes-edges", 16, 8, [
    ["setColor", 1.5, -0.2, 0.999], ["drawLine", -3, -2, 20, 9], ["drawLine", 15, 0, 0, 7], ["drawLine", 4, 4, 4, 4],
    ["setColor", -1], ["drawPoly", [1, 6, 5, 1.6, 9.4, 6], false], ["setPixel", 12, 2, 0x123456], ["setPixel", 13, 2, "#a0b"],
    ["fillEllipse", 10, 3, 15, 7], ["drawEllipse", 16, 9, -2, -1], ["getPixel", 12, 2], ["getPixel", -1, 0], ["getPixel", 16, 0],
  ]),
  scenario("clear-reset-keeps-rotation", 16, 8, [
    ["setRotation", 2, false], ["setColor", 1, 0, 0], ["setBgColor", 0, 0, 1], ["setClipRect", 2, 2, 5, 5], ["setFont", "6x8"],
    ["setFontAlign", 1, 1], ["clear", true], ["drawString", "A", 0, 0], ["setPixel", 0, 7],
  ]),
  scenario("string-inline-image", 32, 8, [
    ["drawString", "A\x00\x04\x03\x01\xf0\x0f\xf0B", 1, 1], ["stringWidth", "A\x00\x04\x03\x01\xf0\x0f\xf0B"],
    ["setFontAlign", 0, 0], ["drawString", "\x00\x03\x03\x01\xff\xffC", 24, 4],
  ]),
  scenario("errors", 8, 8, [["setColor", 1, 1, 1], ["fillRect", 0, 0, 1, 1], ["setFont", "Nope"]]),
  scenario("error-image", 8, 8, [["drawImage", { width: 0, height: 2, bpp: 1, buffer: [255] }, 0, 0]]),
  // 1 bpp buffers: drawing, colours, the rank-mask composition of the transitions, scroll.
  scenario("bpp1-draw", 16, 8, [
    ["setColor", 0.3, 0.3, 0.3], ["fillRect", 0, 0, 3, 3], ["setColor", 0.6, 0.6, 0.6], ["fillRect", 2, 2, 5, 5],
    ["drawString", "Hi", 6, 1], ["setColor", 2], ["setPixel", 15, 0], ["setColor", 3], ["setPixel", 15, 1], ["drawLine", 0, 7, 15, 4],
    ["getPixel", 2, 2], ["getPixel", 15, 0], ["getPixel", 15, 1], ["getPixel", 6, 1],
  ], {}, 1),
  scenario("bpp1-lsb-zigzag", 12, 4, [["fillRect", 1, 0, 4, 1], ["setPixel", 11, 3], ["drawImage", ARROW, 4, -2]], { zigzag: true, msb: false }, 1),
  scenario("bpp1-rank-mask", 32, 8, [
    ["drawImage", { width: 32, height: 8, bpp: 8, buffer: ranks(32, 8), palette: threshold(100) }, 0, 0],
    ["drawImage", { width: 4, height: 2, bpp: 8, buffer: [0, 1, 2, 3, 200, 201, 202, 203], palette: threshold(2) }, 28, 6],
  ], {}, 1),
  scenario("bpp1-scroll", 16, 8, [["drawImage", { width: 16, height: 8, bpp: 8, buffer: ranks(16, 8), palette: threshold(128) }, 0, 0], ["scroll", 0, -1], ["scroll", 2, 0]], {}, 1),
  scenario("bpp1-scroll-lsb", 16, 8, [["drawImage", { width: 16, height: 8, bpp: 8, buffer: ranks(16, 8), palette: threshold(128) }, 0, 0], ["scroll", 0, 2], ["scroll", 0, -1]], { msb: false }, 1),
  scenario("bpp1-raw-values", 32, 8, [
    ["drawImage", { width: 4, height: 1, bpp: 8, buffer: [0, 1, 2, 3] }, 0, 0],
    ["drawImage", { width: 4, height: 1, bpp: 8, buffer: [0, 1, 2, 3] }, 30, 1],
    ["drawImage", { width: 4, height: 1, bpp: 8, buffer: [0, 1, 2, 3] }, 0, 2, { scale: 2 }],
    ["setRotation", 2, false], ["drawImage", { width: 4, height: 1, bpp: 8, buffer: [0, 1, 2, 3] }, 0, 5],
  ], {}, 1),
  scenario("bpp1-scroll-lsb-flat", 8, 20, [["fillRect", 0, 0, 2, 0], ["setPixel", 0, 2], ["setPixel", 5, 2], ["scroll", 0, 2]], { msb: false }, 1),
  scenario("mask-over-24", 16, 4, [
    ["drawImage", rgb(16, 4), 0, 0], ["setColor", 0],
    ["drawImage", { width: 16, height: 4, bpp: 1, transparent: 0, buffer: [0xf0, 0x0f, 0x3c, 0xc3, 0xaa, 0x55, 0xff, 0x00] }, 0, 0],
    ["setBgColor", 0x00ff00], ["drawImage", { width: 16, height: 4, bpp: 1, transparent: 1, buffer: [0xf0, 0x0f, 0x3c, 0xc3, 0xaa, 0x55, 0xff, 0x00] }, 0, 0],
  ]),
  // scroll and blit, linear and zigzag, whole buffer and clipped.
  ...[false, true].map((zigzag) => scenario("scroll-" + (zigzag ? "zigzag" : "linear"), 16, 8, [
    ["drawImage", rgb(16, 8), 0, 0], ["scroll", 0, 1], ["scroll", 0, -2], ["scroll", -3, 0], ["scroll", 2, 1],
  ], { zigzag })),
  scenario("scroll-clipped-rot2", 16, 8, [
    ["drawImage", rgb(16, 8), 0, 0], ["setRotation", 2, false], ["setClipRect", 2, 1, 12, 6], ["scroll", 0, -1], ["scroll", 1, 0],
  ]),
  // Buffers of 10-19 bytes are not in one piece, those of up to 9 bytes are.
  scenario("scroll-small-buffer", 2, 3, [["drawImage", rgb(2, 3), 0, 0], ["scroll", 0, 1]]),
  scenario("scroll-tiny-buffer", 1, 3, [["drawImage", rgb(1, 3), 0, 0], ["scroll", 0, 1]]),
  scenario("bpp1-raw-tiny-buffer", 8, 9, [["drawImage", { width: 4, height: 1, bpp: 8, buffer: [0, 1, 2, 3] }, 0, 0]], {}, 1),
  scenario("scroll-far", 16, 8, [["drawImage", rgb(16, 8), 0, 0], ["setBgColor", 0, 1, 0], ["scroll", 20, 0]]),
  scenario("blit-up-left", 16, 8, [["drawImage", rgb(16, 8), 0, 0], ["blit", { x1: 4, y1: 3, w: 6, h: 4, x2: 2, y2: 1 }]]),
  scenario("blit-clipped", 16, 8, [["drawImage", rgb(16, 8), 0, 0], ["blit", { x1: -2, y1: 5, w: 8, h: 6, x2: 12, y2: 3 }]]),
];

// ---- random scenarios -------------------------------------------------------------------------

/** `count` scenarios of random calls (a fixed sequence for each seed). */
function randomScenarios(count: number, seed: number): GraphicsScenario[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];
  const between = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const SIZES = [[8, 8], [16, 8], [8, 16], [32, 8], [5, 7]];
  const TEXT = "Hi 12:34 Ab-x\u00e9!";
  const out: GraphicsScenario[] = [];
  for (let n = 0; n < count; n++) {
    const [w, h] = pick(SIZES);
    const bpp = next() < 0.2 ? 1 : 24;
    const x = () => between(-4, w + 4);
    const y = () => between(-4, h + 4);
    const image = () => {
      const iw = between(1, 6);
      const ih = between(1, 5);
      const ibpp = pick([1, 8, 24]);
      const bytes = Array.from({ length: (iw * ih * ibpp + 7) >> 3 }, () => between(0, 255));
      const img: { [k: string]: unknown } = { width: iw, height: ih, bpp: ibpp, buffer: bytes };
      if (next() < 0.3) img.transparent = ibpp === 1 ? between(0, 1) : bytes[0];
      if (ibpp === 1 && next() < 0.3) img.palette = [between(0, 65535), between(0, 65535)];
      return img;
    };
    const makers: (() => unknown[])[] = [
      () => ["setColor", next(), next(), next()],
      () => ["setColor", between(0, 0xffffff)],
      () => ["setBgColor", next(), next(), next()],
      () => ["setPixel", x(), y()],
      () => ["fillRect", x(), y(), x(), y()],
      () => ["drawRect", x(), y(), x(), y()],
      () => ["clearRect", x(), y(), x(), y()],
      () => ["drawLine", x(), y(), x(), y()],
      () => ["drawCircle", x(), y(), between(0, 6)],
      () => ["fillCircle", x(), y(), between(0, 6)],
      () => ["drawEllipse", x(), y(), x(), y()],
      () => ["fillEllipse", x(), y(), x(), y()],
      () => ["fillPoly", Array.from({ length: between(3, 6) * 2 }, (_, i) => (i & 1 ? y() : x()) + (next() < 0.3 ? 0.5 : 0))],
      () => ["drawPoly", Array.from({ length: between(2, 5) * 2 }, (_, i) => (i & 1 ? y() : x())), next() < 0.5],
      () => ["setRotation", between(0, 3), next() < 0.5],
      () => ["setClipRect", x(), y(), x(), y()],
      () => ["setFont", pick(["4x6", "6x8", "4x6:2", "6x8:1x2"])],
      () => ["setFontAlign", between(-1, 1), between(-1, 1), next() < 0.8 ? 0 : between(1, 3)],
      () => ["drawString", TEXT.slice(between(0, 8), between(8, TEXT.length)), x(), y(), next() < 0.3],
      () => ["drawImage", image(), x(), y()],
      () => ["drawImage", image(), x(), y(), pick([{ scale: 2 }, { scale: 1.5 }, { rotate: next() * 6 }, { scale: 0.7, rotate: 1 }])],
      () => ["scroll", between(-3, 3), between(-3, 3)],
      () => ["blit", { x1: x(), y1: y(), w: between(0, w), h: between(0, h), x2: x(), y2: y() }],
      () => ["getPixel", x(), y()],
      () => ["stringWidth", TEXT.slice(0, between(0, TEXT.length))],
      () => ["clear", next() < 0.5],
      () => ["setColor", pick(["#f80", "#0a0b0c", "#FFF"])],
      () => ["fillRect", { x: x(), y: y(), w: between(0, w), h: between(0, h), r: between(0, 4) }],
      () => ["drawRect", { x: x(), y: y(), x2: x(), y2: y(), r: between(0, 4) }],
      () => ["setFontCustom", {
        bitmap: Array.from({ length: 12 }, () => between(0, 255)), firstChar: between(32, 72),
        widths: next() < 0.5 ? between(1, 4) : Array.from({ length: between(1, 6) }, () => between(0, 4)),
        height: between(3, 8) | (between(1, 2) << 8) | (pick([0, 1, 2, 4]) << 16),
      }],
      () => ["drawImage", String.fromCharCode(between(1, 5), between(1, 4), pick([1, 8, 0x81, 0x41])) +
        Array.from({ length: 40 }, () => String.fromCharCode(between(0, 255))).join(""), x(), y()],
    ];
    const ops: unknown[][] = [];
    const length = between(3, 20);
    for (let i = 0; i < length; i++) ops.push(pick(makers)());
    out.push(scenario("random-" + seed + "-" + n, w, h, ops, { zigzag: next() < 0.4 }, bpp));
  }
  return out;
}

// ---- the real interpreter --------------------------------------------------------------------

/**
 * The scenarios as a JavaScript array of JSON strings (parsed one at a time: the interpreter's
 * memory is small), image bytes as base64, all in plain ASCII (other bytes as \u00XX escapes).
 */
function literal(scenarios: GraphicsScenario[]): string {
  const texts = scenarios.map((s) => {
    const ops = s.ops.map((op) => {
      const image = op[1] as { buffer?: unknown } | undefined;
      if (op[0] !== "drawImage" || typeof image !== "object" || !Array.isArray(image.buffer)) return op;
      const encoded = Object.assign({}, image, { buffer: Buffer.from(image.buffer as number[]).toString("base64") });
      return ([op[0], encoded] as unknown[]).concat(op.slice(2));
    });
    return JSON.stringify({ name: s.name, width: s.width, height: s.height, bpp: s.bpp || 24, options: s.options, ops });
  });
  return JSON.stringify(texts).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

const MARK = "@@graphics ";
/** Bytes of the buffer printed a line. */
const CHUNK = 1500;

/** The interpreter's side: ES5, the same special forms as runScenario. */
function interpreterScript(scenarios: GraphicsScenario[]): string {
  const mark = JSON.stringify(MARK);
  return `
var SCENARIOS = ${literal(scenarios)};
var RECORDED = ${JSON.stringify(RECORDED_METHODS)};
function run(sc, widths) {
  var g = Graphics.createArrayBuffer(sc.width, sc.height, sc.bpp, sc.options);
  sc.ops.forEach(function (op) {
    var m = op[0];
    var a = op.slice(1);
    if (m === "setFontCustom") {
      var f = a[0];
      g.setFontCustom(E.toString(f.bitmap), f.firstChar, typeof f.widths === "number" ? f.widths : E.toString(f.widths), f.height);
    } else if (m === "drawImage" && typeof a[0] === "object") {
      var s = a[0];
      var img = { width: s.width, height: s.height, bpp: s.bpp, buffer: E.toArrayBuffer(atob(s.buffer)) };
      if (s.transparent !== undefined) img.transparent = s.transparent;
      if (s.palette) img.palette = new Uint16Array(s.palette);
      g.drawImage(img, a[1], a[2], a[3]);
    } else {
      var r = g[m].apply(g, a);
      if (RECORDED.indexOf(m) >= 0) widths.push(r);
    }
  });
  return g;
}
for (var n = 0; n < SCENARIOS.length; n++) {
  var sc = JSON.parse(SCENARIOS[n]);
  var widths = [];
  var error = "";
  var g;
  try {
    g = run(sc, widths);
  } catch (e) {
    error = "error " + e;
  }
  if (!error) {
    var bytes = new Uint8Array(g.buffer);
    for (var i = 0; i < bytes.length; i += ${CHUNK}) print(${mark} + "bytes " + btoa(E.toString(new Uint8Array(g.buffer, i, Math.min(${CHUNK}, bytes.length - i)))));
  }
  print(${mark} + "end " + JSON.stringify({ name: sc.name, error: error, widths: widths }));
  g = undefined;
  sc = undefined;
}
print(${mark} + "done");
`;
}

interface Outcome {
  name: string;
  /** base64 of the buffer, or "error <message>". */
  buffer: string;
  widths: number[];
}

/** Source text per interpreter run: its memory holds the scenarios as text while they run. */
const BATCH_CHARS = 40000;

/** Runs the scenarios in the interpreter at `bin`, a process per batch that fits its memory. */
async function runInEspruino(bin: string, scenarios: GraphicsScenario[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let batch: GraphicsScenario[] = [];
  let size = 0;
  for (const sc of scenarios) {
    const chars = literal([sc]).length;
    if (batch.length && size + chars > BATCH_CHARS) {
      outcomes.push(...(await runBatch(bin, batch)));
      batch = [];
      size = 0;
    }
    batch.push(sc);
    size += chars;
  }
  if (batch.length) outcomes.push(...(await runBatch(bin, batch)));
  return outcomes;
}

function runBatch(bin: string, scenarios: GraphicsScenario[], timeoutMs = 120000): Promise<Outcome[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-graphics-"));
  const file = path.join(dir, "scenarios.js");
  fs.writeFileSync(file, interpreterScript(scenarios));
  return new Promise((resolve, reject) => {
    // stdin stays an open pipe: at end of input the interpreter would spin.
    const child = spawn(bin, [file], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
    const outcomes: Outcome[] = [];
    let bytes: Buffer[] = [];
    let pending = "";
    let tail = "";
    let finished = false;
    const finish = (err: Error | null) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
      if (err) reject(err);
      else resolve(outcomes);
    };
    const timer = setTimeout(() => finish(new Error("the interpreter did not finish within " + timeoutMs + " ms:\n" + tail)), timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString("latin1");
      let nl: number;
      while ((nl = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, nl).replace(/\r$/, "");
        pending = pending.slice(nl + 1);
        tail = (tail + line + "\n").slice(-2000);
        const at = line.indexOf(MARK);
        if (at < 0) continue;
        const body = line.slice(at + MARK.length);
        if (body === "done") return finish(null);
        if (body.startsWith("bytes ")) {
          bytes.push(Buffer.from(body.slice(6), "base64"));
        } else if (body.startsWith("end ")) {
          const end = JSON.parse(body.slice(4)) as { name: string; error: string; widths: number[] };
          outcomes.push({ name: end.name, buffer: end.error || Buffer.concat(bytes).toString("base64"), widths: end.widths });
          bytes = [];
        }
      }
    });
    child.on("error", (e) => finish(e));
    child.on("exit", () => setTimeout(() => finish(new Error("the interpreter ended early:\n" + tail)), 100));
  });
}

/** What the stand-in makes of a scenario, in the interpreter's terms. */
function standIn(sc: GraphicsScenario): Outcome {
  try {
    const r = runScenario(sc);
    return { name: sc.name, buffer: Buffer.from(r.buffer).toString("base64"), widths: r.widths };
  } catch (e) {
    return { name: sc.name, buffer: "error " + (e instanceof Error ? e.message : String(e)), widths: [] };
  }
}

/** Short fingerprint of a buffer's bytes, for pinning results compactly. */
export function fingerprint(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 16);
}

/** The pixels of a base64 buffer in memory order, a letter per colour (1 bpp: '#'), for reports. */
function picture(base64: string, sc: GraphicsScenario, letters: Map<number, string>): string[] {
  const bytes = Buffer.from(base64, "base64");
  const bpp = sc.bpp || 24;
  const rows: string[] = [];
  for (let y = 0; y < sc.height; y++) {
    let row = "";
    for (let x = 0; x < sc.width; x++) {
      const p = y * sc.width + x;
      if (bpp === 1) {
        row += (bytes[p >> 3] >> (7 - (p & 7))) & 1 ? "#" : ".";
        continue;
      }
      const c = (bytes[p * 3] << 16) | (bytes[p * 3 + 1] << 8) | bytes[p * 3 + 2];
      if (!letters.has(c)) letters.set(c, String.fromCharCode(65 + ((letters.size - 1) % 58)));
      row += letters.get(c);
    }
    rows.push(row);
  }
  return rows;
}

function differences(sc: GraphicsScenario, real: Outcome, ours: Outcome): string[] {
  const out: string[] = [];
  if (JSON.stringify(real.widths) !== JSON.stringify(ours.widths)) {
    out.push("results: interpreter " + JSON.stringify(real.widths) + ", stand-in " + JSON.stringify(ours.widths));
  }
  if (real.buffer.startsWith("error ") || ours.buffer.startsWith("error ")) {
    if (real.buffer.startsWith("error ") !== ours.buffer.startsWith("error ")) {
      out.push("interpreter: " + real.buffer.slice(0, 200) + "\nstand-in: " + ours.buffer.slice(0, 200));
    }
  } else if (real.buffer !== ours.buffer) {
    const letters = new Map<number, string>([[0, "."]]);
    const a = picture(real.buffer, sc, letters);
    const b = picture(ours.buffer, sc, letters);
    out.push("pixels (memory order, 1 bpp MSB first; interpreter | stand-in):");
    for (let y = 0; y < a.length; y++) out.push("  " + a[y] + " | " + b[y] + (a[y] === b[y] ? "" : "  <"));
  }
  return out;
}

async function main(): Promise<number> {
  const bin = process.env.ESPRUINO;
  if (!bin) {
    console.log("graphics comparison skipped: set ESPRUINO=/path/to/espruino");
    return 0;
  }
  if (!fs.existsSync(bin)) {
    console.error("ESPRUINO names " + bin + ", which does not exist");
    return 1;
  }
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : undefined;
  };
  const random = option("--random");
  const seed = option("--seed");
  const print = args.indexOf("--print") >= 0;
  const pins = args.indexOf("--pins") >= 0;
  const file = args.find((a) => !a.startsWith("--"));
  const scenarios = file
    ? fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as GraphicsScenario)
    : random ? randomScenarios(+random, seed ? +seed : Date.now() % 100000) : EXTRA_SCENARIOS;
  const real = await runInEspruino(bin, scenarios);
  let differing = 0;
  for (let i = 0; i < scenarios.length; i++) {
    const sc = scenarios[i];
    const r = real.find((o) => o.name === sc.name);
    if (!r) {
      console.log("DIFF " + sc.name + ": the interpreter reported nothing");
      differing++;
      continue;
    }
    if (print) console.log(JSON.stringify(Object.assign({}, sc, { buffer: r.buffer, widths: r.widths })));
    if (pins) {
      const pin = r.buffer.startsWith("error ") ? "error" : fingerprint(Buffer.from(r.buffer, "base64"));
      console.log("  " + JSON.stringify(sc.name) + ": [" + JSON.stringify(pin) + ", [" + r.widths.join(", ") + "]],");
    }
    const diff = differences(sc, r, standIn(sc));
    if (diff.length) {
      differing++;
      console.log("DIFF " + sc.name + "\n" + diff.join("\n"));
    } else if (!print && !pins) {
      console.log("same " + sc.name + (r.buffer.startsWith("error ") ? " (" + r.buffer + ")" : ""));
    }
  }
  console.log(scenarios.length - differing + " of " + scenarios.length + " scenarios draw the same");
  return differing ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then((code) => process.exit(code), (e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
}
