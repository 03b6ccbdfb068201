// The left and right buttons step through the loop. rotate turns the panel upside down, so the
// buttons swap with it; swapButtons swaps them too (both together cancel out). The select button
// dismisses the notification on screen, blockNavigation or not (a passer-by may clear one).
import type { AppLoop } from "./loop";
import type { NoticeQueue } from "../notify/queue";
import { watchButton } from "../platform/io";
import { nowMs } from "../platform/system";

export interface ButtonWiring {
  pinBtnLeft: number;
  pinBtnRight: number;
  pinBtnSelect: number;
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

function onSelect(notices: NoticeQueue): (pressed: boolean) => void {
  return (pressed) => {
    if (!pressed) return;
    notices.drop(0);
    notices.prepare();
  };
}

export function wireLoopButtons(w: ButtonWiring, loop: AppLoop, blocked: () => boolean, notices: NoticeQueue): void {
  const left = leftStep(w);
  if (w.pinBtnLeft >= 0) watchButton(w.pinBtnLeft, onPress(loop, blocked, left));
  if (w.pinBtnRight >= 0) watchButton(w.pinBtnRight, onPress(loop, blocked, -left));
  if (w.pinBtnSelect >= 0) watchButton(w.pinBtnSelect, onSelect(notices));
}
