// What the decoration suites share: a canvas over the harness Graphics, and its rows as letters.
import type { Canvas } from "../../firmware/display/canvas";

/** A canvas whose colour choice is `grade` of the logical colour (none by default). */
export function canvas(width = 32, height = 8, grade = (rgb: number) => rgb): Canvas {
  const g = Graphics.createArrayBuffer(width, height, 24) as unknown as globalThis.Graphics;
  return { g, width, height, color(rgb: number) { g.setColor(grade(rgb)); } };
}

/** The canvas row by row, a letter of `legend` for each pixel ("?" for a colour it lacks). */
export function rows(c: Canvas, legend: { [rgb: number]: string }): string[] {
  const out: string[] = [];
  for (let y = 0; y < c.height; y++) {
    let r = "";
    for (let x = 0; x < c.width; x++) r += legend[c.g.getPixel(x, y)] ?? "?";
    out.push(r);
  }
  return out;
}
