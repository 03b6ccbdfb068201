// The built-in visual names the API accepts and reports. Spelling here is the spelling the API
// returns; every lookup on input is case-insensitive (core/text findName).
//
// The lists are built where they are used (capabilities, validation: modules, loaded for a
// request). The render loop only needs a transition's index, which transitionIndex finds in the
// text of the list: held in the code (in flash), not as an array of strings in memory.

/** Transitions in their fixed order, space-separated (index 0, Random, picks one of the others). */
function transitionList(): string {
  return "Random Slide Dim Zoom Rotate Pixelate Curtain Ripple Blink Reload Fade Cover Uncover Split Blinds " +
    "Blocks Flash Diamond Wave Rain Melt Interlace";
}

/** How many names TRANSITIONS holds. */
export const TRANSITION_COUNT = 22;

/** Index of a transition name in TRANSITIONS, ignoring case; -1 when it is not one. */
export function transitionIndex(name: string): number {
  const list = transitionList().toLowerCase();
  const want = name.toLowerCase();
  let index = 0;
  let from = 0;
  while (from <= list.length) {
    let to = list.indexOf(" ", from);
    if (to < 0) to = list.length;
    if (to - from === want.length && list.substr(from, to - from) === want) return index;
    index++;
    from = to + 1;
  }
  return -1;
}

/** Name of transition `index` as TRANSITIONS spells it; "" when there is none. */
export function transitionName(index: number): string {
  const list = transitionList();
  if (index < 0) return "";
  let from = 0;
  for (let k = 0; k < index; k++) {
    from = list.indexOf(" ", from) + 1;
    if (from === 0) return "";
  }
  const to = list.indexOf(" ", from);
  return list.substring(from, to < 0 ? list.length : to);
}

/** Transitions in their fixed order (index 0, Random, picks one of the others). */
export const TRANSITIONS: string[] = /* @__PURE__ */ transitionList().split(" ");

/** Background effects, ASCII-sorted. */
export const EFFECTS: string[] = [
  "BrickBreaker", "Checkerboard", "ColorWaves", "Fade", "Fireworks", "LookingEyes", "Matrix",
  "MovingLine", "Pacifica", "PingPong", "Plasma", "PlasmaCloud", "Radar", "Ripple", "Snake",
  "SwirlIn", "SwirlOut", "TheaterChase", "TwinklingStars",
];

/** Weather overlays, ASCII-sorted. */
export const OVERLAYS: string[] = ["drizzle", "frost", "rain", "snow", "storm", "thunder"];

/** Built-in palettes (palette files are listed through the files route). */
export const PALETTES: string[] = ["Cloud", "Lava", "Ocean", "Forest", "Stripe", "Party", "Heat", "Rainbow"];
