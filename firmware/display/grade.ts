// Colour grading: from a logical colour (0xRRGGBB) to the value the frame buffer stores for it.
//
// Grading happens when a colour is chosen, not per pixel, so the frame already holds what the
// LEDs get. The steps, in order: `level` (0..1, fades and blinks) -> saturation (mix toward the
// Rec. 601 luma; 100 keeps the colour, 0 is grey) -> colorCorrection and then colorTint, each a
// per-channel multiplier of channel/255 (null = off) -> gamma (v' = 255 * (v/255)^gamma) ->
// brightness (scale by b/255) -> channel order.
//
// Channel order: a 24 bpp Graphics buffer stores a packed 0xAABBCC as the bytes AA, BB, CC, so
// wire() packs the first channel the LEDs expect into the top byte. (createArrayBuffer's own
// color_order option mixes orders up, hence doing it here.)
//
// Rounding: each channel rounds to the nearest step, except that a colour which is not black
// after level, correction and tint never rounds away to all-off while brightness is above 0: its
// strongest channel(s) then light at 1. At brightness 10 a dark grey or a deep blue would
// otherwise vanish from the text it is part of; a fade still ends on black, as level 0 is black.
//
// A fresh Grade is the identity (logical colours in RGB order), which is what a screen capture
// draws with. FrameCanvas is the Canvas drawing routines get: a frame plus colour choice through
// a Grade.
import type { Settings } from "../settings/types";
import type { Canvas } from "./canvas";

export type GradeSettings = Pick<Settings, "saturation" | "gamma" | "colorCorrection" | "colorTint">;

/**
 * Multiplier 0..1 of the channel at `shift` of colorCorrection times that of colorTint; a
 * correction that is off (null) multiplies by 1.
 */
function channelGain(s: GradeSettings, shift: number): number {
  const c = s.colorCorrection;
  const t = s.colorTint;
  return (c === null ? 1 : ((c >> shift) & 255) / 255) * (t === null ? 1 : ((t >> shift) & 255) / 255);
}

export class Grade {
  /** Saturation 0..1. */
  private sat: number;
  /** Correction x tint per channel, 0..1. */
  private gainR: number;
  private gainG: number;
  private gainB: number;
  private gamma: number;
  /** Brightness / 255. */
  private scale: number;
  /** Where red, green and blue go in the packed value (16 first, 8, 0 last), five bits each from the lowest. */
  private order: number;
  // The last conversion (logical colour, level, packed value): drawing code asks for the same
  // colour many times in a row.
  private rgb: number;
  private lvl: number;
  private out: number;

  constructor() {
    this.sat = 1;
    this.gainR = 1;
    this.gainG = 1;
    this.gainB = 1;
    this.gamma = 1;
    this.scale = 1;
    this.order = 16 | (8 << 5);
    this.rgb = -1;
    this.lvl = -1;
    this.out = 0;
  }

  /**
   * `brightness` 0-255: the effective one (see BrightnessControl), not the stored setting.
   * `colorOrder`: one of panelColorOrder's names (validated with the system config).
   */
  configure(s: GradeSettings, brightness: number, colorOrder: string): void {
    const sat = s.saturation / 100;
    this.sat = sat > 1 ? 1 : sat > 0 ? sat : 0;
    this.gainR = channelGain(s, 16);
    this.gainG = channelGain(s, 8);
    this.gainB = channelGain(s, 0);
    this.gamma = s.gamma > 0 ? s.gamma : 1;
    const b = brightness > 255 ? 255 : brightness > 0 ? brightness : 0;
    this.scale = b / 255;
    // Channel at position i of the order (0 first) goes to shift 16 - 8i.
    const o = colorOrder;
    this.order = (16 - 8 * o.indexOf("r")) | ((16 - 8 * o.indexOf("g")) << 5) | ((16 - 8 * o.indexOf("b")) << 10);
    this.rgb = -1;
  }

  /** The packed value to hand to g.setColor for logical colour `rgb` dimmed by `level` (0..1). */
  wire(rgb: number, level: number): number {
    if (rgb === this.rgb && level === this.lvl) return this.out;
    const k = level >= 1 ? 1 : level > 0 ? level : 0;
    let r = ((rgb >> 16) & 255) * k;
    let g = ((rgb >> 8) & 255) * k;
    let b = (rgb & 255) * k;
    if (this.sat < 1) {
      const luma = 0.299 * r + 0.587 * g + 0.114 * b;
      r = luma + (r - luma) * this.sat;
      g = luma + (g - luma) * this.sat;
      b = luma + (b - luma) * this.sat;
    }
    r *= this.gainR;
    g *= this.gainG;
    b *= this.gainB;
    let outR = this.output(r);
    let outG = this.output(g);
    let outB = this.output(b);
    if (outR + outG + outB === 0 && this.scale > 0) {
      const peak = r > g ? (r > b ? r : b) : g > b ? g : b;
      if (peak > 0) {
        if (r === peak) outR = 1;
        if (g === peak) outG = 1;
        if (b === peak) outB = 1;
      }
    }
    const order = this.order;
    this.rgb = rgb;
    this.lvl = level;
    this.out = (outR << (order & 31)) | (outG << ((order >> 5) & 31)) | (outB << (order >> 10));
    return this.out;
  }

  /** Gamma and brightness of one channel value 0..255, rounded to a step 0..255. */
  private output(v: number): number {
    if (v <= 0) return 0;
    const curved = this.gamma === 1 ? v : 255 * Math.pow(v / 255, this.gamma);
    const out = Math.round(curved * this.scale);
    return out > 255 ? 255 : out;
  }
}

export class FrameCanvas implements Canvas {
  readonly g: Graphics;
  readonly width: number;
  readonly height: number;
  private grade: Grade;

  constructor(g: Graphics, grade: Grade) {
    this.g = g;
    this.width = g.getWidth();
    this.height = g.getHeight();
    this.grade = grade;
  }

  color(rgb: number, level?: number): void {
    this.g.setColor(this.grade.wire(rgb, level === undefined ? 1 : level));
  }
}
