// The `draw` key: each command's pixels on a 32x8 canvas (with and without its colour), clipping
// at every edge, shapes of no size, bitmaps in both data forms, colours always chosen through the
// canvas, every refusal with its field, and what a full-size draw list costs once compiled.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Graphics, installGraphics } from "../harness/graphics";
import { fontFiles, serveStorage, storageOf, utf8 } from "./text-support";
import { compileDraw, runDraw, type DrawProgram } from "../../firmware/payload/draw";
import { drawText, layoutText } from "../../firmware/text/font";
import { isFailure, type Failure } from "../../firmware/core/failure";
import { COLOR_MESSAGE } from "../../firmware/color/color";
import type { Canvas } from "../../firmware/display/canvas";
import { canvas, rows as rowsOf } from "./payload-support";

installGraphics();

let restore = () => undefined as void;
test.before(() => {
  restore = serveStorage(storageOf(fontFiles()));
});
test.after(() => restore());

const WHITE = 0xffffff;
const LEGEND: { [rgb: number]: string } = { 0: ".", 0xffffff: "W", 0xff0000: "R", 0x00ff00: "G", 0x0000ff: "B", 0xffff00: "Y", 0x123456: "T" };

function rows(c: Canvas): string[] {
  return rowsOf(c, LEGEND);
}

function program(v: unknown): DrawProgram {
  const p = compileDraw(v);
  if (isFailure(p)) throw new Error("refused: " + JSON.stringify(p));
  return p;
}

/** The rows `cmds` draw on a blank 32x8 canvas, commands without a colour in `textColor`. */
function draw(cmds: unknown[], textColor = WHITE): string[] {
  const c = canvas();
  runDraw(c, program(cmds), textColor);
  return rows(c);
}

const BLANK = "................................";

/** Rows of a blank canvas with some cells set: [x, y, letter]. */
function picture(cells: [number, number, string][]): string[] {
  const r = [BLANK, BLANK, BLANK, BLANK, BLANK, BLANK, BLANK, BLANK].map((s) => s.split(""));
  for (const [x, y, l] of cells) r[y][x] = l;
  return r.map((s) => s.join(""));
}

function refused(v: unknown, field: string, message?: string): void {
  const f = compileDraw(v) as Failure;
  assert.ok(isFailure(f), "accepted: " + JSON.stringify(v));
  assert.is(f.status, 422);
  assert.is(f.code, "validationFailed");
  assert.is(f.field, field, JSON.stringify(v));
  if (message !== undefined) assert.is(f.message, message);
}

// ---- the commands ----------------------------------------------------------------------------

test("pixel: its colour, else the text colour; the four corners", () => {
  assert.equal(draw([["pixel", 0, 0, "#F00"], ["pixel", 31, 0, [0, 255, 0]], ["pixel", 0, 7, 255], ["pixel", 31, 7]]),
    picture([[0, 0, "R"], [31, 0, "G"], [0, 7, "B"], [31, 7, "W"]]));
  assert.equal(draw([["pixel", 5, 5, null]], 0x123456), picture([[5, 5, "T"]]));
  assert.equal(draw([["pixel", 5.9, 2.2]], 0x123456), picture([[5, 2, "T"]]), "coordinates are truncated");
});

test("pixels: colour first, null for the text colour; points off the panel are dropped", () => {
  assert.equal(draw([["pixels", "#FF0", 2, 1, 7, 0, 13, 3, -1, 0, 32, 4, 0, 8, 0, -1]]),
    picture([[2, 1, "Y"], [7, 0, "Y"], [13, 3, "Y"]]));
  assert.equal(draw([["pixels", null, 1, 1, 30, 6]], 0x123456), picture([[1, 1, "T"], [30, 6, "T"]]));
  assert.equal(draw([["pixels", "#F00"]]), picture([]), "no points");
});

test("line: both ends included, in either direction; the text colour by default", () => {
  assert.equal(draw([["line", 3, 2, 8, 2, "#F00"], ["line", 5, 6, 5, 4]]),
    picture([[3, 2, "R"], [4, 2, "R"], [5, 2, "R"], [6, 2, "R"], [7, 2, "R"], [8, 2, "R"], [5, 4, "W"], [5, 5, "W"], [5, 6, "W"]]));
  assert.equal(draw([["line", 0, 0, 7, 7, "#00F"]]), draw([["line", 7, 7, 0, 0, "#00F"]]));
  assert.equal(draw([["line", 0, 0, 7, 7, "#00F"]]), picture([0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i, i, "B"] as [number, number, string])));
});

