// An app whose page is made on demand (from a module, or from a stored payload) and dropped when
// the loop no longer needs it: the engine draws through the app, which hands each call to the page
// while it is loaded and draws nothing otherwise. One copy of the forwarding serves every kind.
import type { Canvas } from "../display/canvas";
import type { FrameContext, Page } from "./types";

export class PageApp {
  /** The page while it is loaded; absent otherwise (an absent property costs no variable). */
  declare page?: Page;

  release(): void {
    delete this.page;
  }

  /** The page's still key; a page without one (or none loaded) is drawn whole every frame. */
  stillKey(f: FrameContext): number {
    const p = this.page;
    return p && p.stillKey ? p.stillKey(f) : NaN;
  }

  /** The whole page: its draw, else its still part with the moving part over it. */
  draw(c: Canvas, f: FrameContext): void {
    const p = this.page;
    if (p && p.draw) p.draw(c, f);
    else if (p && p.drawStill) {
      p.drawStill(c, f);
      if (p.drawMoving) p.drawMoving(c, f);
    }
  }

  drawStill(c: Canvas, f: FrameContext): void {
    const p = this.page;
    if (p && p.drawStill) p.drawStill(c, f);
    else if (p && p.draw) p.draw(c, f);
  }

  drawMoving(c: Canvas, f: FrameContext): void {
    const p = this.page;
    if (p && p.drawMoving) p.drawMoving(c, f);
  }

  overlaid(): boolean {
    const p = this.page;
    return !!p && !!p.overlaid && p.overlaid();
  }
}
