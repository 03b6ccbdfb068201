// The decorations of a pushed app in the real interpreter ($ESPRUINO, Espruino's Linux build):
// payload/draw, chart and progress bundled as the firmware is, the same draw lists, charts and
// progress bars compiled and drawn there and on the host, pixel for pixel (there bitmaps take the
// Uint24Array and E.mapInPlace path the host lacks), the same refusals, what a compiled 8 KB draw
// list costs in variables, that drawing leaves nothing allocated, and how long drawing takes.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runInEspruino, steadyGrowth } from "../espruino/script";
import { Graphics, installGraphics } from "../harness/graphics";
import { fontFiles, serveStorage, storageOf, utf8 } from "./text-support";
import { compileDraw, runDraw } from "../../firmware/payload/draw";
import { compileChart, drawBarChart, drawLineChart } from "../../firmware/payload/chart";
import { drawProgress } from "../../firmware/payload/progress";
import { isFailure } from "../../firmware/core/failure";
import type { Canvas } from "../../firmware/display/canvas";

const bin = process.env.ESPRUINO;
const MARK = "[payload] ";

// Big data is made where it is used, in the same way on both sides: as literals in the script it
// would take the interpreter's memory before the cases run. GENERATORS is run on the host too.
const GENERATORS = `
  /** Colour n of a fixed sequence of nearly all different colours. */
  function noise(n) { return ((n + 1) * 2654435761 % 16777213) | 1; }
  function rgb888(count) {
    let s = "";
    for (let i = 0; i < count; i++) {
      const c = noise(i);
      s += String.fromCharCode(c >> 16, (c >> 8) & 255, c & 255);
    }
    return btoa(s);
  }
  /** "@colors:N" and "@rgb888:N" in a case become the first N colours as an array or base64. */
  function expand(v) {
    if (typeof v === "string" && v.charAt(0) === "@") {
      const n = +v.split(":")[1];
      if (v.indexOf("@rgb888:") === 0) return rgb888(n);
      const a = [];
      for (let i = 0; i < n; i++) a.push(noise(i));
      return a;
    }
    if (Array.isArray(v)) return v.map(expand);
    return v;
  }
  /** A draw list of count commands of every kind, in a handful of colours. */
  function mixedList(count) {
    const cmds = [];
    const colors = ["#F00", "#0F0", "#00F", "#FF0", "#0FF", "#F0F", "#FFF", "#888"];
    for (let i = 0; i < count; i++) {
      const c = colors[i % colors.length];
      const k = i % 8;
      if (k === 0) cmds.push(["pixel", i % 32, i % 8, c]);
      else if (k === 1) cmds.push(["line", i % 32, 0, (i * 7) % 32, 7, c]);
      else if (k === 2) cmds.push(["rect", i % 30, i % 6, 3, 2]);
      else if (k === 3) cmds.push(["circle", i % 32, 4, 2, c]);
      else if (k === 4) cmds.push(["pixels", c, i % 32, 1, (i + 3) % 32, 5, (i + 9) % 32, 6]);
      else if (k === 5) cmds.push(["circleFill", (i * 3) % 32, 3, 1 + (i % 3), c]);
      else if (k === 6) cmds.push(["text", i % 24, 1, "" + (i % 100)]);
      else cmds.push(["rectFill", i % 28, 1, 4, 3, c]);
    }
    return cmds;
  }
`;
const host = new Function(GENERATORS + "return { expand: expand, mixedList: mixedList };")() as {
  expand(v: unknown): unknown;
  mixedList(count: number): unknown[];
};
const mixedList = host.mixedList;

/** The largest mixed list whose payload stays within 8192 bytes. */
function eightKilobytes(): unknown[] {
  let n = 300;
  while (JSON.stringify({ draw: mixedList(n + 1) }).length <= 8192) n++;
  return mixedList(n);
}

/** A case's draw value: `draw` with its "@" strings expanded, or a mixed list of `mixed` commands. */
interface DrawCase { name: string; draw: unknown; mixed: number; textColor: number; font: "small" | "large"; width: number; graded: boolean }
interface ChartCase { name: string; kind: "bar" | "line" | "progress"; values: unknown; left: number; autoscale: boolean; percent: number }

