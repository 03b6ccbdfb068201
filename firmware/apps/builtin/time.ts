// The Time app: the clock in the seven timeMode styles.
//
//   0  time centred, weekday bar along the bottom
//   1  calendar box (header bar, day of month) on the left, time right, bar under the time
//   2  as 1 with the bar over the time
//   3  calendar box with notched corners and no header, bar under the time
//   4  as 3 with the bar over the time
//   5  big digits punched black out of a field of the clock colour
//   6  binary clock: hours, minutes, seconds as rows of six bits (red, green, blue)
//
// The text is laid out in pieces (hours, colon, minutes, ...) so the colon can blink or pulse
// on its own while keeping its width; pieces are laid out again only when the shown text changes.
import type { Canvas } from "../../display/canvas";
import type { LocalTime } from "../../time/local";
import type { Settings } from "../../settings/types";
import type { FrameContext, Page } from "../types";
import type { FontName, TextLine } from "../../text/font";
import type { TextKit } from "../text-kit";
import { amPmText, hourText, showsAmPm, showsSeconds, twoDigits } from "./format";

/** Columns of the calendar box in modes 1-4. */
const CALENDAR_W = 9;
/** Top row of the day-of-month digits in the calendar box (under a two-row header). */
const CALENDAR_DIGITS_Y = 2;
const HEADER_ROWS = 2;
/** Pixels between two pieces of the clock text: the font's own spacing between glyphs. */
const PIECE_GAP = 1;
const BIG_CLOCK = 5;
const BINARY_CLOCK = 6;
const BINARY_COLORS = [0xff0000, 0x00ff00, 0x0000ff];
/** A cleared bit still shows, dimly, so the six places can be read. */
const BINARY_OFF_LEVEL = 0.25;
const BIT_W = 4;
const BIT_H = 2;
const PULSE_PERIOD_MS = 2000;

/** How visible the colon is now (0..1): steady, blink (on in even seconds), pulse (2 s breath). */
export function separatorLevel(mode: string, t: LocalTime): number {
  if (mode === "blink") return t.seconds % 2 === 0 ? 1 : 0;
  if (mode === "pulse") {
    const phase = ((t.seconds % 2) * 1000 + t.ms) / PULSE_PERIOD_MS;
    return 0.5 + 0.5 * Math.cos(2 * Math.PI * phase);
  }
  return 1;
}

function clockColor(s: Settings): number {
  return s.timeColor === null ? s.textColor : s.timeColor;
}

/**
 * A number that changes exactly when the laid-out text would: the shown fields of the time, the
 * day of month (calendar box) and the font. The settings are compared by identity, as the store
 * replaces the whole object on every change.
 */
function textKey(t: LocalTime, mode: number, seconds: boolean): number {
  const k = (t.day * 100 + t.hours) * 100 + t.minutes;
  return (k * 100 + (seconds ? t.seconds : 99)) * 2 + (mode === BIG_CLOCK ? 1 : 0);
}

/** The Time app's page (the module apps/builtin/time makes it). */
export class TimeApp implements Page {
  private kit: TextKit;
  private settings: Settings | null;
  private key: number;
  private hours: TextLine | null;
  private colon: TextLine | null;
  private minutes: TextLine | null;
  private seconds: TextLine | null;
  private suffix: TextLine | null;
  private day: TextLine | null;
  /** Width of the whole clock text. */
  private width: number;
  /** What each piece (hours, colon, minutes, seconds, suffix, day) was laid out for. */
  private texts: string[];
  /** Where the last still drawing put the colons (NaN: none), for drawMoving. */
  private colonX: number;
  private colon2X: number;
  private colonY: number;
  private punched: boolean;

  constructor(kit: TextKit) {
    this.kit = kit;
    this.settings = null;
    this.key = -1;
    this.hours = null;
    this.colon = null;
    this.minutes = null;
    this.seconds = null;
    this.suffix = null;
    this.day = null;
    this.width = 0;
    this.texts = ["", "", "", "", "", ""];
    this.colonX = NaN;
    this.colon2X = NaN;
    this.colonY = 0;
    this.punched = false;
  }