test("line: one far outside the panel is clipped and keeps its slope", () => {
  // y = x / 4 through the origin, its ends thousands of pixels away: four columns a row, the
  // pixels of a short line on the same slope (row 8 is off the panel).
  const far = draw([["line", -3200, -800, 3200, 800, "#0F0"]]);
  assert.equal(far, [
    "GG..............................",
    "..GGGG..........................",
    "......GGGG......................",
    "..........GGGG..................",
    "..............GGGG..............",
    "..................GGGG..........",
    "......................GGGG......",
    "..........................GGGG..",
  ]);
  assert.equal(draw([["line", -64, -16, 64, 16, "#0F0"]]), far);
  assert.equal(draw([["line", -100000, 3, 100000, 3, "#F00"]])[3], "R".repeat(32), "a row from far left to far right");
  assert.equal(draw([["line", 16, -1e9, 16, 1e9, "#F00"]]).map((r) => r[16]).join(""), "RRRRRRRR", "a column");
  assert.equal(draw([["line", -1e9, -1e9, -5, 3]]), picture([]), "entirely off the panel");
});

test("rect: a one-pixel outline spanning x..x+w-1; rectFill fills it", () => {
  assert.equal(draw([["rect", 2, 1, 5, 3, "#F00"], ["rectFill", 10, 2, 3, 2, "#0F0"], ["rect", 20, 0, 1, 1]]), [
    "....................W...........",
    "..RRRRR.........................",
    "..R...R...GGG...................",
    "..RRRRR...GGG...................",
    BLANK, BLANK, BLANK, BLANK,
  ]);
  const side = "B" + ".".repeat(30) + "B";
  assert.equal(draw([["rect", 0, 0, 32, 8, "#00F"]]), ["B".repeat(32), side, side, side, side, side, side, "B".repeat(32)]);
});

test("rect and rectFill: clipped at all four edges", () => {
  // Hanging off the left and top, then off the right and bottom.
  assert.equal(draw([["rect", -3, -1, 6, 3, "#F00"], ["rectFill", 29, 6, 5, 4, "#0F0"]]), [
    "..R.............................",
    "RRR.............................",
    BLANK, BLANK, BLANK, BLANK,
    ".............................GGG",
    ".............................GGG",
  ]);
  assert.equal(draw([["rect", 28, 5, 10, 10, "#00F"], ["rectFill", -2, 3, 4, 2, "#F00"]]), [
    BLANK, BLANK, BLANK,
    "RR..............................",
    "RR..............................",
    "............................BBBB",
    "............................B...",
    "............................B...",
  ]);
  assert.equal(draw([["rectFill", -5, -5, 100, 100, "#0F0"]]), Array(8).fill("G".repeat(32)));
  assert.equal(draw([["rect", -5, -5, 100, 100, "#0F0"]]), picture([]), "the outline lies off the panel");
  assert.equal(draw([["rect", -10, 6, 100, 10, "#0F0"]])[6], "G".repeat(32), "only its top edge shows");
  assert.equal(draw([["rectFill", -1e9, 7, 2e9, 1e9, "#F00"]])[7], "R".repeat(32), "huge sizes");
});

test("zero or negative sizes and radii draw nothing; radius 0 is the centre pixel", () => {
  assert.equal(draw([["rect", 1, 1, 0, 3], ["rect", 1, 1, 3, 0], ["rectFill", 1, 1, -2, 3], ["rectFill", 4, 1, 3, -1],
    ["circle", 5, 5, -1], ["circleFill", 5, 5, -3], ["bitmap", 0, 0, 0, 2, ["#F00"]], ["bitmap", 0, 0, 2, -1, ["#F00"]],
    ["rect", 1, 1, 0.5, 3]]), picture([]));
  assert.equal(draw([["circle", 3, 3, 0, "#F00"], ["circleFill", 9, 4, 0, "#0F0"]]), picture([[3, 3, "R"], [9, 4, "G"]]));
  assert.equal(compileDraw([["rect", 1, 1, 0, 3], ["pixel", 200, 2], ["circle", -50, 4, 10]]), new Uint8Array(0), "nothing to keep");
});