const DRAW_CASES: DrawCase[] = [
  { name: "shapes", draw: [["pixel", 0, 0, "#F00"], ["pixel", 31, 7], ["pixels", null, 2, 2, 3, 3, 40, 1], ["line", 0, 7, 31, 0, "#0F0"],
    ["rect", 2, 1, 12, 6, "#FFF"], ["rectFill", 18, 2, 10, 4, [255, 0, 0]], ["circle", 8, 4, 3, "#00F"], ["circleFill", 26, 4, 2, "#0F0"]] },
  { name: "clipped", draw: [["rect", -3, -1, 6, 3, "#F00"], ["rectFill", 29, 6, 5, 4, "#0F0"], ["circle", 0, 0, 2, "#F00"],
    ["circle", 31, 7, 2, "#0F0"], ["line", -3200, -800, 3200, 800, "#0FF"], ["text", -2, 1, "HI", "#FF0"], ["text", 28, -2, "WX"]] },
  { name: "huge", draw: [["circleFill", 16, -996, 1000, "#F00"], ["circle", 16, -990, 1000, "#0F0"], ["rectFill", -1e9, 7, 2e9, 1e9, "#00F"],
    ["circle", 5, 5, 0, "#FFF"], ["circleFill", 9, 4, 0, "#FFF"], ["line", 16, -1e9, 16, 1e9, "#F0F"],
    ["circleFill", 2147483000, 4, 2147482990, "#FF0"], ["circle", -2147483000, 4, 2147483020, "#0FF"]] },
  { name: "text", draw: [["text", 1, 1, "12:30"], ["text", 20, 0, utf8("Ä€ж"), "#F00"], ["text", -70, 1, "x".repeat(20) + "ab"]] },
  { name: "text-large", draw: [["text", 1, 1, "12:30"], ["text", 20, 0, utf8("Ä€"), "#F00"]], font: "large" },
  { name: "bitmaps", draw: [["rectFill", 0, 0, 32, 8, "#123456"], ["bitmap", 1, 2, 4, 2, ["#F00", "#0F0", "#F00", "#0F0", "#0F0", "#F00", "#0F0", "#F00"]],
    ["bitmap", 6, 0, 4, 2, "/wAAAP8Aq83vAQIDAP8A"], ["bitmap", 12, -1, 6, 4, "@rgb888:24"], ["bitmap", 29, 5, 6, 4, "@colors:24"]] },
  { name: "bitmap-many-colours", draw: [["bitmap", -3, -2, 70, 10, "@rgb888:700"]], width: 64 },
  { name: "bitmap-many-array", draw: [["bitmap", -3, -2, 70, 10, "@colors:700"]], width: 64 },
  { name: "graded", draw: [["pixel", 0, 0, "#123456"], ["line", 2, 0, 2, 7], ["circleFill", 6, 4, 2, "#F00"],
    ["bitmap", 10, 0, 8, 8, "@rgb888:64"]], graded: true },
  { name: "mixed", draw: [], mixed: 300 },
].map((c) => Object.assign({ textColor: 0xffffff, font: "small", width: 32, graded: false, mixed: 0 }, c) as DrawCase);

const BAD_DRAWS: unknown[] = [
  {}, [["pixel", 0]], [["pixel", 0, 0], 5], [["dot", 0, 0]], [["pixels", "#FFF", 0, 0, 1]], [["line", 0, 0, 1, "1"]],
  [["rect", 0, 0, 1, 1, "#GGG"]], [["bitmap", 0, 0, 1, 1, "AB!D"]], [["bitmap", 0, 0, 1, 1, "QQ==QUJD"]], [["bitmap", 0, 0, 1, 1, ["#F00", "nope"]]],
  [["text", 0, 0, 5]], [["circle", 0, 0, 1, null, 2]],
];

const values = [2, 5, 3, 8, 6, 4, 7, 1];
const CHART_CASES: ChartCase[] = [
  { name: "bars", kind: "bar", values },
  { name: "bars-icon", kind: "bar", values, left: 9 },
  { name: "bars-fixed", kind: "bar", values: [16, 4, -3, 0, 8.5, 1], autoscale: false },
  { name: "bars-negative", kind: "bar", values: [-4, 4, -2, 2, "x", 1] },
  { name: "bars-16", kind: "bar", values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 1000], left: 9 },
  { name: "line", kind: "line", values },
  { name: "line-negative", kind: "line", values: [-3, 5, 0, 2, -1], left: 9 },
  { name: "line-fixed", kind: "line", values: [0, 8, 12, -4], autoscale: false },
  { name: "line-one", kind: "line", values: [5] },
  { name: "progress", kind: "progress", percent: 64 },
  { name: "progress-icon", kind: "progress", percent: 30, left: 9 },
  { name: "progress-over", kind: "progress", percent: 150 },
].map((c) => Object.assign({ values: [], left: 0, autoscale: true, percent: -1 }, c) as ChartCase);