  /** The text key; in the binary clock, every second. */
  stillKey(f: FrameContext): number {
    const t = f.local;
    if (f.settings.timeMode === BINARY_CLOCK) return (t.hours * 60 + t.minutes) * 60 + t.seconds;
    this.layout(t, f.settings);
    return this.key;
  }

  draw(c: Canvas, f: FrameContext): void {
    this.drawStill(c, f);
    this.drawMoving(c, f);
  }

  /** Everything but a blinking or pulsing colon. */
  drawStill(c: Canvas, f: FrameContext): void {
    const s = f.settings;
    const t = f.local;
    const mode = s.timeMode;
    this.colonX = NaN;
    this.colon2X = NaN;
    if (mode === BINARY_CLOCK) {
      drawBinaryClock(c, t);
      return;
    }
    this.layout(t, s);
    const rgb = clockColor(s);
    const steady = s.timeSeparatorMode === "steady";
    if (mode === BIG_CLOCK) {
      c.color(rgb);
      c.g.fillRect(0, 0, c.width - 1, c.height - 1);
      this.drawClock(c, (c.width - this.width) >> 1, (c.height - this.kit.capHeight("large")) >> 1, rgb, steady, true);
      return;
    }
    const bar = s.weekdayBar;
    if (mode === 0) {
      this.drawClock(c, (c.width - this.width) >> 1, 1, rgb, steady, false);
      this.kit.weekdayBar(c, bar, t.weekday, 0, c.width, c.height - 1);
      return;
    }
    this.drawCalendar(c, s, mode >= 3);
    const areaW = c.width - CALENDAR_W;
    const barOnTop = mode === 2 || mode === 4;
    const x = CALENDAR_W + ((areaW - this.width) >> 1);
    this.drawClock(c, x, barOnTop ? 2 : 1, rgb, steady, false);
    this.kit.weekdayBar(c, bar, t.weekday, CALENDAR_W, areaW, barOnTop ? 0 : c.height - 1);
  }

  /** The colons at their level now, where the last still drawing left room for them. */
  drawMoving(c: Canvas, f: FrameContext): void {
    if (isNaN(this.colonX)) return;
    const level = separatorLevel(f.settings.timeSeparatorMode, f.local);
    const rgb = clockColor(f.settings);
    this.drawColon(c, this.colonX, this.colonY, rgb, level, this.punched);
    if (!isNaN(this.colon2X)) this.drawColon(c, this.colon2X, this.colonY, rgb, level, this.punched);
  }

  /** Lays the pieces out again when the text they show has changed. */
  private layout(t: LocalTime, s: Settings): void {
    const withSeconds = showsSeconds(s);
    const key = textKey(t, s.timeMode, withSeconds);
    if (key === this.key && s === this.settings) return;
    this.key = key;
    this.settings = s;
    const font: FontName = s.timeMode === BIG_CLOCK ? "large" : "small";
    this.hours = this.piece(0, this.hours, hourText(t.hours, s.time24h, s.timeLeadingZero), font);
    this.colon = this.piece(1, this.colon, ":", font);
    this.minutes = this.piece(2, this.minutes, twoDigits(t.minutes), font);
    this.seconds = withSeconds ? this.piece(3, this.seconds, twoDigits(t.seconds), font) : null;
    this.suffix = showsAmPm(s) ? this.piece(4, this.suffix, " " + amPmText(t.hours), font) : null;
    this.day = this.piece(5, this.day, "" + t.day, "small");
    let w = this.hours.width + this.colon.width + this.minutes.width + 2 * PIECE_GAP;
    if (this.seconds) w += this.colon.width + this.seconds.width + 2 * PIECE_GAP;
    if (this.suffix) w += this.suffix.width + PIECE_GAP;
    this.width = w;
  }

  /** Piece `i` showing `text`: laid out again (in place) only when its text or font changed. */
  private piece(i: number, line: TextLine | null, text: string, font: FontName): TextLine {
    if (line && this.texts[i] === text && line.font === font) return line;
    this.texts[i] = text;
    if (!line) return this.kit.layout(text, font, false);
    this.kit.relayout(line, text, font, false);
    return line;
  }

