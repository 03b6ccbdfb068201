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
import { clockTexts, showsSeconds } from "./format";

/** Columns of the calendar box in modes 1-4. */
const CALENDAR_W = 9;
/** Top row of the day-of-month digits in the calendar box (under a two-row header). */
const CALENDAR_DIGITS_Y = 2;
const HEADER_ROWS = 2;
/** Pixels between two pieces of the clock text: the font's own spacing between glyphs. */
const PIECE_GAP = 1;
/** Index of the day of month among the laid-out lines, after the pieces of the clock text. */
const DAY = 6;
const BIG_CLOCK = 5;
const BINARY_CLOCK = 6;
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

/** The Time app's page (the module apps/builtin/time makes it). */
export class TimeApp implements Page {
  private kit: TextKit;
  private settings: Settings | null;
  /**
   * A number that changes exactly when the laid-out text would: the shown fields of the time, the
   * day of month (calendar box) and the font. The settings are compared by identity, as the store
   * replaces the whole object on every change.
   */
  private key: number;
  /** The clock colour of those settings. */
  private rgb: number;
  /**
   * The pieces of the clock text in drawing order (hours, colon, minutes, the colon again and
   * seconds, AM/PM), then the day of month for the calendar box. A piece not shown is deleted, not
   * set to null: an element takes variables even when it holds null.
   */
  private lines: (TextLine | undefined)[];
  /** Where the last still drawing put the clock text (x NaN: it left no colons to draw). */
  private x: number;
  private y: number;

  constructor(kit: TextKit) {
    this.kit = kit;
    this.settings = null;
    this.key = -1;
    this.rgb = 0;
    this.lines = [];
    this.x = NaN;
    this.y = 0;
  }

  /**
   * The text key, the pieces laid out for it (again only when the text they show has changed);
   * in the binary clock, every second.
   */
  stillKey(f: FrameContext): number {
    const t = f.local;
    const s = f.settings;
    const mode = s.timeMode;
    if (mode === BINARY_CLOCK) return (t.hours * 60 + t.minutes) * 60 + t.seconds;
    const withSeconds = showsSeconds(s);
    const key = ((((t.day * 100 + t.hours) * 100 + t.minutes) * 100 + (withSeconds ? t.seconds : 99)) * 2) +
      (mode === BIG_CLOCK ? 1 : 0);
    if (key === this.key && s === this.settings) return key;
    this.key = key;
    this.settings = s;
    this.rgb = s.timeColor === null ? s.textColor : s.timeColor;
    const font: FontName = mode === BIG_CLOCK ? "large" : "small";
    const clock = clockTexts(t, s);
    const texts = [clock[0], ":", clock[1], null, clock[2], clock[3], mode >= 1 && mode <= 4 ? "" + t.day : null];
    const lines = this.lines;
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i];
      const lineFont: FontName = i === DAY ? "small" : font;
      const line = lines[i];
      // A piece is laid out again in place. The pieces are plain ASCII, which a line holds as one
      // run of that very text.
      if (text === null) delete lines[i];
      else if (!line) lines[i] = this.kit.layout(text, lineFont, false);
      else if (line.font !== lineFont || !line.runs.length || line.runs[0].text !== text) this.kit.layout(text, lineFont, false, line);
    }
    if (withSeconds) lines[3] = lines[1];
    else delete lines[3];
    return key;
  }

  /** Everything but a blinking or pulsing colon. */
  drawStill(c: Canvas, f: FrameContext): void {
    const s = f.settings;
    const t = f.local;
    const mode = s.timeMode;
    this.x = NaN;
    if (mode === BINARY_CLOCK) {
      // Three rows of six bits (hours, minutes, seconds), most significant bit on the left: drawn
      // here rather than by a function of its own, which would be held while the page is.
      const pitchX = BIT_W + 1;
      const pitchY = (c.height + 1) / 3;
      const left = (c.width - 6 * pitchX + 1) >> 1;
      for (let row = 0; row < 3; row++) {
        const value = row === 0 ? t.hours : row === 1 ? t.minutes : t.seconds;
        // Red, green, blue.
        const rgb = 0xff0000 >> (row * 8);
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
      return;
    }
    this.stillKey(f);
    const g = c.g;
    const rgb = this.rgb;
    const lines = this.lines;
    // The clock is centred in the columns right of the calendar box (modes 1-4).
    let left = 0;
    let y = 1;
    if (mode === BIG_CLOCK) {
      c.color(rgb);
      g.fillRect(0, 0, c.width - 1, c.height - 1);
      y = (c.height - this.kit.capHeight("large")) >> 1;
    } else {
      let barY = c.height - 1;
      if (mode > 0) {
        // The calendar box: the day of month on a page, with a header or notched corners.
        const right = CALENDAR_W - 1;
        c.color(s.calendarBodyColor);
        if (mode >= 3) {
          g.fillRect(1, 0, right - 1, barY);
          g.fillRect(0, 1, right, barY - 1);
        } else {
          g.fillRect(0, HEADER_ROWS, right, barY);
          c.color(s.calendarHeaderColor);
          g.fillRect(0, 0, right, HEADER_ROWS - 1);
        }
        const day = lines[DAY] as TextLine;
        c.color(s.calendarTextColor);
        this.kit.draw(g, day, (CALENDAR_W - day.width) >> 1, CALENDAR_DIGITS_Y);
        left = CALENDAR_W;
        if (mode === 2 || mode === 4) {
          barY = 0;
          y = 2;
        }
      }
      this.kit.weekdayBar(c, s.weekdayBar, t.weekday, left, c.width - left, barY);
    }
    let width = -PIECE_GAP;
    for (let i = 0; i < DAY; i++) {
      const line = lines[i];
      if (line) width += line.width + PIECE_GAP;
    }
    let x = left + ((c.width - left - width) >> 1);
    this.x = x;
    this.y = y;
    // All but the colons: black digits punched out of the field in the big clock, ink on black
    // otherwise.
    c.color(mode === BIG_CLOCK ? 0 : rgb);
    for (let i = 0; i < DAY; i++) {
      const line = lines[i];
      if (!line) continue;
      if (line !== lines[1]) this.kit.draw(g, line, x, y);
      x += line.width + PIECE_GAP;
    }
    if (s.timeSeparatorMode === "steady") {
      this.drawMoving(c, f);
      this.x = NaN;
    }
  }

  /** The colons at their level now, where the last still drawing left room for them. */
  drawMoving(c: Canvas, f: FrameContext): void {
    if (isNaN(this.x)) return;
    const level = separatorLevel(f.settings.timeSeparatorMode, f.local);
    // Invisible, a colon still takes its width; a punched one fades from the field colour
    // (invisible) to black (visible).
    if (level <= 0) return;
    c.color(this.rgb, f.settings.timeMode === BIG_CLOCK ? 1 - level : level);
    const lines = this.lines as TextLine[];
    const colon = lines[1];
    const x = this.x + lines[0].width + PIECE_GAP;
    this.kit.draw(c.g, colon, x, this.y);
    if (lines[3]) this.kit.draw(c.g, colon, x + colon.width + lines[2].width + 2 * PIECE_GAP, this.y);
  }
}