/** Canvas colour choice of the graded cases: the channels rotated. */
const GRADE = "(rgb) => ((rgb & 255) << 16) | (rgb >> 8)";

/** The program the interpreter runs: every case drawn and printed, then sizes, growth and timings. */
function script(): string {
  return `
    import { compileDraw, runDraw } from "./firmware/payload/draw";
    import { compileChart, drawBarChart, drawLineChart } from "./firmware/payload/chart";
    import { drawProgress } from "./firmware/payload/progress";
    const grade = ${GRADE};
    ${GENERATORS}
    function canvas(width, graded) {
      const g = Graphics.createArrayBuffer(width, 8, 24);
      return { g: g, width: width, height: 8, color: function (rgb) { g.setColor(graded ? grade(rgb) : rgb); } };
    }
    function dump(name, c) {
      for (let y = 0; y < 8; y++) {
        let row = "";
        for (let x = 0; x < c.width; x++) row += (0x1000000 + c.g.getPixel(x, y)).toString(16).substr(1);
        print("${MARK}" + name + " " + row);
      }
    }
    const DRAWS = ${JSON.stringify(DRAW_CASES)};
    for (let i = 0; i < DRAWS.length; i++) {
      const d = DRAWS[i];
      const c = canvas(d.width, d.graded);
      const p = compileDraw(d.mixed ? mixedList(d.mixed) : expand(d.draw));
      if (p.code) print("${MARK}" + d.name + " refused " + p.field);
      else runDraw(c, p, d.textColor, d.font);
      dump(d.name, c);
    }
    const BAD = ${JSON.stringify(BAD_DRAWS)};
    for (let i = 0; i < BAD.length; i++) {
      const f = compileDraw(BAD[i]);
      print("${MARK}bad-" + i + " " + f.status + " " + f.code + " " + f.field + " " + f.message);
    }
    const CHARTS = ${JSON.stringify(CHART_CASES)};
    for (let i = 0; i < CHARTS.length; i++) {
      const k = CHARTS[i];
      const c = canvas(32, false);
      if (k.kind === "progress") drawProgress(c, k.percent, k.left, 0x00ff00, 0x202020);
      else if (k.kind === "bar") drawBarChart(c, compileChart(k.values), k.left, k.autoscale, 0xff8800);
      else drawLineChart(c, compileChart(k.values), k.left, k.autoscale, 0xff8800);
      dump(k.name, c);
    }
    // What keeping a full-size draw list costs.
    const BIG = mixedList(${eightKilobytes().length});
    let t = getTime();
    const big = compileDraw(BIG);
    print("${MARK}compile8k " + ((getTime() - t) * 1000).toFixed(1) + " " + BIG.length + " " + big.length + " " + E.getSizeOf(big));
    const chart = compileChart([3, 9, 4, 12, 7, 15, 2, 8, 11, 5, 14, 6, 10, 1, 13, 9]);
    print("${MARK}chartsize " + E.getSizeOf(chart));
    const c = canvas(32, false);
    const LIST300 = mixedList(300);
    const p300 = compileDraw(LIST300);
    const median = (run) => {
      const ms = [];
      for (let k = 0; k < 21; k++) {
        const start = getTime();
        run();
        ms.push((getTime() - start) * 1000);
      }
      ms.sort((a, b) => a - b);
      return ms[10].toFixed(2);
    };
    print("${MARK}time draw300 " + median(() => runDraw(c, p300, 0xffffff, "small")));
    print("${MARK}time draw8k " + median(() => runDraw(c, big, 0xffffff, "small")));
    print("${MARK}time bars16 " + median(() => drawBarChart(c, chart, 0, true, 0xff8800)));
    print("${MARK}time line16 " + median(() => drawLineChart(c, chart, 0, true, 0xff8800)));
    print("${MARK}time progress " + median(() => drawProgress(c, 64, 9, 0x00ff00, 0x202020)));
    const photo = compileDraw([["bitmap", 0, 0, 32, 8, rgb888(256)]]);
    print("${MARK}time bitmap32x8 " + median(() => runDraw(c, photo, 0xffffff)));
    print("${MARK}time compile300 " + median(() => compileDraw(LIST300)));
    const p40 = compileDraw(mixedList(40));
  ` + steadyGrowth(MARK, "(n) => { for (let k = 0; k < n; k++) { runDraw(c, p40, 0xffffff, 'small'); runDraw(c, photo, 0xffffff); drawBarChart(c, chart, 0, true, 0xff8800); drawLineChart(c, chart, 9, false, 0xff8800); drawProgress(c, 40, 0, 0x00ff00, 0x202020); } }");
}

