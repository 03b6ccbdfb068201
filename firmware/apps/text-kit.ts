// The text functions an app module draws with: the resident fonts and scroll motion, handed over
// through the AppHost so that a module does not carry (and, loaded, hold) its own copy of them.
// The weekday bar comes along: the Time and Date pages both draw it, and are loaded together
// (one on screen, the other next), so one resident copy costs less than one in each.
import { capHeight, drawText, layoutText, relayoutText } from "../text/font";
import type { FontName, TextLine } from "../text/font";
import { ScrollTrack } from "../text/scroll";
import { drawWeekdayBar } from "./builtin/weekday-bar";

export interface TextKit {
  layout(text: string, font: FontName, upper: boolean): TextLine;
  relayout(line: TextLine, text: string, font: FontName, upper: boolean): void;
  draw(g: Graphics, line: TextLine, x: number, y: number): void;
  capHeight(font: FontName): number;
  /** A new scroll track (see text/scroll.ts). */
  track(): ScrollTrack;
  /** The weekday bar (see builtin/weekday-bar.ts). */
  weekdayBar: typeof drawWeekdayBar;
}

/** The kit over the resident text code; one is made at boot and shared by every app. */
export function textKit(): TextKit {
  return {
    layout: layoutText,
    relayout: relayoutText,
    draw: drawText,
    capHeight: capHeight,
    track: () => new ScrollTrack(),
    weekdayBar: drawWeekdayBar,
  };
}
