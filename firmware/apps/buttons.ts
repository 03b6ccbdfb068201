// The left and right buttons step through the loop. rotate turns the panel upside down, so the
// buttons swap with it; swapButtons swaps them too (both together cancel out).
import type { AppLoop } from "./loop";
import { watchButton } from "../platform/io";
import { nowMs } from "../platform/system";

export interface ButtonWiring {
  pinBtnLeft: number;
  pinBtnRight: number;
  swapButtons: boolean;
  rotate: boolean;
}

/** Which way a press of the left button steps: -1 back, +1 forward. */
export function leftStep(w: ButtonWiring): number {
  return w.swapButtons !== w.rotate ? 1 : -1;
}

// Made outside wireLoopButtons: a closure keeps its whole scope alive, and the wiring passed
// there is the boot's configuration object, which a later PUT /system replaces.
function onPress(loop: AppLoop, blocked: () => boolean, step: number): (pressed: boolean) => void {
  return (pressed) => {
    if (pressed && !blocked()) loop.step(step, nowMs(), false);
  };
}

export function wireLoopButtons(w: ButtonWiring, loop: AppLoop, blocked: () => boolean): void {
  const left = leftStep(w);
  if (w.pinBtnLeft >= 0) watchButton(w.pinBtnLeft, onPress(loop, blocked, left));
  if (w.pinBtnRight >= 0) watchButton(w.pinBtnRight, onPress(loop, blocked, -left));
}