test("circle: outline around the centre; circleFill: a round disc covering it", () => {
  assert.equal(draw([["circle", 8, 4, 3, "#0F0"], ["circleFill", 24, 4, 3, "#F00"]]), [
    "................................",
    ".......GGG.............RRR......",
    "......G...G...........RRRRR.....",
    ".....G.....G.........RRRRRRR....",
    ".....G.....G.........RRRRRRR....",
    ".....G.....G.........RRRRRRR....",
    "......G...G...........RRRRR.....",
    ".......GGG.............RRR......",
  ]);
  assert.equal(draw([["circleFill", 2, 2, 2, "#00F"], ["circleFill", 10, 2, 1]]), [
    ".BBB............................",
    "BBBBB.....W.....................",
    "BBBBB....WWW....................",
    "BBBBB.....W.....................",
    ".BBB............................",
    BLANK, BLANK, BLANK,
  ]);
  // A disc always covers the outline of the same circle.
  for (let r = 1; r <= 12; r++) {
    const both = draw([["circle", 16, 4, r, "#F00"], ["circleFill", 16, 4, r, "#0F0"]]);
    assert.ok(!both.join("").includes("R"), "radius " + r);
  }
});

test("circle: clipped at the edges, and circles far larger than the panel", () => {
  assert.equal(draw([["circle", 0, 0, 2, "#F00"], ["circle", 31, 7, 2, "#0F0"]]), [
    "..R.............................",
    "..R.............................",
    "RR..............................",
    BLANK, BLANK,
    "..............................GG",
    ".............................G..",
    ".............................G..",
  ]);
  assert.equal(draw([["circleFill", 16, 4, 100000, "#F00"]]), Array(8).fill("R".repeat(32)));
  assert.equal(draw([["circle", 16, 4, 100000, "#F00"]]), picture([]), "the panel lies inside it");
  assert.equal(draw([["circle", 16, -996, 1000, "#F00"]])[4], "R".repeat(32), "its bottom edge crosses row 4");
  assert.equal(draw([["circleFill", 16, -996, 1000, "#F00"]]).slice(3, 6), ["R".repeat(32), "R".repeat(32), BLANK]);
  assert.equal(draw([["circleFill", 1e12, 4, 10]]), picture([]));
  // Near the 32-bit limit: the left edge of a disc and of a circle at column 10.
  assert.equal(draw([["circleFill", 2147483000, 4, 2147482990, "#F00"]]), Array(8).fill("..........".padEnd(32, "R")));
  assert.equal(draw([["circle", 2147483000, 4, 2147482990, "#F00"]]), Array(8).fill("..........R".padEnd(32, ".")));
});

test("text: the glyph top at y, in the page's font and the text colour by default", () => {
  for (const font of ["small", "large"] as const) {
    const c = canvas();
    runDraw(c, program([["text", 1, 1, "12:30"], ["text", 20, 0, utf8("Ä€"), "#F00"]]), 0x123456, font);
    const expected = canvas();
    expected.color(0x123456);
    drawText(expected.g, layoutText("12:30", font, false), 1, 1);
    expected.color(0xff0000);
    drawText(expected.g, layoutText(utf8("Ä€"), font, false), 20, 0);
    assert.equal(rows(c), rows(expected), font);
    assert.ok(rows(c).join("").includes("T") && rows(c).join("").includes("R"));
  }
  // Raw: no upper-casing.
  assert.not.equal(draw([["text", 0, 1, "abc"]]), draw([["text", 0, 1, "ABC"]]));
  assert.equal(draw([["text", 0, 1, "ab"]]).slice(0, 1), [BLANK]);
});

test("text: clipped at the edges", () => {
  const whole = draw([["text", 0, 1, "HI"]]);
  const left = draw([["text", -2, 1, "HI"]]);
  assert.equal(left.map((r) => r.slice(0, 10)), whole.map((r) => r.slice(2, 12)));
  const up = draw([["text", 0, -2, "HI"]]);
  assert.equal(up.slice(0, 4), whole.slice(3, 7));
  assert.equal(draw([["text", 40, 1, "HI"], ["text", -5000, 1, "HI"], ["text", 0, 20, "HI"]]), picture([]));
});