/** The same cases on the host: rows of hex pixels by case name. */
function hostRows(): { [name: string]: string[] } {
  installGraphics();
  const out: { [name: string]: string[] } = {};
  const grade = (rgb: number) => ((rgb & 255) << 16) | (rgb >> 8);
  const canvas = (width: number, graded: boolean): Canvas => {
    const g = Graphics.createArrayBuffer(width, 8, 24) as unknown as globalThis.Graphics;
    return { g, width, height: 8, color(rgb: number) { g.setColor(graded ? grade(rgb) : rgb); } };
  };
  const dump = (name: string, c: Canvas) => {
    out[name] = [];
    for (let y = 0; y < 8; y++) {
      let row = "";
      for (let x = 0; x < c.width; x++) row += c.g.getPixel(x, y).toString(16).padStart(6, "0");
      out[name].push(row);
    }
  };
  for (const d of DRAW_CASES) {
    const c = canvas(d.width, d.graded);
    const p = compileDraw(d.mixed ? mixedList(d.mixed) : host.expand(d.draw));
    if (isFailure(p)) throw new Error(d.name + " refused on the host");
    runDraw(c, p, d.textColor, d.font);
    dump(d.name, c);
  }
  for (const k of CHART_CASES) {
    const c = canvas(32, false);
    if (k.kind === "progress") drawProgress(c, k.percent, k.left, 0x00ff00, 0x202020);
    else if (k.kind === "bar") drawBarChart(c, compileChart(k.values)!, k.left, k.autoscale, 0xff8800);
    else drawLineChart(c, compileChart(k.values)!, k.left, k.autoscale, 0xff8800);
    dump(k.name, c);
  }
  return out;
}

if (!bin) {
  test.skip("decorations in the real interpreter (set ESPRUINO=/path/to/espruino)", () => {});
} else {
  test("in the real interpreter: the host's pixels and refusals, under 200 variables for 8 KB, no allocation by drawing", () => {
    const lines = runInEspruino(bin, script(), fontFiles());
    const rows: { [name: string]: string[] } = {};
    const bad: string[] = [];
    const facts: { [name: string]: string[] } = {};
    for (const l of lines) {
      const at = l.indexOf(MARK);
      if (at < 0) continue;
      const words = l.slice(at + MARK.length).split(" ");
      if (words[0].startsWith("bad-")) bad[+words[0].slice(4)] = words.slice(1).join(" ");
      else if (words.length === 2 && /^[0-9a-f]+$/.test(words[1]) && words[1].length >= 192) (rows[words[0]] = rows[words[0]] || []).push(words[1]);
      else facts[words[0] + (words[0] === "time" ? " " + words[1] : "")] = words.slice(words[0] === "time" ? 2 : 1);
    }
    const restore = serveStorage(storageOf(fontFiles()));
    let host: { [name: string]: string[] };
    try {
      host = hostRows();
    } finally {
      restore();
    }
    for (const name of Object.keys(host)) {
      assert.ok(rows[name], name + " was not drawn there:\n" + lines.slice(-20).join("\n"));
      assert.equal(rows[name], host[name], name);
    }
    BAD_DRAWS.forEach((v, i) => {
      const f = compileDraw(v);
      assert.ok(isFailure(f));
      assert.is(bad[i], f.status + " " + f.code + " " + f.field + " " + f.message, JSON.stringify(v));
    });
    const [ms, count, bytes, vars] = facts.compile8k.map(Number);
    console.log("  8 KB draw list: " + count + " commands, compiled in " + ms + " ms to " + bytes + " bytes = " + vars +
      " variables; 16-value chart " + facts.chartsize[0] + " variables");
    console.log("  median ms: " + Object.keys(facts).filter((k) => k.startsWith("time ")).map((k) => k.slice(5) + " " + facts[k][0]).join(", "));
    assert.ok(vars <= 200, "an 8 KB draw list takes " + vars + " variables");
    assert.ok(+facts.chartsize[0] <= 16, "a chart takes " + facts.chartsize[0] + " variables");
    assert.is(facts.growth && facts.growth[0], "0", "variables left over after drawing");
  });
}

test.run();
