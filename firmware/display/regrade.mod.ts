// The settings changed (a request): the grading and every page may look different, and the next
// change of page plays the transition they ask for now.
import type { DisplayEngine } from "./engine";

const regrade = (engine: DisplayEngine): void => {
  engine.gradeDirty = true;
  // Only a new transitionEffect picks again: Random would otherwise trade the transition made
  // ahead for another at every change of any setting. None made ahead: nothing to pick again.
  const c = engine.change;
  if (!c || c.nextIndex < 0 || engine.parts.settings().transitionEffect === c.pickedFor) return;
  c.pick();
};
export default regrade;
