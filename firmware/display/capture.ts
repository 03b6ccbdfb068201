// The logical picture of the panel (no brightness, no panel colour settings), composed on demand
// through the engine's own buffers.
import type { DisplayEngine, Surfaces } from "./engine";
import { Grade, FrameCanvas } from "./grade";

/**
 * {width, height, pixels} with each pixel an unsigned 0xRRGGBB in decimal, row-major. Built as
 * text: an array of numbers would cost a variable per pixel.
 */
export function screenJson(engine: DisplayEngine, now: number): string {
  // Drawn without the slots' cached pages, which hold graded colours; they are drawn again.
  engine.forget();
  // A change of page under way is composed from both pages' slots: the second one (with what a
  // change needs) is made first if the change has not made it yet.
  if (engine.parts.loop.incoming()) engine.kit();
  // Ungraded canvases, made for the capture: captures are rare, and kept they cost as much as
  // the graded ones.
  const neutral = new Grade();
  const logical: Surfaces = {
    frame: new FrameCanvas(engine.frameG, neutral),
    slots: engine.slotG.map((g) => new FrameCanvas(g, neutral)),
  };
  engine.compose(logical, now, false);
  engine.forget();
  const g = engine.frameG;
  const width = engine.width;
  const height = g.getHeight();
  let out = "{\"width\":" + width + ",\"height\":" + height + ",\"pixels\":[";
  for (let y = 0; y < height; y++) {
    let row = "";
    for (let x = 0; x < width; x++) row += (x || y ? "," : "") + g.getPixel(x, y);
    out += row;
  }
  return out + "]}";
}
