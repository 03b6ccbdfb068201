// The Graphics stand-in against the real interpreter: the scenarios captured from Espruino
// (../shared/fixtures/espruino-graphics.jsonl) byte for byte, the extra scenarios of
// test/espruino/graphics-compare.ts against the interpreter's results pinned below, and the
// cases the firmware leans on spelled out pixel by pixel (each also a scenario there, so
// `ESPRUINO=... npx tsx test/espruino/graphics-compare.ts` re-checks them in the interpreter).
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { Graphics, installGraphics, runScenario, type GraphicsScenario } from "../harness/graphics";
import { ROOT } from "../harness/root";
import { EXTRA_SCENARIOS, fingerprint } from "../espruino/graphics-compare";

const FIXTURES = path.join(ROOT, "..", "shared", "fixtures", "espruino-graphics.jsonl");

/** The buffer in memory order as rows of letters: `legend` names colours, '.' is black. */
function memoryPicture(g: Graphics, width: number, legend: { [letter: string]: number }): string[] {
  const bytes = new Uint8Array(g.buffer);
  const letterOf: { [rgb: number]: string } = {};
  for (const letter of Object.keys(legend)) letterOf[legend[letter]] = letter;
  const rows: string[] = [];
  for (let i = 0; i < bytes.length; i += width * 3) {
    let row = "";
    for (let j = i; j < i + width * 3; j += 3) {
      const rgb = (bytes[j] << 16) | (bytes[j + 1] << 8) | bytes[j + 2];
      row += rgb === 0 ? "." : (letterOf[rgb] ?? "?");
    }
    rows.push(row);
  }
  return rows;
}

/** A width x height 24 bpp image of the given colours, row by row. */
function image(width: number, height: number, colors: number[]) {
  const bytes: number[] = [];
  for (const c of colors) bytes.push(c >> 16, (c >> 8) & 255, c & 255);
  return { width, height, bpp: 24, buffer: new Uint8Array(bytes).buffer };
}

// ---- the captured fixtures -------------------------------------------------------------------

const fixtures: GraphicsScenario[] = fs.existsSync(FIXTURES)
  ? fs.readFileSync(FIXTURES, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as GraphicsScenario)
  : [];

test("the 26 fixture scenarios are there", () => {
  assert.ok(fs.existsSync(FIXTURES), FIXTURES + " is missing");
  assert.is(fixtures.length, 26);
});

for (const sc of fixtures) {
  test("fixture " + sc.name + " draws the interpreter's bytes", () => {
    const r = runScenario(sc);
    assert.is(Buffer.from(r.buffer).toString("base64"), sc.buffer);
    assert.equal(r.widths, sc.widths);
  });
}

// ---- the extra scenarios, pinned to the interpreter's results --------------------------------

/**
 * sha256 (first 16 hex digits) of each scenario's buffer in Espruino 2v29.277, and its results;
 * `ESPRUINO=... npx tsx test/espruino/graphics-compare.ts --pins` prints these lines.
 */
