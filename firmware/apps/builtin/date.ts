// The Date app: the date text over the weekday bar. A date that fits stands centred; a longer
// one (weekday prefix, month names, four-digit year) runs by with the device-wide scroll
// settings, a static mode there becoming wrap so that every character still comes into view.
import type { Canvas } from "../../display/canvas";
import type { LocalTime } from "../../time/local";
import type { Settings } from "../../settings/types";
import type { ScrollSpec } from "../../text/scroll-spec";
import type { FrameContext, Page } from "../types";
import type { TextLine } from "../../text/font";
import type { ScrollTrack } from "../../text/scroll";
import type { TextKit } from "../text-kit";
import { dateText } from "./format";

const TEXT_Y = 1;

function dayNumber(t: LocalTime): number {
  return (t.year * 16 + t.month) * 32 + t.day;
}

/**
 * The device-wide scroll, adjusted: a date that fits stands still whatever whenFits says, and
 * one that does not fit moves even when the mode is static.
 */
function dateScroll(spec: ScrollSpec, fits: boolean): ScrollSpec {
  if (fits) return spec.whenFits === "static" ? spec : Object.assign({}, spec, { whenFits: "static" }) as ScrollSpec;
  return spec.mode === "static" ? Object.assign({}, spec, { mode: "wrap" }) as ScrollSpec : spec;
}

/** The Date app's page (the module apps/builtin/date makes it). */
export class DateApp implements Page {
  private kit: TextKit;
  // What the laid-out line and the track were made for; the settings are compared by identity,
  // as the store replaces the whole object on every change.
  private settings: Settings | null;
  private day: number;
  private width: number;
  private line: TextLine | null;
  private track: ScrollTrack;

  constructor(kit: TextKit) {
    this.kit = kit;
    this.settings = null;
    this.day = -1;
    this.width = -1;
    this.line = null;
    this.track = kit.track();
  }

  /** The day: the bar, and the text unless it runs by. */
  stillKey(f: FrameContext): number {
    return dayNumber(f.local);
  }

  draw(c: Canvas, f: FrameContext): void {
    this.drawStill(c, f);
    this.drawMoving(c, f);
  }

  drawStill(c: Canvas, f: FrameContext): void {
    const s = f.settings;
    const t = f.local;
    this.layout(t, s, c.width);
    if (!this.track.moves) this.drawText(c, f);
    this.kit.weekdayBar(c, s.weekdayBar, t.weekday, 0, c.width, c.height - 1);
  }

  drawMoving(c: Canvas, f: FrameContext): void {
    this.layout(f.local, f.settings, c.width);
    if (this.track.moves) this.drawText(c, f);
  }

  private drawText(c: Canvas, f: FrameContext): void {
    const s = f.settings;
    const line = this.line as TextLine;
    c.color(s.dateColor === null ? s.textColor : s.dateColor);
    const track = this.track;
    for (let n = 0; ; n++) {
      const x = track.copyX(f.shownMs, n);
      if (isNaN(x)) break;
      this.kit.draw(c.g, line, x, TEXT_Y);
    }
  }

  /** The line and its track, made again when the date, the settings or the panel width change. */
  private layout(t: LocalTime, s: Settings, width: number): TextLine {
    const day = dayNumber(t);
    if (this.line && day === this.day && s === this.settings && width === this.width) return this.line;
    this.day = day;
    this.settings = s;
    this.width = width;
    const line = this.kit.layout(dateText(t, s), "small", false);
    this.line = line;
    this.track.setup(dateScroll(s.scroll, line.width <= width), line.width, 0, width, 0, true);
    return line;
  }
}
