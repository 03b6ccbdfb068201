// The render loop: every FRAME_MS it composes one frame (the app loop's page or a transition
// between two pages, then the indicators and the connection dot, or the mood light instead) and
// pushes it to the LEDs. Everything that moves is a function of the clock. A frame allocates
// nothing: buffers, canvases and the frame context are made once here.
import type { Settings } from "../settings/types";
import type { FrameContext, LoopApp } from "../apps/types";
import type { AppLoop } from "../apps/loop";
import type { Canvas } from "./canvas";
import type { Indicators } from "./indicators";
import type { Moodlight } from "./moodlight";
import type { LinkHealth } from "./status-dots";
import type { PanelOutput } from "./panel";
import type { BrightnessControl } from "./brightness";
import type { LocalClock } from "../time/clock";
import { newLocalTime } from "../time/local";
import { drawStatusDot } from "./status-dots";
import { Grade, FrameCanvas } from "./grade";
import { TRANSITION_DRAWS } from "./transitions";

/** 40 frames a second. */
export const FRAME_MS = 25;
export const PANEL_HEIGHT = 8;

/** Where the engine reports what device state shows. */
export interface DisplayReport {
  fps: number;
  brightness: number;
  currentApp: string;
  matrixPower: boolean;
}

export interface EngineParts {
  panel: PanelOutput;
  loop: AppLoop;
  indicators: Indicators;
  moodlight: Moodlight;
  clock: LocalClock;
  /** The POSIX TZ string in force; read every frame so a change applies at once. */
  tz: () => string;
  brightness: BrightnessControl;
  settings: () => Settings;
  colorOrder: string;
  /** The connection dot's input; null hides it (setup screen). */
  health: () => LinkHealth | null;
  /** The light sensor's reading 0-4095, or -1 without a sensor. */
  lightRaw: () => number;
  report: DisplayReport;
}

/** One surface set: the frame and the two pages a transition mixes, each with its canvas. */
interface Surfaces {
  frame: Canvas;
  from: Canvas;
  to: Canvas;
}

function image(g: Graphics): GraphicsImage {
  return { width: g.getWidth(), height: g.getHeight(), bpp: 24, buffer: g.buffer };
}

export class DisplayEngine {
  readonly width: number;
  private parts: EngineParts;
  private frameG: Graphics;
  private fromG: Graphics;
  private toG: Graphics;
  private fromImage: GraphicsImage;
  private toImage: GraphicsImage;
  /** Graded for the LEDs. */
  private live: Surfaces;
  /** Ungraded, for screen captures. */
  private logical: Surfaces;
  private grade: Grade;
  private ctx: FrameContext;
  private gradeDirty: boolean;
  private gradedAt: number;
  private blanked: boolean;
  private frames: number;
  private fpsWindowStart: number;
  private timer: number;

  constructor(parts: EngineParts) {
    this.parts = parts;
    this.width = parts.panel.width;
    this.frameG = Graphics.createArrayBuffer(this.width, PANEL_HEIGHT, 24);
    this.fromG = Graphics.createArrayBuffer(this.width, PANEL_HEIGHT, 24);
    this.toG = Graphics.createArrayBuffer(this.width, PANEL_HEIGHT, 24);
    this.fromImage = image(this.fromG);
    this.toImage = image(this.toG);
    this.grade = new Grade();
    const neutral = new Grade();
    this.live = { frame: new FrameCanvas(this.frameG, this.grade), from: new FrameCanvas(this.fromG, this.grade), to: new FrameCanvas(this.toG, this.grade) };
    this.logical = { frame: new FrameCanvas(this.frameG, neutral), from: new FrameCanvas(this.fromG, neutral), to: new FrameCanvas(this.toG, neutral) };
    this.ctx = { now: 0, shownMs: 0, local: newLocalTime(), settings: parts.settings() };
    this.gradeDirty = true;
    this.gradedAt = -1;
    this.blanked = false;
    this.frames = 0;
    this.fpsWindowStart = 0;
    this.timer = 0;
  }

  start(now: () => number): void {
    if (this.timer) return;
    this.fpsWindowStart = now();
    this.timer = setInterval(() => this.tick(now()), FRAME_MS);
  }

  /** The panel colour settings changed. */
  regrade(): void {
    this.gradeDirty = true;
  }

  /** One frame at `now`: advance the loop, compose, push. */
  tick(now: number): void {
    const p = this.parts;
    const report = p.report;
    p.loop.update(now);
    const cur = p.loop.current();
    report.currentApp = cur ? cur.name : "";
    const mood = p.moodlight.on;
    const level = mood ? p.moodlight.brightness : p.brightness.update(now, p.lightRaw());
    report.brightness = level;
    this.countFrame(now);
    if (!report.matrixPower) {
      if (!this.blanked) p.panel.blank();
      this.blanked = true;
      return;
    }
    this.blanked = false;
    if (this.gradeDirty || level !== this.gradedAt) {
      this.grade.configure(p.settings(), level, p.colorOrder);
      this.gradeDirty = false;
      this.gradedAt = level;
    }
    this.compose(this.live, now);
    p.panel.push(this.frameG);
  }

  /**
   * GET /api/v1/display/screen: the logical picture (no brightness, no panel colour settings),
   * as {width, height, pixels} with each pixel an unsigned 0xRRGGBB in decimal, row-major.
   * Built as text: an array of numbers would cost a variable per pixel.
   */
  screenJson(now: number): string {
    this.compose(this.logical, now);
    const g = this.frameG;
    let out = "{\"width\":" + this.width + ",\"height\":" + PANEL_HEIGHT + ",\"pixels\":[";
    for (let y = 0; y < PANEL_HEIGHT; y++) {
      let row = "";
      for (let x = 0; x < this.width; x++) row += (x || y ? "," : "") + g.getPixel(x, y);
      out += row;
    }
    // The next frame redraws everything with the panel's grading.
    return out + "]}";
  }

  private countFrame(now: number): void {
    this.frames++;
    const span = now - this.fpsWindowStart;
    if (span >= 1000) {
      this.parts.report.fps = Math.round((this.frames * 1000) / span);
      this.frames = 0;
      this.fpsWindowStart = now;
    }
  }

  private compose(s: Surfaces, now: number): void {
    const p = this.parts;
    const g = this.frameG;
    g.clear();
    if (p.moodlight.on) {
      // Mood light replaces everything, the dots included.
      s.frame.color(p.moodlight.color);
      g.fillRect(0, 0, this.width - 1, PANEL_HEIGHT - 1);
      return;
    }
    const ctx = this.ctx;
    ctx.now = now;
    ctx.settings = p.settings();
    p.clock.setZone(p.tz());
    p.clock.fill(ctx.local);
    const loop = p.loop;
    const cur = loop.current();
    const next = loop.incoming();
    if (cur && next) {
      this.page(cur, s.from, loop.shownMs(now));
      this.page(next, s.to, loop.incomingShownMs(now));
      TRANSITION_DRAWS[loop.effect](g, this.fromImage, this.toImage, loop.progress(now), loop.reverse);
    } else if (cur) {
      ctx.shownMs = loop.shownMs(now);
      cur.draw(s.frame, ctx);
    }
    p.indicators.draw(s.frame, now);
    const health = p.health();
    if (health) drawStatusDot(s.frame, now, health);
  }

  private page(app: LoopApp, c: Canvas, shownMs: number): void {
    c.g.clear();
    this.ctx.shownMs = shownMs > 0 ? shownMs : 0;
    app.draw(c, this.ctx);
  }
}
