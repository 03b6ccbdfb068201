// The board's chip rules (build/chips.mjs), read from their Storage file for each use: pins are
// validated and reported rarely, and the tables are not held in between.
import type { ChipRules } from "../../boards/board";
import { fwFile } from "../platform/slot";
import type { SystemStore } from "./store";

export function chipRules(system: SystemStore): ChipRules {
  const id = system.board.id;
  const text = system.record.flash.read(fwFile("chip." + id));
  if (text === undefined) throw new Error("chip rules chip." + id + " are missing");
  return JSON.parse(text) as ChipRules;
}
