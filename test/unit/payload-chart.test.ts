// barChart, lineChart and progress on a 32x8 canvas: what compiling keeps, bar widths and gaps,
// both scales, negative values, the 16-value cap, the line's two-point minimum, the icon column,
// the progress bar's fill and track, and colour ramps.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Graphics, installGraphics } from "../harness/graphics";
import { compileChart, drawBarChart, drawLineChart, type ChartData } from "../../firmware/payload/chart";
import { drawProgress } from "../../firmware/payload/progress";
import type { Canvas } from "../../firmware/display/canvas";
import { canvas, rows as rowsOf } from "./payload-support";

installGraphics();

const LEGEND: { [rgb: number]: string } = { 0: ".", 0x00ff00: "G", 0xff8800: "O", 0xffffff: "W", 0x202020: "t", 0xff0000: "R" };

function rows(c: Canvas): string[] {
  return rowsOf(c, LEGEND);
}

function data(v: unknown[]): ChartData {
  const d = compileChart(v);
  if (!d) throw new Error("not compiled");
  return d;
}

function bars(v: unknown[], left = 0, autoscale = true): string[] {
  const c = canvas();
  drawBarChart(c, data(v), left, autoscale, 0x00ff00);
  return rows(c);
}

function line(v: unknown[], left = 0, autoscale = true): string[] {
  const c = canvas();
  drawLineChart(c, data(v), left, autoscale, 0xff8800);
  return rows(c);
}

function progress(percent: number, left = 0): string {
  const c = canvas();
  drawProgress(c, percent, left, 0x00ff00, 0x202020);
  const r = rows(c);
  assert.equal(r.slice(0, 7).join(""), ".".repeat(32 * 7), "only the bottom row");
  return r[7];
}

const BLANK = ".".repeat(32);

test("compileChart: arrays only, the first 16 values, anything but a number is 0", () => {
  assert.is(compileChart({}), null);
  assert.is(compileChart("1,2"), null);
  assert.is(compileChart(null), null);
  assert.equal(Array.from(data([])), []);
  assert.equal(Array.from(data([1, "2", null, true, -3.5, [4], { v: 1 }, 7])), [1, 0, 0, 0, -3.5, 0, 0, 7]);
  const many = Array.from({ length: 20 }, (_, i) => i + 1);
  assert.equal(Array.from(data(many)), many.slice(0, 16));
});

test("bars: the whole width shared with 1px gaps, the largest value full height", () => {
  assert.equal(bars([2, 5, 3, 8, 6, 4, 7, 1]), [
    "............GGG.................",
    "............GGG.........GGG.....",
    "............GGG.GGG.....GGG.....",
    "....GGG.....GGG.GGG.....GGG.....",
    "....GGG.....GGG.GGG.GGG.GGG.....",
    "....GGG.GGG.GGG.GGG.GGG.GGG.....",
    "GGG.GGG.GGG.GGG.GGG.GGG.GGG.....",
    "GGG.GGG.GGG.GGG.GGG.GGG.GGG.GGG.",
  ]);
  // Autoscale: the shape, whatever the magnitude.
  assert.equal(bars([20, 50, 30, 80, 60, 40, 70, 10]), bars([2, 5, 3, 8, 6, 4, 7, 1]));
  // A single bar takes the whole width; two share it.
  assert.equal(bars([3]), Array(8).fill("G".repeat(32)));
  assert.equal(bars([1, 2])[7], "G".repeat(15) + "." + "G".repeat(15) + ".");
});

test("bars: beside an icon they start at its column", () => {
  const r = bars([8, 4], 9);
  assert.equal(r[0], ".".repeat(9) + "G".repeat(11) + "." + ".".repeat(11));
  assert.equal(r[7], ".".repeat(9) + "G".repeat(11) + "." + "G".repeat(11));
});

test("bars: without autoscale the range is 0..8, larger values clamp, zero and below draw nothing", () => {
  assert.equal(bars([16, 4, -3, 0, 8, 1, 2, 3], 0, false), [
    "GGG.............GGG.............",
    "GGG.............GGG.............",
    "GGG.............GGG.............",
    "GGG.............GGG.............",
    "GGG.GGG.........GGG.............",
    "GGG.GGG.........GGG.........GGG.",
    "GGG.GGG.........GGG.....GGG.GGG.",
    "GGG.GGG.........GGG.GGG.GGG.GGG.",
  ]);
  assert.equal(bars([20, 50], 0, false), Array(8).fill("G".repeat(15) + "." + "G".repeat(15) + "."));
});

test("bars: negative values hang below the zero line", () => {
  // Range -4..4: zero falls between rows 3 and 4.
  assert.equal(bars([-4, 4, -2, 2]), [
    "........GGGGGGG.................",
    "........GGGGGGG.................",
    "........GGGGGGG.........GGGGGGG.",
    "........GGGGGGG.........GGGGGGG.",
    "GGGGGGG.........GGGGGGG.........",
    "GGGGGGG.........GGGGGGG.........",
    "GGGGGGG.........................",
    "GGGGGGG.........................",
  ]);
  // All negative: the range still reaches up to 1, so zero falls below row 0.
  assert.equal(bars([-8, -2]), [
    BLANK,
    "GGGGGGGGGGGGGGG.GGGGGGGGGGGGGGG.",
    "GGGGGGGGGGGGGGG.GGGGGGGGGGGGGGG.",
    "GGGGGGGGGGGGGGG.................",
    "GGGGGGGGGGGGGGG.................",
    "GGGGGGGGGGGGGGG.................",
    "GGGGGGGGGGGGGGG.................",
    "GGGGGGGGGGGGGGG.................",
  ]);
  assert.equal(bars([0, 0, 0]), Array(8).fill(BLANK), "all zero: nothing");
  assert.equal(bars([1, 100]).map((r) => r.slice(0, 16)), Array(8).fill(".".repeat(16)), "under half a row rounds away");
  assert.equal(bars([1, 16])[7].slice(0, 16), "G".repeat(15) + ".", "half a row shows");
});