const PINNED: { [name: string]: [string, number[]] } = {
  "image24-rot0-zigzag": ["52c3aae1f743c401", [8, 16, 1321020, 6197936]],
  "image24-rot1-zigzag": ["871d4b6a004d7668", [16, 8, 1321020, 6197936]],
  "image24-rot2-zigzag": ["d1949a39731bcaa6", [8, 16, 1321020, 6197936]],
  "image24-rot3-zigzag": ["6840bb0d2660d3a6", [16, 8, 1321020, 6197936]],
  "image24-rot0-reflect-zigzag": ["260ae6d533db67ef", [8, 16, 1321020, 6197936]],
  "image24-rot1-reflect-zigzag": ["aae1e276a70b2036", [16, 8, 1321020, 6197936]],
  "image24-rot2-reflect-zigzag": ["d5644beaf2d1d5b1", [8, 16, 1321020, 6197936]],
  "image24-rot3-reflect-zigzag": ["b2ad6bb236d770d0", [16, 8, 1321020, 6197936]],
  "unit-panel-rot1-zigzag": ["0ee4e9cec26ff948", []],
  "unit-second-panel": ["6a62f81a3aecca7e", []],
  "unit-clip-image-text": ["53ece6ee2bcb36f6", []],
  "image24-panels-rot1": ["4bde4c8ea2b10242", []],
  "image24-clip": ["171a9e9eda56d5cb", []],
  "image24-clip-rot3-zigzag": ["c8dc6b1db7663570", []],
  "image24-transparent": ["5b1c2caad013077d", []],
  "image24-frame": ["2ea9ab9198d16380", []],
  "image1-low-colours": ["7313b11dc73ae70d", []],
  "image1-palette": ["565f741c0fb41e75", []],
  "image2-blend": ["e740e9b25e333433", []],
  "image4-palette16": ["6e5bb9dbd409f765", []],
  "image8-raw": ["e442b84cc862580e", []],
  "image-string": ["7f27bb2cc442e2b5", []],
  "image-scale2-clip": ["131efc216baff12e", []],
  "image-scale1.5": ["46edfb3ca3ca645b", []],
  "image-scale0.5": ["e67a0105c0ee709a", []],
  "image-rotate0-centres": ["0772565b64144a3c", []],
  "image-rotate-quarter": ["9b38a20fbd95cb4b", []],
  "image-rotate-scale": ["f131367c7c4927dc", []],
  "image1-rotate": ["1d91f07c252fa8be", []],
  "image-scale2-rot1-zigzag": ["6c285e9b2f9b5584", []],
  "image-rotate-rot2": ["741165952335305d", []],
  "font-custom-32": ["a640c10bc6852ec2", [15, 258, 6, 8]],
  "font-custom-fixed-scaled": ["d614799f89c2cd39", [18, 16]],
  "font-custom-2bpp": ["0a987b71233b6034", []],
  "font-custom-clip": ["55a4df7ea676c45a", []],
  "font-clip-4x6": ["7d47ef688ff56b2f", []],
  "font-solid": ["2918d3875eb19820", []],
  "font-align-multiline": ["f4b8b66c9432f70c", []],
  "font-rotate-text": ["84f49d85da58ae88", []],
  "font-on-rot1-zigzag": ["94609f28d8dfe490", []],
  "font-scales": ["15692ab27e762056", [24, 24, 24]],
  "glyphs-4x6": ["ab656a15a2e9888e", []],
  "glyphs-6x8": ["310c4e95f7a6d8bb", []],
  "shapes-rot1-reflect": ["3bf2e9d94a9d1b5e", []],
  "shapes-rounded": ["97b7ad486bf24c0e", []],
  "shapes-clip-clear": ["a292bc4a1d8d3caa", []],
  "shapes-edges": ["3f91c564de72d695", [1193046, 0, 0]],
  "clear-reset-keeps-rotation": ["4c9f33a016fdfe49", []],
  "string-inline-image": ["001130a5f873b5b3", [16]],
  "errors": ["error", []],
  "error-image": ["error", []],
  "bpp1-draw": ["3c290adf39c3a121", [1, 0, 1, 1]],
  "bpp1-lsb-zigzag": ["53043f134ccf6e5c", []],
  "bpp1-rank-mask": ["95bd46f540d37938", []],
  "bpp1-scroll": ["94404615016b292f", []],
  "bpp1-scroll-lsb": ["ea40cc34149c3e26", []],
  "bpp1-raw-values": ["e7d8ae8adab7da9d", []],
  "bpp1-scroll-lsb-flat": ["54685be757fe3f6e", []],
  "mask-over-24": ["103677939e65dbb9", []],
  "scroll-linear": ["59c166d38394eaf4", []],
  "scroll-zigzag": ["6ce1d7d435d9eb21", []],
  "scroll-clipped-rot2": ["60c6820302eaeb95", []],
  "scroll-small-buffer": ["299ac83e1c63b631", []],
  "scroll-tiny-buffer": ["fe4678accfdc5030", []],
  "bpp1-raw-tiny-buffer": ["6f384780a449817f", []],
  "scroll-far": ["ff87dfd10bc6c01f", []],
  "blit-up-left": ["57494cac0c639fae", []],
  "blit-clipped": ["0749c95b0347bc6e", []],
};