  /**
   * The clock text from column x, top row y. Normally ink on black; `punched` draws black digits
   * on a field of `rgb` already filled. Colons are drawn only when `steady`; otherwise their
   * places are kept for drawMoving.
   */
  private drawClock(c: Canvas, x: number, y: number, rgb: number, steady: boolean, punched: boolean): void {
    const g = c.g;
    const draw = this.kit.draw;
    const ink = punched ? 0 : rgb;
    this.colonY = y;
    this.punched = punched;
    c.color(ink);
    draw(g, this.hours as TextLine, x, y);
    x += (this.hours as TextLine).width + PIECE_GAP;
    if (steady) x = this.drawColon(c, x, y, rgb, 1, punched);
    else x = this.skipColon(x, false);
    c.color(ink);
    draw(g, this.minutes as TextLine, x, y);
    x += (this.minutes as TextLine).width + PIECE_GAP;
    if (this.seconds) {
      if (steady) x = this.drawColon(c, x, y, rgb, 1, punched);
      else x = this.skipColon(x, true);
      c.color(ink);
      draw(g, this.seconds, x, y);
      x += this.seconds.width + PIECE_GAP;
    }
    if (this.suffix) draw(g, this.suffix, x, y);
  }

  /** Leaves a colon's width free at x and remembers the place. */
  private skipColon(x: number, second: boolean): number {
    if (second) this.colon2X = x;
    else this.colonX = x;
    return x + (this.colon as TextLine).width + PIECE_GAP;
  }

  /** A colon at `level` of full visibility; invisible, it still takes its width. */
  private drawColon(c: Canvas, x: number, y: number, rgb: number, level: number, punched: boolean): number {
    const colon = this.colon as TextLine;
    if (level > 0) {
      // A punched colon fades from the field colour (invisible) to black (visible).
      if (punched) c.color(rgb, 1 - level);
      else c.color(rgb, level);
      this.kit.draw(c.g, colon, x, y);
    }
    return x + colon.width + PIECE_GAP;
  }

  /** The calendar box in the left columns: day of month on a page, with a header or notches. */
  private drawCalendar(c: Canvas, s: Settings, notched: boolean): void {
    const g = c.g;
    const right = CALENDAR_W - 1;
    const bottom = c.height - 1;
    c.color(s.calendarBodyColor);
    if (notched) {
      g.fillRect(1, 0, right - 1, bottom);
      g.fillRect(0, 1, right, bottom - 1);
    } else {
      g.fillRect(0, HEADER_ROWS, right, bottom);
      c.color(s.calendarHeaderColor);
      g.fillRect(0, 0, right, HEADER_ROWS - 1);
    }
    const day = this.day as TextLine;
    c.color(s.calendarTextColor);
    this.kit.draw(g, day, (CALENDAR_W - day.width) >> 1, CALENDAR_DIGITS_Y);
  }
}

/** Three rows of six bits (hours, minutes, seconds), most significant bit on the left. */
function drawBinaryClock(c: Canvas, t: LocalTime): void {
  const pitchX = BIT_W + 1;
  const pitchY = (c.height + 1) / 3;
  const left = (c.width - 6 * pitchX + 1) >> 1;
  for (let row = 0; row < 3; row++) {
    const value = row === 0 ? t.hours : row === 1 ? t.minutes : t.seconds;
    const rgb = BINARY_COLORS[row];
    const y = Math.floor(row * pitchY);
    // The set bits, then the clear ones: a colour is chosen twice a row rather than per bit.
    for (let pass = 1; pass >= 0; pass--) {
      c.color(rgb, pass ? 1 : BINARY_OFF_LEVEL);
      for (let bit = 0; bit < 6; bit++) {
        if (((value >> (5 - bit)) & 1) !== pass) continue;
        const x = left + bit * pitchX;
        c.g.fillRect(x, y, x + BIT_W - 1, y + BIT_H - 1);
      }
    }
  }
}
