// What the effect and overlay suites share: one module drawn at a moment on the host Graphics,
// with its stock colours or a given palette, through an ungraded canvas, read back as rows of
// 0xRRGGBB numbers.
import { installEngineHost } from "./engine-support";
import type { EffectModule } from "../../firmware/effects/types";
import { PaletteInk } from "../../firmware/palette/ink";
import { entriesFromColors, entriesFromStops, parseStops } from "../../firmware/palette/compile";
import { FrameCanvas, Grade } from "../../firmware/display/grade";

export { installEngineHost };

/** An ink of `palette` (colours spread evenly) or else of the module's stock, graded for `g`. */
export function inkFor(mod: EffectModule, g: Graphics, palette?: number[], blend = true): PaletteInk {
  const stock = parseStops(mod.stock);
  if (!palette && !stock) throw new Error("stock colours do not parse: " + mod.stock);
  const entries = palette ? entriesFromColors(palette) : entriesFromStops(stock as number[][]);
  const ink = new PaletteInk(entries, blend, !!palette);
  ink.grade(new FrameCanvas(g, new Grade()));
  return ink;
}

/**
 * The pixels of `mod` drawn at effect time `t` (ms) on a w x h panel: over black for an effect,
 * over `under` (a function painting the page) for an overlay.
 */
export function drawAt(mod: EffectModule, t: number, options: { palette?: number[]; blend?: boolean; w?: number; h?: number;
  under?: (g: Graphics) => void } = {}): number[][] {
  const w = options.w || 32;
  const h = options.h || 8;
  const g = Graphics.createArrayBuffer(w, h, 24) as unknown as Graphics;
  if (options.under) options.under(g);
  const ink = inkFor(mod, g, options.palette, options.blend !== false);
  mod.make(w, h).draw(g, t, ink);
  const out: number[][] = [];
  for (let y = 0; y < h; y++) {
    const row: number[] = [];
    for (let x = 0; x < w; x++) row.push(g.getPixel(x, y));
    out.push(row);
  }
  return out;
}