test("every extra scenario is pinned", () => {
  assert.equal(EXTRA_SCENARIOS.map((s) => s.name).sort(), Object.keys(PINNED).sort());
});

for (const sc of EXTRA_SCENARIOS) {
  test("scenario " + sc.name + " draws what the interpreter drew", () => {
    const [pinned, results] = PINNED[sc.name] || ["(not pinned)", []];
    if (pinned === "error") {
      assert.throws(() => runScenario(sc));
      return;
    }
    const r = runScenario(sc);
    assert.is(fingerprint(r.buffer), pinned);
    assert.equal(r.widths, results);
  });
}

// ---- what the firmware relies on, spelled out --------------------------------------------------

const R = 0xff0000;
const G = 0x00ff00;
const B = 0x0000ff;
const Y = 0xffff00;
const C = 0x00ffff;
const M = 0xff00ff;

test("a 24 bpp frame drawn 1:1 onto a rotated zigzag panel lands in LED order", () => {
  // An 8x8 panel wired down columns, serpentine: buffer rows are columns, odd ones reversed.
  const g = Graphics.createArrayBuffer(8, 8, 24, { zigzag: true });
  g.setRotation(1);
  g.drawImage(image(3, 2, [R, G, B, Y, C, M]), 1, 2);
  assert.equal(memoryPicture(g, 8, { R, G, B, Y, C, M }), [
    "........",
    "..RY....", // drawing column 1, y 0..7 along the row (the zigzag undoes the flip)
    "....CG..", // drawing column 2, y 7..0
    "..BM....", // drawing column 3, y 0..7
    "........",
    "........",
    "........",
    "........",
  ]);
  assert.is(g.getWidth(), 8);
  assert.is(g.getPixel(1, 2), R);
  assert.is(g.getPixel(3, 3), M);
});

test("drawImage at a negative x shows the image's later columns (the next panel's share)", () => {
  const g = Graphics.createArrayBuffer(8, 8, 24, { zigzag: true });
  g.setRotation(3, true);
  const frame = image(10, 1, [0x010101, 0x020202, 0x030303, 0x040404, 0x050505, 0x060606, 0x070707, 0x080808, R, G]);
  g.drawImage(frame, -8, 0);
  assert.equal(memoryPicture(g, 8, { R, G }), ["R.......", ".......G", "........", "........", "........", "........", "........", "........"]);
});

test("the clip rectangle limits drawImage and drawString, also once rotated", () => {
  const g = Graphics.createArrayBuffer(16, 8, 24);
  g.setClipRect(3, 1, 12, 5);
  g.drawImage(image(3, 3, new Array(9).fill(0xffffff)), 2, 0);
  g.setColor(1, 0, 0);
  g.drawString("1234", 5, 2);
  g.setRotation(2);
  g.drawImage(image(2, 2, new Array(4).fill(0x808080)), 2, 1);
  assert.equal(memoryPicture(g, 16, { W: 0xffffff, R, g: 0x808080 }), [
    "................",
    "...WW...........", // the image's column 2 and row 0 are outside
    "...WW.R..RR.....", // "1" and "2"; "3" starts at x 13, past the clip
    ".....RR....R....",
    "......R...R.....",
    "......R..R..g...", // the glyphs' last row is cut; one pixel of the rotated image is inside
    "................",
    "................",
  ]);
});