// ---- bitmaps ---------------------------------------------------------------------------------

const CHECKER = ["#F00", "#0F0", "#F00", "#0F0", "#0F0", "#F00", "#0F0", "#F00"];
const rgb888 = (colors: number[]) => Buffer.from(colors.flatMap((c) => [c >> 16, (c >> 8) & 255, c & 255])).toString("base64");
const R = 0xff0000;
const G = 0x00ff00;

test("bitmap: an array of colours, row by row", () => {
  assert.equal(draw([["bitmap", 1, 2, 4, 2, CHECKER]]), picture([
    [1, 2, "R"], [2, 2, "G"], [3, 2, "R"], [4, 2, "G"], [1, 3, "G"], [2, 3, "R"], [3, 3, "G"], [4, 3, "R"],
  ]));
  assert.equal(draw([["bitmap", 0, 0, 2, 1, [[0, 0, 255], ["HSV", 60, 100, 100]]]]), picture([[0, 0, "B"], [1, 0, "Y"]]));
});

test("bitmap: base64 RGB888 draws what the array does", () => {
  const b64 = rgb888([R, G, R, G, G, R, G, R]);
  assert.equal(draw([["bitmap", 1, 2, 4, 2, b64]]), draw([["bitmap", 1, 2, 4, 2, CHECKER]]));
  // A stray byte at the end makes padding; it may be left out.
  const odd = Buffer.concat([Buffer.from(rgb888([R, G, 0x0000ff, 0xffff00, G]), "base64"), Buffer.from([7])]).toString("base64");
  assert.ok(odd.endsWith("=="));
  const five = draw([["bitmap", 0, 0, 5, 1, ["#F00", "#0F0", "#00F", "#FF0", "#0F0"]]]);
  assert.equal(draw([["bitmap", 0, 0, 5, 1, odd]]), five);
  assert.equal(draw([["bitmap", 0, 0, 5, 1, odd.replace(/=+$/, "")]]), five);
});

test("bitmap: short data leaves cells undrawn, extra data is ignored", () => {
  const under = [["rectFill", 0, 0, 6, 3, "#123456"]];
  assert.equal(draw([...under, ["bitmap", 0, 0, 4, 2, ["#F00", "#0F0", "#F00", "#0F0", "#0F0"]]]).slice(0, 3), [
    "RGRGTT..........................",
    "GTTTTT..........................",
    "TTTTTT..........................",
  ]);
  assert.equal(draw([...under, ["bitmap", 0, 0, 4, 2, rgb888([R, G, R, G, G])]]), draw([...under, ["bitmap", 0, 0, 4, 2, ["#F00", "#0F0", "#F00", "#0F0", "#0F0"]]]));
  // Two bytes short of a pixel: the partial pixel is not drawn.
  assert.equal(draw([...under, ["bitmap", 0, 0, 2, 1, Buffer.from([255, 0, 0, 0, 255]).toString("base64")]]).slice(0, 1),
    ["RTTTTT.........................."]);
  assert.equal(draw([["bitmap", 0, 0, 2, 1, [...CHECKER, "#00F"]]]), picture([[0, 0, "R"], [1, 0, "G"]]));
  assert.equal(draw([["bitmap", 0, 0, 2, 1, rgb888([R, G, G, R, R])]]), picture([[0, 0, "R"], [1, 0, "G"]]));
  assert.equal(draw([...under, ["bitmap", 0, 0, 4, 2, []], ["bitmap", 0, 0, 4, 2, ""]]), draw(under));
});

