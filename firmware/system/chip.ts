// The chip rules of the board the firmware runs on, read from their Storage file when pins are
// validated or reported (build/chips.mjs writes `chip.<board id>`), so they are not held between.
import type { ChipRules } from "../../boards/board";

export function chipRules(flash: { read(name: string): string | undefined }, boardId: string): ChipRules {
  const text = flash.read("chip." + boardId);
  if (text === undefined) throw new Error("chip rules chip." + boardId + " are missing");
  return JSON.parse(text) as ChipRules;
}
