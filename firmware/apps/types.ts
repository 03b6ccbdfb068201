// The contract between the app loop and an app that draws a page.
import type { Canvas } from "../display/canvas";
import type { LocalTime } from "../time/local";
import type { Settings } from "../settings/types";

/** Everything a page may read while it draws one frame. */
export interface FrameContext {
  /** Monotonic milliseconds: all motion is a function of this, never of frame counts. */
  now: number;
  /** Milliseconds since this app came on screen (for holds and scroll starts). */
  shownMs: number;
  local: LocalTime;
  settings: Settings;
  /**
   * Changes whenever the colour grading does (the render loop counts them): what a page keeps
   * graded (palettes, icons) is graded again when it differs. Absent: grade every time.
   */
  grading?: number;
}

/**
 * What draws a page, frame by frame; whatever it keeps between frames (layouts) it holds itself.
 * It has draw, or drawStill (and drawMoving, if anything moves), or both.
 */
export interface Page {
  /**
   * Draws the whole page; the canvas was cleared to black before. Without it, the whole page is
   * drawStill with drawMoving over it (page-app.ts): one method less in memory.
   */
  draw?(c: Canvas, f: FrameContext): void;
  /**
   * Optional, for pages that mostly stand still: a number that changes whenever the still part
   * would look different (a settings change is noticed by the engine itself). With it the engine
   * keeps what drawStill drew in a buffer and each frame draws only the moving part over it, which
   * is most of the frame budget saved on an interpreter.
   */
  stillKey?(f: FrameContext): number;
  drawStill?(c: Canvas, f: FrameContext): void;
  drawMoving?(c: Canvas, f: FrameContext): void;
  /** Whether the page draws a weather overlay of its own (the global one then stays off it). */
  overlaid?(): boolean;
}

/** One app of the loop: a page with a name. */
export interface LoopApp extends Page {
  draw(c: Canvas, f: FrameContext): void;
  /** The name the API uses ("Time", "Date", ...). */
  name: string;
  origin: "builtin" | "pushed" | "script";
  /**
   * Only for an app whose page lives in a module (see module-app.ts): brings the page into
   * memory, false when it cannot be. The loop calls it outside frames, before the page is drawn.
   * An app without it is always in memory.
   */
  load?(): boolean;
  /** Drops the loaded page (the loop calls it once the page is neither on screen nor next). */
  release?(): void;
  /**
   * Only for a page with a dwell of its own (durationMs, repeat): whether its time on screen is
   * up at f.shownMs. Without it a page stays appDurationMs. Asked in every frame: cheap, no
   * allocation.
   */
  over?(f: FrameContext, appDurationMs: number): boolean;
}

/**
 * What covers the loop's page for a while (the notifications): the loop keeps turning behind it,
 * and the engine draws it instead of the loop's page while it holds anything. To the engine it is
 * what is on screen: it reads its name (the loop's app, which a cover does not change) and draws it.
 */
export interface Cover extends Page {
  draw(c: Canvas, f: FrameContext): void;
  readonly name: string;
  /** When the covering page came on screen (NaN before its first frame). */
  since: number;
  /** In a frame: advances its own time (f.now, f.settings); loads nothing. */
  update(f: FrameContext, appDurationMs: number): void;
  /** What it holds; it covers while this is not empty. */
  items: unknown[];
  /** Outside frames: makes what is about to be shown. */
  prepare(): void;
}
