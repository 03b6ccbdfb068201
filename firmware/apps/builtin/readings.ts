// The Temperature, Humidity and Battery apps: an icon and a reading. One class serves all three;
// each app's module makes it with its kind (which chooses the text and the colour key), its
// reading and its icon, so a module carries the code of its own reading and icon only. Whether
// the app is present is the loop's business (module-app.ts).
import type { Canvas } from "../../display/canvas";
import type { Settings } from "../../settings/types";
import type { FrameContext, Page } from "../types";
import type { TextLine } from "../../text/font";
import type { TextKit } from "../text-kit";
import { ICON_W } from "./icons";

export const TEMPERATURE = 0;
export const HUMIDITY = 1;
export const BATTERY = 2;
export type ReadingKind = 0 | 1 | 2;
/** The number as measured (null before a reading), from sensors.ts. */
export type Reading = () => number | null;
/** Draws the icon with its left column at x, for the shown number (null: none yet), from icons.ts. */
export type Icon = (c: Canvas, x: number, shown: number | null) => void;

/**
 * What the system configuration says about showing readings. The getter passed to the apps is
 * called every frame: it should hand out an object that is held (the stored config), not build one.
 */
export interface ReadingConfig {
  /** Decimals of the temperature, 0-2. */
  tempDecimals: number;
}

/** Columns kept for the icon; the text is centred in the rest. */
const ICON_COLUMN = 8;
const TEXT_Y = 1;

/** The temperature as shown: converted to °F when asked, rounded to `decimals`, never -0. */
export function shownTemperature(celsius: number, useCelsius: boolean, decimals: number): number {
  const v = useCelsius ? celsius : (celsius * 9) / 5 + 32;
  const scale = decimals >= 2 ? 100 : decimals >= 1 ? 10 : 1;
  const r = Math.round(v * scale) / scale;
  return r === 0 ? 0 : r;
}

export class ReadingApp implements Page {
  private kind: ReadingKind;
  private read: Reading;
  private icon: Icon;
  private cfg: () => ReadingConfig;
  private kit: TextKit;
  // What the laid-out line shows; laid out again when any of these changes.
  private settings: Settings | null;
  private shown: number | null;
  private decimals: number;
  private line: TextLine | null;

  constructor(kind: ReadingKind, read: Reading, icon: Icon, cfg: () => ReadingConfig, kit: TextKit) {
    this.kind = kind;
    this.read = read;
    this.icon = icon;
    this.cfg = cfg;
    this.kit = kit;
    this.settings = null;
    this.shown = null;
    this.decimals = -1;
    this.line = null;
  }

  /** The whole page stands still until the shown reading changes. */
  stillKey(f: FrameContext): number {
    this.layout(f.settings);
    const shown = this.shown;
    return shown === null ? -1 : shown * 1000 + this.decimals;
  }

  /** The whole page: nothing on it moves. */
  drawStill(c: Canvas, f: FrameContext): void {
    const s = f.settings;
    const line = this.layout(s);
    const rgb = this.kind === TEMPERATURE ? s.temperatureColor : this.kind === HUMIDITY ? s.humidityColor : s.batteryColor;
    let left = 0;
    if (line.width + ICON_COLUMN <= c.width) {
      left = ICON_COLUMN;
      this.icon(c, (ICON_COLUMN - ICON_W) >> 1, this.shown);
    }
    const x = left + ((c.width - left - line.width) >> 1);
    c.color(rgb === null ? s.textColor : rgb);
    this.kit.draw(c.g, line, x > 0 ? x : 0, TEXT_Y);
  }

  /**
   * The line for the current reading, rounded as shown, laid out again only when its text
   * changes.
   */
  private layout(s: Settings): TextLine {
    const temperature = this.kind === TEMPERATURE;
    const decimals = temperature ? this.cfg().tempDecimals : 0;
    const v = this.read();
    const shown = v === null ? null : temperature ? shownTemperature(v, s.useCelsius, decimals) : Math.round(v);
    if (this.line && shown === this.shown && s === this.settings && decimals === this.decimals) return this.line;
    this.shown = shown;
    this.settings = s;
    this.decimals = decimals;
    // "--" until the first reading arrives; "°" as the two UTF-8 bytes layoutText reads, the same
    // 8-bit string on the device and on a host. Spelt out here, not held while the page is.
    let text = shown === null ? "--" : shown.toFixed(decimals);
    text += temperature ? String.fromCharCode(0xc2, 0xb0) + (s.useCelsius ? "C" : "F") : "%";
    this.line = this.kit.layout(text, "small", false);
    return this.line;
  }
}