test("bitmap: clipped at all four edges", () => {
  const colors: number[] = [];
  for (let i = 0; i < 6 * 4; i++) colors.push(i % 2 ? R : G);
  const bmp = (x: number, y: number) => draw([["bitmap", x, y, 6, 4, rgb888(colors)]]);
  const at = (x: number, y: number) => {
    const cells: [number, number, string][] = [];
    for (let i = 0; i < 24; i++) {
      const px = x + (i % 6);
      const py = y + Math.floor(i / 6);
      if (px >= 0 && px < 32 && py >= 0 && py < 8) cells.push([px, py, i % 2 ? "R" : "G"]);
    }
    return picture(cells);
  };
  for (const [x, y] of [[-3, 2], [29, 2], [10, -2], [10, 6], [-5, -3], [30, 7], [-6, 0], [32, 0]]) {
    assert.equal(bmp(x, y), at(x, y), x + "," + y);
  }
  // Short data that ends in a row above the panel: nothing of that row shows.
  assert.equal(draw([["bitmap", 0, -1, 4, 3, rgb888([R, R, R, R, G, G])]]), picture([[0, 0, "G"], [1, 0, "G"]]));
});

test("bitmap: more than 256 colours, larger than the panel", () => {
  // 488 cells show on a 64x8 canvas, nearly all of them in colours of their own.
  const w = 70;
  const h = 12;
  const colors: number[] = [];
  for (let i = 0; i < w * h; i++) colors.push((Math.imul(i + 1, 2654435761) >>> 8) | 1);
  assert.ok(new Set(colors).size > 800);
  for (const data of [rgb888(colors), colors]) {
    const c = canvas(64, 8);
    runDraw(c, program([["bitmap", -3, -2, w, h, data]]), WHITE);
    for (let y = 0; y < 8; y++) for (let x = 0; x < 64; x++) {
      assert.is(c.g.getPixel(x, y), colors[(y + 2) * w + x + 3], x + "," + y);
    }
  }
});

test("every colour goes through the canvas, bitmaps included", () => {
  const swap = (rgb: number) => ((rgb & 0xff) << 16) | (rgb >> 8);
  const c = canvas(32, 8, swap);
  runDraw(c, program([["pixel", 0, 0, "#123456"], ["pixels", "#00F", 1, 0], ["line", 2, 0, 2, 0], ["rect", 3, 0, 1, 1, "#F00"],
    ["rectFill", 4, 0, 1, 1, "#0F0"], ["circleFill", 5, 0, 0, "#FF0"], ["bitmap", 6, 0, 2, 1, ["#F00", "#0F0"]],
    ["bitmap", 8, 0, 1, 1, rgb888([0xabcdef])]]), 0x00ffff);
  const got = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((x) => c.g.getPixel(x, 0));
  assert.equal(got, [0x123456, 0x0000ff, 0x00ffff, 0xff0000, 0x00ff00, 0xffff00, 0xff0000, 0x00ff00, 0xabcdef].map(swap));
});

test("commands draw in order, the last one on top", () => {
  assert.equal(draw([["rectFill", 0, 0, 32, 8, "#F00"], ["pixel", 3, 3, "#0F0"], ["rectFill", 3, 0, 1, 2, "#00F"]]).slice(0, 4), [
    "RRRBRRRRRRRRRRRRRRRRRRRRRRRRRRRR",
    "RRRBRRRRRRRRRRRRRRRRRRRRRRRRRRRR",
    "R".repeat(32),
    "RRRGRRRRRRRRRRRRRRRRRRRRRRRRRRRR",
  ]);
});

test("more distinct colours than the table holds keep their own colours", () => {
  const cmds: unknown[] = [];
  for (let i = 0; i < 256; i++) cmds.push(["pixel", i % 32, i >> 5, (i * 0x010101) ^ 0x00ff00]);
  cmds.push(["pixel", 0, 0, 0xff00ff]);
  const c = canvas();
  runDraw(c, program(cmds), WHITE);
  for (let i = 1; i < 256; i++) assert.is(c.g.getPixel(i % 32, i >> 5), (i * 0x010101) ^ 0x00ff00, "pixel " + i);
  assert.is(c.g.getPixel(0, 0), 0xff00ff);
});

