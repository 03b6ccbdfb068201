// What a drawing routine is handed: a Graphics of the logical panel (x to the right, y down,
// 0,0 top left) and the one way to choose a colour. Colours pass through the panel's colour
// grading here (saturation, correction, tint, gamma, brightness, LED channel order), so the
// buffer already holds what the LEDs get; a screen capture draws with an ungraded canvas.

export interface Canvas {
  readonly g: Graphics;
  readonly width: number;
  readonly height: number;
  /** Selects logical colour 0xRRGGBB for what is drawn next; `level` 0..1 dims it (default 1). */
  color(rgb: number, level?: number): void;
}
