// A background effect or a weather overlay as it is drawn: its module made for the panel, with the
// ink it colours from and the speed that scales its time. Made outside frames (with the page that
// names it, or by a display request for the global overlay); dropped with its owner, which drops
// the module's code with it. The resident core reaches this code only through the module
// display/layers (layers.mod.ts), so it costs nothing while no page or overlay uses it.
import type { Canvas } from "../display/canvas";
import type { Effect, EffectModule } from "../effects/types";
import type { PaletteInk } from "../palette/ink";
import type { StoredPalette } from "../payload/stored";
import { loadModule } from "../platform/modules";
import { paletteInk } from "../palette/resolve";
import { log } from "../logs/log";

export type LayerKind = "effects" | "overlays";

/** The module of effect `name` as the API spells it: "effects/" and the name in kebab case. */
export function layerModule(kind: LayerKind, name: string): string {
  let id = "";
  for (let i = 0; i < name.length; i++) {
    const ch = name.charAt(i);
    const lower = ch.toLowerCase();
    id += i > 0 && ch !== lower ? "-" + lower : lower;
  }
  return kind + "/" + id;
}

export class Layer {
  private effect: Effect;
  private ink: PaletteInk;
  private speed: number;
  /** The grading the ink was last graded under (FrameContext.grading); NaN before the first. */
  private graded: number;

  constructor(effect: Effect, ink: PaletteInk, speed: number) {
    this.effect = effect;
    this.ink = ink;
    this.speed = speed;
    this.graded = NaN;
  }

  /**
   * Draws at `ms` (time on screen, or the clock for the global overlay), grading the ink again
   * when the grading changed; `grading` undefined (a caller that does not track it) grades always.
   */
  draw(c: Canvas, ms: number, grading?: number): void {
    if (grading === undefined || grading !== this.graded) {
      this.ink.grade(c);
      this.graded = grading === undefined ? NaN : grading;
    }
    this.effect.draw(c.g, ms * this.speed, this.ink);
  }
}

/**
 * Effect or overlay `name` made for a w x h panel, coloured by `palette` (its stock colours when
 * absent); null when its module is missing or broken, or the palette cannot be read: the page then
 * shows without it.
 */
export function makeLayer(kind: LayerKind, name: string, palette: StoredPalette | null | undefined, blend: boolean,
  speed: number, w: number, h: number): Layer | null {
  try {
    const mod = loadModule<EffectModule>(layerModule(kind, name));
    const ink = paletteInk(palette, blend, mod.stock);
    return ink ? new Layer(mod.make(w, h), ink, speed) : null;
  } catch (e) {
    log(kind + " " + name + ": " + e);
    return null;
  }
}
