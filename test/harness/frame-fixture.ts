// Pixel fixtures: render an app into the Graphics stand-in at a fixed time and settings, turn the
// frame into text (one line per row, a letter per colour, '.' for black) and compare it with
// test/fixtures/frames/<name>.txt. On a mismatch <name>.actual.txt is written next to it so the
// difference can be looked at (and, once checked by eye, renamed over the fixture). With
// FRAMES_UPDATE=1 the fixture itself is (re)written instead.
import * as fs from "node:fs";
import * as path from "node:path";
import { Graphics as HostGraphics } from "./graphics";
import { ROOT } from "./root";
import type { Canvas } from "../../firmware/display/canvas";
import { FrameCanvas, Grade } from "../../firmware/display/grade";
import type { FrameContext, Page } from "../../firmware/apps/types";
import type { LocalTime } from "../../firmware/time/local";
import type { Settings } from "../../firmware/settings/types";

declare global {
  // The firmware's drawing code names Espruino's Graphics; on the host that is the stand-in.
  type Graphics = HostGraphics;
}

export const FRAMES_DIR = path.join(ROOT, "test", "fixtures", "frames");

/** One rendered frame: packed 0xRRGGBB per pixel, row by row. */
export interface Frame {
  width: number;
  height: number;
  pixels: number[];
}

/** The local time of a calendar date and wall-clock time, with its weekday filled in. */
export function localTime(year: number, month: number, day: number, hours: number, minutes: number,
  seconds: number, ms = 0): LocalTime {
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return { year, month, day, hours, minutes, seconds, ms, weekday };
}

/** A canvas without colour grading (a fresh Grade), as a screen capture draws. */
export function ungradedCanvas(g: Graphics): Canvas {
  return new FrameCanvas(g, new Grade());
}

export interface RenderOptions {
  local: LocalTime;
  settings: Settings;
  /** Monotonic ms handed to the app (default 100000). */
  now?: number;
  /** Ms since the app came on screen (default 0). */
  shownMs?: number;
  width?: number;
  height?: number;
}

/** A fresh 24-bit buffer, cleared to black, for drawing into. */
export function blankGraphics(width = 32, height = 8): Graphics {
  const g = HostGraphics.createArrayBuffer(width, height, 24);
  g.clear();
  return g;
}

export function frameContext(opts: RenderOptions): FrameContext {
  return { now: opts.now ?? 100000, shownMs: opts.shownMs ?? 0, local: opts.local, settings: opts.settings };
}

/** Reads every pixel of `g` back. */
export function frameOf(g: Graphics): Frame {
  const width = g.getWidth();
  const height = g.getHeight();
  const pixels: number[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.push(g.getPixel(x, y) & 0xffffff);
  return { width, height, pixels };
}

/** Draws one frame of `app` (a page, or an app of the loop) on a cleared, ungraded canvas; reads it back. */
export function renderApp(app: Page, opts: RenderOptions): Frame {
  const g = blankGraphics(opts.width, opts.height);
  const c = ungradedCanvas(g);
  const f = frameContext(opts);
  // As the loop's apps draw a whole page (firmware/apps/page-app.ts).
  if (app.draw) app.draw(c, f);
  else if (app.drawStill) {
    app.drawStill(c, f);
    if (app.drawMoving) app.drawMoving(c, f);
  }
  return frameOf(g);
}

// Letters for colours that come up often; any other colour takes the next spare letter (the
// spares never repeat a named letter).
const NAMED: { [rgb: number]: string } = {
  0xffffff: "W", 0xff0000: "R", 0x00ff00: "G", 0x0000ff: "B", 0x666666: "g", 0xffff00: "Y",
  0x00ffff: "C", 0xff00ff: "M", 0xffaa00: "O",
};
const SPARE = "abcdefhijklmnopqrstuvwxyzADEFHIJKLNPQSTUVXZ0123456789";

const hex = (rgb: number) => "#" + rgb.toString(16).toUpperCase().padStart(6, "0");

/** The frame as text: a legend line `# W=#FFFFFF R=#FF0000` (first use order), then the rows. */
export function frameToText(frame: Frame): string {
  const letterOf = new Map<number, string>();
  let spare = 0;
  const legend: string[] = [];
  const rows: string[] = [];
  for (let y = 0; y < frame.height; y++) {
    let row = "";
    for (let x = 0; x < frame.width; x++) {
      const rgb = frame.pixels[y * frame.width + x];
      if (rgb === 0) {
        row += ".";
        continue;
      }
      let letter = letterOf.get(rgb);
      if (letter === undefined) {
        letter = NAMED[rgb] ?? SPARE[spare++];
        if (letter === undefined) throw new Error("more colours in one frame than letters");
        letterOf.set(rgb, letter);
        legend.push(letter + "=" + hex(rgb));
      }
      row += letter;
    }
    rows.push(row);
  }
  return "#" + (legend.length ? " " + legend.join(" ") : "") + "\n" + rows.join("\n") + "\n";
}

/** Number of pixels in `frame` that have colour `rgb`. */
export function countColor(frame: Frame, rgb: number): number {
  return frame.pixels.filter((p) => p === rgb).length;
}

/**
 * Throws unless `frame` matches test/fixtures/frames/<name>.txt; on a mismatch (or a missing
 * fixture) writes <name>.actual.txt for inspection.
 */
export function expectFrame(name: string, frame: Frame): void {
  const text = frameToText(frame);
  const file = path.join(FRAMES_DIR, name + ".txt");
  const actual = path.join(FRAMES_DIR, name + ".actual.txt");
  if (process.env.FRAMES_UPDATE === "1") {
    fs.mkdirSync(FRAMES_DIR, { recursive: true });
    fs.writeFileSync(file, text);
    fs.rmSync(actual, { force: true });
    return;
  }
  const expected = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null;
  if (expected === text) {
    fs.rmSync(actual, { force: true });
    return;
  }
  fs.mkdirSync(FRAMES_DIR, { recursive: true });
  fs.writeFileSync(actual, text);
  const why = expected === null ? "no fixture " + file : "frame differs from " + file;
  throw new Error(why + "; rendered:\n" + text + (expected === null ? "" : "expected:\n" + expected) + "(written to " + actual + ")");
}
