// The built-in visual names the API accepts and reports. Spelling here is the spelling the API
// returns; every lookup on input is case-insensitive (core/text findName).

/** Background effects, ASCII-sorted. */
export const EFFECTS: string[] = [
  "BrickBreaker", "Checkerboard", "ColorWaves", "Fade", "Fireworks", "LookingEyes", "Matrix",
  "MovingLine", "Pacifica", "PingPong", "Plasma", "PlasmaCloud", "Radar", "Ripple", "Snake",
  "SwirlIn", "SwirlOut", "TheaterChase", "TwinklingStars",
];

/** Transitions in their fixed order (index 0, Random, picks one of the others). */
export const TRANSITIONS: string[] = [
  "Random", "Slide", "Dim", "Zoom", "Rotate", "Pixelate", "Curtain", "Ripple", "Blink", "Reload",
  "Fade", "Cover", "Uncover", "Split", "Blinds", "Blocks", "Flash", "Diamond", "Wave", "Rain",
  "Melt", "Interlace",
];

/** Weather overlays, ASCII-sorted. */
export const OVERLAYS: string[] = ["drizzle", "frost", "rain", "snow", "storm", "thunder"];

/** Built-in palettes (palette files are listed through the files route). */
export const PALETTES: string[] = ["Cloud", "Lava", "Ocean", "Forest", "Stripe", "Party", "Heat", "Rainbow"];