test("a wider panel shows what lies right of column 31, up to column 127", () => {
  const c = canvas(128, 8);
  runDraw(c, program([["pixel", 40, 1, "#F00"], ["line", 0, 7, 127, 7, "#0F0"], ["circleFill", 60, 3, 1, "#00F"],
    ["pixels", "#FF0", 31, 0, 100, 0, 127, 6], ["pixels", "#F00", 30, 0, 20, 5], ["rect", 100, 2, 28, 3, "#F00"]]), WHITE);
  assert.is(c.g.getPixel(40, 1), 0xff0000);
  assert.is(c.g.getPixel(127, 7), 0x00ff00);
  assert.is(c.g.getPixel(61, 3), 0x0000ff);
  assert.equal([c.g.getPixel(31, 0), c.g.getPixel(100, 0), c.g.getPixel(127, 6)], [0xffff00, 0xffff00, 0xffff00]);
  assert.equal([c.g.getPixel(30, 0), c.g.getPixel(20, 5)], [0xff0000, 0xff0000]);
  assert.equal([c.g.getPixel(100, 3), c.g.getPixel(127, 3), c.g.getPixel(113, 2), c.g.getPixel(113, 3)], [0xff0000, 0xff0000, 0xff0000, 0]);
});

test("a long text far to the left shows its end", () => {
  const s = "x".repeat(9000) + "HI";
  const line = layoutText(s, "small", false);
  const x = 20 - line.width;
  assert.ok(x < -0x8000);
  const c = canvas();
  runDraw(c, program([["text", x, 1, s]]), WHITE);
  const expected = canvas();
  expected.color(WHITE);
  drawText(expected.g, line, x, 1);
  assert.equal(rows(c), rows(expected));
  assert.ok(rows(c)[1].slice(13, 20).includes("W"), "the last glyphs show");
});

// ---- refusals --------------------------------------------------------------------------------

test("a draw value that is not an array: field draw", () => {
  refused({}, "draw", "must be an array of commands");
  refused("pixel", "draw");
});

test("bad elements: field draw[<i>] of the first one", () => {
  refused([["pixel", 0, 0], 5], "draw[1]", "must be an array: a command name, then its arguments");
  refused([{ pixel: [0, 0] }], "draw[0]");
  refused([["pixel", 0, 0], ["pixel", 0, 0], ["Pixel", 0, 0]], "draw[2]");
  refused([["dot", 0, 0]], "draw[0]", "unknown command (pixel, pixels, line, rect, rectFill, circle, circleFill, text or bitmap)");
  refused([[]], "draw[0]");
  refused([[5, 0, 0]], "draw[0]");
  refused([["pixel", 0, 0], ["line", 0, 0, 1, 1, "#GGG"], ["dot"]], "draw[1]", COLOR_MESSAGE);
});

test("wrong argument counts", () => {
  const cases: [unknown[], string][] = [
    [["pixel", 0], "pixel takes x, y and an optional color"],
    [["pixel", 0, 0, "#FFF", 1], "pixel takes x, y and an optional color"],
    [["pixels"], "pixels takes a color (or null), then x, y pairs"],
    [["line", 0, 0, 1], "line takes x1, y1, x2, y2 and an optional color"],
    [["line", 0, 0, 1, 1, "#FFF", 2], "line takes x1, y1, x2, y2 and an optional color"],
    [["rect", 0, 0, 1], "rect takes x, y, w, h and an optional color"],
    [["rectFill", 0, 0, 1, 1, "#FFF", 1], "rectFill takes x, y, w, h and an optional color"],
    [["circle", 0, 0], "circle takes cx, cy, r and an optional color"],
    [["circleFill", 0, 0, 1, "#FFF", 1], "circleFill takes cx, cy, r and an optional color"],
    [["text", 0, 0], "text takes x, y, a string and an optional color"],
    [["text", 0, 0, "a", "#FFF", 1], "text takes x, y, a string and an optional color"],
    [["bitmap", 0, 0, 1, 1], "bitmap takes x, y, w, h and data"],
    [["bitmap", 0, 0, 1, 1, [], "#FFF"], "bitmap takes x, y, w, h and data"],
  ];
  for (const [cmd, message] of cases) refused([["pixel", 1, 1], cmd], "draw[1]", message);
});

