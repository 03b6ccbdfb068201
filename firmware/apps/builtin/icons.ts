// The small pictures left of the sensor readings, drawn with Graphics primitives (5 x 8 pixels,
// x = left column) so they need no image data.
import type { Canvas } from "../../display/canvas";

export const ICON_W = 5;

const OUTLINE = 0xffffff;
const MERCURY = 0xff0000;
const WATER = 0x0066ff;
const CHARGE = 0x00ff00;
const CHARGE_LOW = 0xff0000;
/** At or below this percentage the battery fill turns red. */
const LOW_PERCENT = 20;

/** A thermometer: white tube and bulb outline, red column. */
export function drawThermometer(c: Canvas, x: number): void {
  const g = c.g;
  c.color(OUTLINE);
  g.setPixel(x + 2, 0);
  g.drawLine(x + 1, 1, x + 1, 4);
  g.drawLine(x + 3, 1, x + 3, 4);
  g.drawLine(x, 5, x, 6);
  g.drawLine(x + 4, 5, x + 4, 6);
  g.drawLine(x + 1, 7, x + 3, 7);
  c.color(MERCURY);
  g.drawLine(x + 2, 2, x + 2, 4);
  g.fillRect(x + 1, 5, x + 3, 6);
}

/** A water drop. */
export function drawDroplet(c: Canvas, x: number): void {
  const g = c.g;
  c.color(WATER);
  g.drawLine(x + 2, 0, x + 2, 1);
  g.fillRect(x + 1, 2, x + 3, 3);
  g.fillRect(x, 4, x + 4, 6);
  g.drawLine(x + 1, 7, x + 3, 7);
}

/** An upright cell filled from the bottom in steps of 20 %; null (no reading yet) is empty. */
export function drawBattery(c: Canvas, x: number, percent: number | null): void {
  const g = c.g;
  c.color(OUTLINE);
  g.drawLine(x + 1, 0, x + 3, 0);
  g.drawRect(x, 1, x + 4, 7);
  const rows = percent === null ? 0 : Math.round(percent / 20);
  if (rows > 0) {
    c.color((percent as number) <= LOW_PERCENT ? CHARGE_LOW : CHARGE);
    g.fillRect(x + 1, 7 - rows, x + 3, 6);
  }
}
