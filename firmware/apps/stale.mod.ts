// The page of a pushed app whose lifetime ran out with lifetimeExpiry "mark": the page as it was,
// framed by a 1-pixel dark red line that says its data is stale. Drawn whole every frame (it has
// no still part), so the frame is never cached away; held only while such a page is loaded.
import type { Canvas } from "../display/canvas";
import type { FrameContext } from "./types";
import type { PayloadPage } from "../payload/stored";

const STALE_COLOR = 0x6e0700;

const stale = (page: PayloadPage): PayloadPage => ({
  draw(c: Canvas, f: FrameContext): void {
    page.draw(c, f);
    c.color(STALE_COLOR);
    c.g.drawRect(0, 0, c.width - 1, c.height - 1);
  },
  passes: (f: FrameContext) => page.passes(f),
});
export default stale;
