// The page of a pushed app whose lifetime ran out with lifetimeExpiry "mark": the page as it was,
// framed by a 1-pixel dark red line that says its data is stale. The frame goes over the moving
// part, so scrolling text never covers it, and the page's still part stays cached as before (a
// long draw list is not drawn again every frame). Held only while such a page is loaded.
import type { Canvas } from "../display/canvas";
import type { FrameContext } from "./types";
import type { PayloadPage } from "../payload/stored";

const STALE_COLOR = 0x6e0700;

function mark(c: Canvas): void {
  c.color(STALE_COLOR);
  c.g.drawRect(0, 0, c.width - 1, c.height - 1);
}

const stale = (page: PayloadPage): PayloadPage => {
  const framed: PayloadPage = {
    draw(c: Canvas, f: FrameContext): void {
      page.draw(c, f);
      mark(c);
    },
    passes: (f: FrameContext) => page.passes(f),
  };
  if (page.stillKey && page.drawStill) {
    const still = page.drawStill;
    framed.stillKey = (f: FrameContext) => page.stillKey!(f);
    framed.drawStill = (c: Canvas, f: FrameContext) => still.call(page, c, f);
    framed.drawMoving = (c: Canvas, f: FrameContext) => {
      if (page.drawMoving) page.drawMoving(c, f);
      mark(c);
    };
  }
  return framed;
};
export default stale;
