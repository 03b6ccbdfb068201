// The text module in the real interpreter ($ESPRUINO, Espruino's Linux build): font.ts bundled
// as the firmware is, the generated font files written into its Storage, each render case drawn
// into a 32x8 Graphics buffer and compared with the same fixtures the host rendering uses. Also
// checks that drawing allocates nothing that stays, and that texts (malformed UTF-8 among them)
// are laid out there exactly as on the host.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runInEspruino, steadyGrowth } from "../espruino/script";
import {
  RENDER_CASES, expectedRows, fontFiles, freshFontModule, serveStorage, storageOf, utf8, writeActual,
} from "./text-support";

const bin = process.env.ESPRUINO;
const MARK = "[text] ";

/** Texts laid out in both places, as 8-bit strings. */
const LAYOUT_CASES = [
  utf8("Zażółć gęślą jaźń"), utf8("café Привет «ок» 5€"), utf8("STRAßE ǎ ș ẞ 👍🏽 日本"), "\xff a\x80b \xc9A \xe0\x80\x80 \xed\xa0\x80",
  utf8("e\u0301\t\u2212"), "",
];

interface Layout { width: number; runs: string[] }

/** A line as both sides print it: width, and each run as "page:hex codes". */
function describe(line: { width: number; runs: { page: number; text: string; x: number }[] }): Layout {
  return {
    width: line.width,
    runs: line.runs.map((r) => r.page + ":" + r.x + ":" + Buffer.from(r.text, "latin1").toString("hex")),
  };
}

/** The script the interpreter runs: Storage files, the bundled module, the renders. */
function script(): string {
  const cases = RENDER_CASES.map((c) => ({ name: c.name, text: utf8(c.text), font: c.font, upper: c.upper, y: c.y }));
  const entry = `
    import { drawText, layoutText } from "./firmware/text/font";
    const CASES = ${JSON.stringify(cases)};
    for (let i = 0; i < CASES.length; i++) {
      const c = CASES[i];
      const g = Graphics.createArrayBuffer(32, 8, 1);
      const line = layoutText(c.text, c.font, c.upper);
      drawText(g, line, 0, c.y);
      for (let y = 0; y < 8; y++) {
        let row = "";
        for (let x = 0; x < 32; x++) row += g.getPixel(x, y) ? "#" : ".";
        print("${MARK}" + c.name + " " + row);
      }
    }
    const LAYOUTS = ${JSON.stringify(LAYOUT_CASES)};
    for (let i = 0; i < LAYOUTS.length; i++) {
      for (let u = 0; u < 2; u++) {
        const laid = layoutText(LAYOUTS[i], "small", u === 1);
        let runs = "";
        for (let r = 0; r < laid.runs.length; r++) {
          const run = laid.runs[r];
          let hex = "";
          for (let k = 0; k < run.text.length; k++) hex += (256 + run.text.charCodeAt(k)).toString(16).substr(1);
          runs += " " + run.page + ":" + run.x + ":" + hex;
        }
        print("${MARK}layout-" + i + "-" + u + " " + laid.width + runs);
      }
    }
    const g = Graphics.createArrayBuffer(32, 8, 1);
    const line = layoutText("\\xc3\\xa9 \\xc5\\x81 \\xd0\\x96", "large", false);
    // The first draws give the Graphics its font properties.
  ` + steadyGrowth(MARK, "(n) => { for (let k = 0; k < n; k++) drawText(g, line, 0, 1); }");
  return entry;
}

if (!bin) {
  test.skip("renders in the real interpreter (set ESPRUINO=/path/to/espruino)", () => {});
} else {
  test("in the real interpreter: layouts as on the host, the fixtures' pixels, no allocation by drawing", () => {
    const lines = runInEspruino(bin, script(), fontFiles());
    const rows: { [name: string]: string[] } = {};
    const layouts: { [name: string]: Layout } = {};
    let growth = "";
    for (const l of lines) {
      const at = l.indexOf(MARK);
      if (at < 0) continue;
      const words = l.slice(at + MARK.length).split(" ");
      if (words[0] === "growth") growth = words[1];
      else if (words[0].startsWith("layout-")) layouts[words[0]] = { width: +words[1], runs: words.slice(2) };
      else (rows[words[0]] = rows[words[0]] || []).push(words[1]);
    }
    const restore = serveStorage(storageOf(fontFiles()));
    try {
      const host = freshFontModule();
      LAYOUT_CASES.forEach((text, i) => {
        for (const u of [0, 1]) {
          assert.equal(layouts["layout-" + i + "-" + u], describe(host.layoutText(text, "small", u === 1)), JSON.stringify(text));
        }
      });
    } finally {
      restore();
    }
    for (const c of RENDER_CASES) {
      const got = rows[c.name];
      if (got && got.join("\n") !== expectedRows(c.name).join("\n")) writeActual(c.name, got);
    }
    for (const c of RENDER_CASES) {
      assert.ok(rows[c.name], c.name + " was not rendered:\n" + lines.slice(-20).join("\n"));
      assert.equal(rows[c.name], expectedRows(c.name), c.name);
    }
    assert.is(growth, "0", "variables left over after 50 draws");
  });
}

test.run();
