// The text functions an app module draws with: the resident fonts and scroll motion, handed over
// through the AppHost so that a module does not carry (and, loaded, hold) its own copy of them.
import { capHeight, drawText, layoutText, relayoutText } from "../text/font";
import type { FontName, TextLine } from "../text/font";
import { ScrollTrack } from "../text/scroll";

export interface TextKit {
  layout(text: string, font: FontName, upper: boolean): TextLine;
  relayout(line: TextLine, text: string, font: FontName, upper: boolean): void;
  draw(g: Graphics, line: TextLine, x: number, y: number): void;
  capHeight(font: FontName): number;
  /** A new scroll track (see text/scroll.ts). */
  track(): ScrollTrack;
}

/** The kit over the resident text code; one is made at boot and shared by every app. */
export function textKit(): TextKit {
  return {
    layout: layoutText,
    relayout: relayoutText,
    draw: drawText,
    capHeight: capHeight,
    track: () => new ScrollTrack(),
  };
}
