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

export function wireLoopButtons(w: ButtonWiring, loop: AppLoop, blocked: () => boolean): void {
  const left = leftStep(w);
  const press = (step: number) => (pressed: boolean) => {
    if (pressed && !blocked()) loop.step(step, nowMs(), false);
  };
  if (w.pinBtnLeft >= 0) watchButton(w.pinBtnLeft, press(left));
  if (w.pinBtnRight >= 0) watchButton(w.pinBtnRight, press(-left));
}
