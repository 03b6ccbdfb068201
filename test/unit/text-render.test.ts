// Laying out and drawing text (firmware/text/font.ts) into the host's Graphics stand-in: widths,
// runs, the fonts' sizes, and pixels compared with test/fixtures/text/*.txt (which the real
// interpreter draws the same, see text-espruino.test.ts).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { installGraphics } from "../harness/graphics";
import { RENDER_CASES, expectedRows, fontFiles, freshFontModule, serveStorage, storageOf, utf8, writeActual } from "./text-support";

installGraphics();
let restore = () => {};
test.before(() => {
  restore = serveStorage(storageOf(fontFiles()));
});
test.after(() => restore());

const font = freshFontModule();
const { layoutText, drawText, capHeight } = font;

function panel(): Graphics {
  return Graphics.createArrayBuffer(32, 8, 24);
}

function rowsOf(g: Graphics): string[] {
  const rows: string[] = [];
  for (let y = 0; y < 8; y++) {
    let row = "";
    for (let x = 0; x < 32; x++) row += g.getPixel(x, y) ? "#" : ".";
    rows.push(row);
  }
  return rows;
}

for (const c of RENDER_CASES) {
  test("renders " + c.name + " (" + c.text + ")", () => {
    const g = panel();
    drawText(g, layoutText(utf8(c.text), c.font, c.upper), 0, c.y);
    const rows = rowsOf(g);
    if (rows.join("\n") !== expectedRows(c.name).join("\n")) writeActual(c.name, rows);
    assert.equal(rows, expectedRows(c.name));
  });
}

test("cap height: 5 rows small, 6 large; y is the top row of the capitals", () => {
  assert.is(capHeight("small"), 5);
  assert.is(capHeight("large"), 6);
  for (const name of ["small", "large"] as const) {
    const g = panel();
    drawText(g, layoutText("H", name, false), 0, 1);
    const lit = rowsOf(g).map((r, y) => (r[0] === "#" ? y : -1)).filter((y) => y >= 0);
    assert.equal(lit, Array.from({ length: capHeight(name) }, (_, i) => 1 + i), name);
  }
});

test("widths: digits 3+1 and colon 1+1 small, 4+1 and 2+1 large, without the last gap", () => {
  assert.is(layoutText("12:34", "small", false).width, 17);
  assert.is(layoutText("12:34", "large", false).width, 22);
  for (const d of "0123456789") {
    assert.is(layoutText(d + d, "small", false).width, 7, d);
    assert.is(layoutText(d + d, "large", false).width, 9, d);
  }
  assert.is(layoutText(":", "small", false).width, 1);
  assert.is(layoutText(":", "large", false).width, 2);
  assert.is(layoutText("1 1", "small", false).width, 4 + 2 + 3, "space: 2 columns small");
  assert.is(layoutText("1 1", "large", false).width, 5 + 3 + 4, "space: 3 columns large");
  assert.is(layoutText("", "small", false).width, 0);
  assert.is(layoutText(utf8("ÄÖÜ"), "small", false).width, 11);
});

test("a line of several pages: runs start where the one before ends", () => {
  const line = layoutText(utf8("é Ł Ж"), "small", false);
  assert.equal(line.runs.map((r) => [r.page, r.x]), [[0, 0], [1, 6], [2, 12]]);
  assert.is(line.width, 15);
  const g = panel();
  drawText(g, line, 3, 0);
  assert.equal(rowsOf(g), expectedRows("small-mixed-runs").map((r) => "..." + r.slice(0, 29)), "drawn at x = 3");
});

test("upper-casing through layoutText", () => {
  const lower = layoutText(utf8("привет"), "large", true);
  const upper = layoutText(utf8("ПРИВЕТ"), "large", false);
  assert.equal(lower.runs, upper.runs);
});

test("layoutText into a line reuses the line and its runs", () => {
  const line = layoutText(utf8("é Ł Ж"), "small", false);
  const runs = line.runs;
  const first = runs[0];
  assert.ok(layoutText("12:34", "large", false, line) === line);
  assert.ok(line.runs === runs && runs[0] === first);
  assert.equal([line.font, line.width, runs.length, runs[0].text], ["large", 22, 1, "12:34"]);
  layoutText("", "small", false, line);
  assert.equal([line.width, runs.length], [0, 0]);
});

test("drawText draws left/top aligned in the current colour, whatever font and alignment were set", () => {
  const g = panel();
  g.setFontAlign(1, 1);
  g.setColor(0x00ff00);
  drawText(g, layoutText("1", "small", false), 0, 1);
  assert.is(g.getPixel(1, 1), 0x00ff00);
  assert.is(g.getPixel(0, 2), 0x00ff00);
  g.setFontCustom("\xff", 65, 1, 8);
  drawText(g, layoutText("1", "small", false), 10, 1);
  assert.is(g.getPixel(11, 1), 0x00ff00);
  assert.is(g.getPixel(10, 1), 0);
});

test("without the font files in Storage a line is empty and draws nothing", () => {
  restore();
  restore = serveStorage(storageOf({}));
  try {
    const bare = freshFontModule();
    const line = bare.layoutText("12:34", "small", false);
    assert.equal([line.width, line.runs.length], [0, 0]);
    const g = panel();
    bare.drawText(g, line, 0, 0);
    assert.ok(rowsOf(g).every((r) => r === ".".repeat(32)));
  } finally {
    restore();
    restore = serveStorage(storageOf(fontFiles()));
  }
});

test.run();
