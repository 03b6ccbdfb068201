// Whether a request may keep more in memory (a pushed app, a queued notification) and still leave
// the clock `reserve` variables. The cheap reading counts garbage that only a collection frees
// (a request leaves cycles of closures behind), so a low reading is taken again after one.
import { heap } from "../platform/system";

export function roomFor(reserve: number): boolean {
  return heap().freeVars >= reserve || process.memory().free >= reserve;
}