test("non-numeric coordinates, sizes and radii", () => {
  const message = "coordinates, sizes and radii must be numbers";
  for (const cmd of [["pixel", "1", 0], ["pixel", 0, null], ["pixels", "#FFF", 0, "1"], ["line", 0, 0, 1, true],
    ["rect", 0, 0, "5", 1], ["rectFill", 0, [0], 1, 1], ["circle", 0, 0, "2"], ["circleFill", {}, 0, 2],
    ["text", "0", 0, "a"], ["bitmap", 0, 0, "2", 1, []], ["bitmap", 0, 0, 2, null, []]]) {
    refused([cmd], "draw[0]", message);
  }
});

test("pixels with an odd coordinate tail", () => {
  refused([["pixels", "#FFF", 0, 0, 1]], "draw[0]", "pixels takes x, y pairs after its color: the last coordinate has no partner");
  refused([["pixels", null, 3]], "draw[0]");
  refused([["pixels", 0, 1, 2, 3]], "draw[0]", "pixels takes x, y pairs after its color: the last coordinate has no partner");
});

test("malformed colours anywhere in an element", () => {
  for (const cmd of [["pixel", 0, 0, "red"], ["pixels", "#12", 0, 0], ["pixels", [1, 2], 0, 0], ["line", 0, 0, 1, 1, "#1234567"],
    ["rect", 0, 0, 1, 1, -1], ["rectFill", 0, 0, 1, 1, 0x1000000], ["circle", 0, 0, 1, ["hsv", 0, 0, 0]], ["circleFill", 0, 0, 1, {}],
    ["text", 0, 0, "a", true], ["bitmap", 0, 0, 2, 1, ["#F00", "nope"]], ["bitmap", 0, 0, 1, 1, ["#F00", "#0F0", null]]]) {
    refused([cmd], "draw[0]", COLOR_MESSAGE);
  }
});

test("a text that is not a string, bitmap data that is neither form", () => {
  refused([["text", 0, 0, 5]], "draw[0]", "text takes a string after x and y");
  for (const data of [5, null, {}, "A", "AB!D", "QQ==QUJD", "QUJD QUJD", "QR=="]) {
    refused([["bitmap", 0, 0, 1, 1, data]], "draw[0]", "bitmap data must be base64 RGB888 or an array of colors");
  }
  // Not visible, still checked.
  refused([["bitmap", 100, 100, 1, 1, "@@@@"]], "draw[0]");
  refused([["bitmap", 0, 0, 0, 0, ["#F00", "nope"]]], "draw[0]", COLOR_MESSAGE);
});

// ---- size ------------------------------------------------------------------------------------

/** An 8 KB draw list of about 370 typical commands (pixels, lines, rects, circles, labels). */
function bigDrawList(): unknown[] {
  const cmds: unknown[] = [];
  const colors = ["#F00", "#0F0", "#00F", "#FF0", "#0FF", "#F0F", "#FFF", "#888"];
  let i = 0;
  while (JSON.stringify(cmds).length < 8000) {
    const c = colors[i % colors.length];
    switch (i % 6) {
      case 0: cmds.push(["pixel", i % 32, i % 8, c]); break;
      case 1: cmds.push(["line", i % 32, 0, (i * 7) % 32, 7, c]); break;
      case 2: cmds.push(["rect", i % 30, i % 6, 3, 2]); break;
      case 3: cmds.push(["circle", i % 32, 4, 2, c]); break;
      case 4: cmds.push(["pixels", c, i % 32, 1, (i + 3) % 32, 5]); break;
      default: cmds.push(["rectFill", i % 28, 1, 4, 3, c]);
    }
    i++;
  }
  cmds.pop();
  return cmds;
}

test("an 8 KB draw list compiles to at most 2,600 bytes (under 200 interpreter variables)", () => {
  const cmds = bigDrawList();
  const size = JSON.stringify({ draw: cmds }).length;
  assert.ok(size > 7800 && size <= 8192, "payload of " + size + " bytes");
  assert.ok(cmds.length >= 300, cmds.length + " commands");
  const p = program(cmds);
  assert.ok(p.length <= 2600, "compiled to " + p.length + " bytes");
  // Dense single pixels: the worst case per byte of JSON.
  const pixels: unknown[] = [];
  while (JSON.stringify(pixels).length < 8000) pixels.push(["pixel", pixels.length % 32, pixels.length % 8]);
  assert.ok(program(pixels).length <= 2600, "single pixels: " + program(pixels).length + " bytes");
});

test.run();
