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
    this.track = new kit.Track();
  }

  /** The day: the bar, and the text unless it runs by. */
  stillKey(f: FrameContext): number {
    return dayNumber(f.local);
  }

  drawStill(c: Canvas, f: FrameContext): void {
    this.drawMoving(c, f, true);
    this.kit.weekdayBar(c, f.settings.weekdayBar, f.local.weekday, 0, c.width, c.height - 1);
  }

  /** The text when it runs by; for drawStill (`still`), the text when it stands. */
  drawMoving(c: Canvas, f: FrameContext, still?: boolean): void {
    const s = f.settings;
    this.layout(f.local, s, c.width);
    const track = this.track;
    if (track.moves === !!still) return;
    const line = this.line as TextLine;
    c.color(s.dateColor === null ? s.textColor : s.dateColor);
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
    // The device-wide scroll, adjusted: a date that fits stands still whatever whenFits says, and
    // one that does not fit moves even when the mode is static.
    let spec = s.scroll;
    if (line.width <= width) {
      if (spec.whenFits !== "static") spec = Object.assign({}, spec, { whenFits: "static" }) as ScrollSpec;
    } else if (spec.mode === "static") spec = Object.assign({}, spec, { mode: "wrap" }) as ScrollSpec;
    this.track.setup(spec, line.width, 0, width, 0, true);
    return line;
  }
}