test("setFontCustom from char 32 with a widths string", () => {
  const g = Graphics.createArrayBuffer(32, 8, 24);
  // 8 rows, a byte a column, MSB at the top: ' ' 2 columns, '!' 1, '"' 3, '#' 3 (an A).
  g.setFontCustom("\x00\x00\xb8\x40\x00\x40\x7c\x90\x7c", 32, "\x02\x01\x03\x03", 8);
  g.setColor(1, 1, 0);
  g.drawString("#!\"# #", 0, 0);
  // Below firstChar and past the widths: nothing drawn, no advance.
  g.drawString("\x1f#A#", 16, 0);
  assert.equal(memoryPicture(g, 32, { Y }), [
    ".Y.Y....Y....Y...Y..Y...........",
    "Y.Y.Y.YY.Y..Y.Y.Y.YY.Y..........",
    "Y.YY...Y.Y..Y.Y.Y.YY.Y..........",
    "YYYY...YYY..YYY.YYYYYY..........",
    "Y.YY...Y.Y..Y.Y.Y.YY.Y..........",
    "Y.Y....Y.Y..Y.Y.Y.YY.Y..........",
    "................................",
    "................................",
  ]);
  assert.is(g.stringWidth("#!\"# #"), 15);
  assert.is(g.stringWidth("##\n#"), 6);
  assert.is(g.stringWidth("\x1f#"), 3);
  // As in the interpreter, stringWidth counts 255 for a character past the widths string.
  assert.is(g.stringWidth("A"), 255);
  assert.is(g.getFontHeight(), 8);
});

test("colours: 0..1 channels, packed integers and strings; bytes are R, G, B", () => {
  const g = Graphics.createArrayBuffer(4, 1, 24);
  g.setColor(0.5, 0.25, 1).setPixel(0, 0);
  g.setColor(0x123456).setPixel(1, 0);
  g.setColor("#f80").setPixel(2, 0);
  g.setPixel(3, 0, -1);
  assert.equal(Array.from(new Uint8Array(g.buffer)), [0x80, 0x40, 0xff, 0x12, 0x34, 0x56, 0xff, 0x88, 0x00, 0xff, 0xff, 0xff]);
  assert.throws(() => g.setColor("#12"), /must be of the form/);
});

test("a 1 bpp image uses the colours cut to 16 bits, as the interpreter does", () => {
  const g = Graphics.createArrayBuffer(2, 1, 24);
  g.setColor(0xff8844).setBgColor(0x123456);
  g.drawImage({ width: 2, height: 1, bpp: 1, buffer: new Uint8Array([0x80]).buffer }, 0, 0);
  assert.is(g.getPixel(0, 0), 0x8844);
  assert.is(g.getPixel(1, 0), 0x3456);
});

test("installGraphics puts the class where the firmware looks for it", () => {
  const target: { Graphics?: unknown } = {};
  installGraphics(target);
  assert.is(target.Graphics, Graphics);
  const g = (target.Graphics as typeof Graphics).createArrayBuffer(32, 8, 24, { zigzag: true });
  assert.is(g.buffer.byteLength, 32 * 8 * 3);
  assert.throws(() => Graphics.createArrayBuffer(8, 8, 16), /24 or 1 bpp/);
});

test("1 bpp buffers hold a bit a pixel, most significant first unless msb is false", () => {
  const g = Graphics.createArrayBuffer(16, 2, 1);
  g.setPixel(0, 0).setPixel(9, 0).setPixel(15, 1);
  assert.equal(Array.from(new Uint8Array(g.buffer)), [0x80, 0x40, 0x00, 0x01]);
  assert.is(g.getPixel(9, 0), 1);
  assert.is(g.getPixel(8, 0), 0);
  const lsb = Graphics.createArrayBuffer(16, 2, 1, { msb: false });
  lsb.setPixel(0, 0).setPixel(9, 0).setPixel(15, 1);
  assert.equal(Array.from(new Uint8Array(lsb.buffer)), [0x01, 0x02, 0x00, 0x80]);
});

test.run();