test("bars: 16 values fit with 1px bars; a 17th is dropped before scaling", () => {
  const values = Array.from({ length: 16 }, (_, i) => i + 1);
  const r = bars([...values, 1000]);
  assert.equal(r[7], "G.".repeat(16));
  assert.equal(r[0], ".".repeat(28) + "G.G.", "15 of 16 is seven and a half rows: it shows as eight");
  // Beside an icon the 1px bars run past the right edge and are cut there.
  assert.equal(bars(values, 9)[7], ".".repeat(9) + "G.".repeat(11) + "G");
});

test("line: first point at the left, last at the right edge, min on the bottom row, max on the top", () => {
  assert.equal(line([0, 1]), [
    "..............................OO",
    ".........................OOOOO..",
    ".....................OOOO.......",
    "................OOOOO...........",
    "............OOOO................",
    ".......OOOOO....................",
    "...OOOO.........................",
    "OOO.............................",
  ]);
  const c = line([0, 1]);
  assert.is(c[7][0], "O");
  assert.is(c[0][31], "O");
  assert.is(c.join("").replace(/\./g, "").length, 32, "one pixel per column");
  const zig = line([3, 4, 6, 5, 7, 8, 6, 4]);
  // Eight points spread evenly: x = round(i * 31 / 7).
  const xs = [0, 4, 9, 13, 18, 22, 27, 31];
  const ys = [3, 4, 6, 5, 7, 8, 6, 4].map((v) => Math.round((8 - v) * 7 / 8));
  xs.forEach((x, i) => assert.is(zig[ys[i]][x], "O", "point " + i));
});

test("line: fewer than two points draw nothing; beside an icon it starts at its column", () => {
  assert.equal(line([5]), Array(8).fill(BLANK));
  assert.equal(line([]), Array(8).fill(BLANK));
  const r = line([1, 1], 9);
  assert.equal(r[0], ".".repeat(9) + "O".repeat(23));
});

test("line: negative values, and the fixed 0..8 range clamping to the edges", () => {
  const r = line([-3, 5]);
  assert.is(r[7][0], "O");
  assert.is(r[0][31], "O");
  const fixed = line([0, 8, 12, -4], 0, false);
  assert.is(fixed[7][0], "O", "0 on the bottom row");
  assert.is(fixed[0][10], "O", "8 on the top row");
  assert.is(fixed[0][21], "O", "12 clamps to the top");
  assert.is(fixed[7][31], "O", "-4 clamps to the bottom");
});

test("charts colour each bar or point from a ramp when one is given", () => {
  const c = canvas();
  const ramp = (t: number) => (t >= 0.99 ? 0xff0000 : t >= 0.5 ? 0xffffff : 0x00ff00);
  drawBarChart(c, data([1, 5, 10]), 0, true, 0x202020, ramp);
  const r = rows(c);
  assert.equal(r[7], "GGGGGGGGGG.WWWWWWWWWW.RRRRRRRRRR");
  const l = canvas();
  drawLineChart(l, data([0, 10]), 0, true, 0x202020, ramp);
  assert.is(rows(l)[7][0], "G");
  assert.is(rows(l)[0][31], "R");
});

test("progress: the bottom row, filled part then track; 0 is all track, below 0 nothing, above 100 full", () => {
  assert.is(progress(64), "G".repeat(20) + "t".repeat(12));
  assert.is(progress(30), "G".repeat(9) + "t".repeat(23));
  assert.is(progress(0), "t".repeat(32));
  assert.is(progress(100), "G".repeat(32));
  assert.is(progress(150), "G".repeat(32));
  assert.is(progress(-1), BLANK);
  assert.is(progress(-0.5), BLANK);
  assert.is(progress(NaN), BLANK);
  assert.is(progress(99.9), "G".repeat(31) + "t");
});

test("progress: beside an icon it starts a column left of the text, at x=8", () => {
  assert.is(progress(50, 9), ".".repeat(8) + "G".repeat(12) + "t".repeat(12));
  assert.is(progress(0, 9), ".".repeat(8) + "t".repeat(24));
});

test("progress: a ramp along the bar, revealed up to the fill", () => {
  const c = canvas();
  drawProgress(c, 50, 0, 0x00ff00, 0x202020, (t) => (t < 0.25 ? 0xff0000 : 0xffffff));
  assert.is(rows(c)[7], "R".repeat(8) + "W".repeat(8) + "t".repeat(16));
});

test("a wider canvas: charts and the bar span it", () => {
  const c = canvas(64);
  drawBarChart(c, data([1, 1]), 0, true, 0x00ff00);
  drawProgress(c, 50, 0, 0xff0000, 0x202020);
  assert.equal(rows(c)[0], "G".repeat(31) + "." + "G".repeat(31) + ".");
  assert.equal(rows(c)[7], "R".repeat(32) + "t".repeat(32));
});

test.run();
