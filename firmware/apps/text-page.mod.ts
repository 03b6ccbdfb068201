// A page that shows one line of text in one colour, moving as its scroll object says: the setup
// screen. A module, as only a clock in setup mode shows it; it draws with the resident text code
// through the kit it is given.
import type { Canvas } from "../display/canvas";
import type { ScrollSpec } from "../text/scroll-spec";
import type { FontName, TextLine } from "../text/font";
import type { ScrollTrack } from "../text/scroll";
import type { TextKit } from "./text-kit";
import type { FrameContext, LoopApp } from "./types";

class TextPage implements LoopApp {
  name: string;
  origin: "builtin" | "pushed" | "script";
  color: number;
  private kit: TextKit;
  private line: TextLine;
  private track: ScrollTrack;
  private scroll: ScrollSpec;
  private laidFor: number;
  /** Own scroll fields; the rest follow the device-wide scroll setting as it is at draw time. */
  private own: Partial<ScrollSpec>;
  private merged: ScrollSpec | null;
  private mergedFrom: ScrollSpec | null;

  constructor(kit: TextKit, name: string, text: string, font: FontName, color: number, upper: boolean,
    own: Partial<ScrollSpec>) {
    this.kit = kit;
    this.name = name;
    this.origin = "builtin";
    this.color = color;
    this.line = kit.layout(text, font, upper);
    this.track = new kit.Track();
    this.own = own;
    this.scroll = own as ScrollSpec;
    this.laidFor = -1;
    this.merged = null;
    this.mergedFrom = null;
  }

  draw(c: Canvas, f: FrameContext): void {
    const spec = this.spec(f.settings.scroll);
    if (spec !== this.scroll || c.width !== this.laidFor) {
      this.scroll = spec;
      this.laidFor = c.width;
      this.track.setup(spec, this.line.width, 0, c.width, 0, true);
    }
    const y = (c.height - this.kit.capHeight(this.line.font)) >> 1;
    c.color(this.color);
    for (let n = 0; ; n++) {
      const x = this.track.copyX(f.shownMs, n);
      if (isNaN(x)) break;
      this.kit.draw(c.g, this.line, x, y);
    }
  }

  /** The page's scroll fields over the device-wide ones, merged again only when those change. */
  private spec(global: ScrollSpec): ScrollSpec {
    if (global !== this.mergedFrom || !this.merged) {
      this.merged = Object.assign({}, global, this.own) as ScrollSpec;
      this.mergedFrom = global;
    }
    return this.merged;
  }
}

function makeTextPage(kit: TextKit, name: string, text: string, font: FontName, color: number, upper: boolean,
  own: Partial<ScrollSpec>): LoopApp {
  return new TextPage(kit, name, text, font, color, upper, own);
}
export default makeTextPage;
