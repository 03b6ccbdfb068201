// The text functions an app module draws with: the resident fonts and scroll motion, handed over
// through the AppHost so that a module does not carry (and, loaded, hold) its own copy of them.
// The weekday bar comes along: the Time and Date pages both draw it, and are loaded together
// (one on screen, the other next), so one resident copy costs less than one in each.
import { capHeight, drawText, layoutText } from "../text/font";
import type { FontName, TextLine } from "../text/font";
import { ScrollTrack } from "../text/scroll";
import { drawWeekdayBar } from "./builtin/weekday-bar";

export interface TextKit {
  /** A new line, or `line` laid out again (see text/font.ts). */
  layout(text: string, font: FontName, upper: boolean, line?: TextLine): TextLine;
  draw(g: Graphics, line: TextLine, x: number, y: number): void;
  capHeight(font: FontName): number;
  /** The scroll track's class (see text/scroll.ts): a page makes its own with `new kit.Track()`. */
  Track: typeof ScrollTrack;
  /** The weekday bar (see builtin/weekday-bar.ts). */
  weekdayBar: typeof drawWeekdayBar;
}

/** The kit over the resident text code; one is made at boot and shared by every app. */
export function textKit(): TextKit {
  return {
    layout: layoutText,
    draw: drawText,
    capHeight: capHeight,
    Track: ScrollTrack,
    weekdayBar: drawWeekdayBar,
  };
}
