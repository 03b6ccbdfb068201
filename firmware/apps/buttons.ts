// The left and right buttons step through the loop. rotate turns the panel upside down, so the
// buttons swap with it; swapButtons swaps them too (both together cancel out). The select button
// dismisses the notification on screen, blockNavigation or not (a passer-by may clear one).
import type { AppLoop } from "./loop";
import type { NoticeQueue } from "../notify/queue";
import type { ButtonListener } from "../platform/buttons";
import type Press from "./press.mod";
import { loadModule } from "../platform/modules";

export interface ButtonWiring {
  swapButtons: boolean;
  rotate: boolean;
}

/** What the loop does on the buttons (platform/buttons), as wired at boot. */
export function loopButtons(w: ButtonWiring, loop: AppLoop, blocked: () => boolean, notices: NoticeQueue): ButtonListener {
  // Which way a press of the left button steps: -1 back, +1 forward.
  const left = w.swapButtons !== w.rotate ? 1 : -1;
  // The listener keeps this whole scope alive: it lets go of the wiring, the boot's configuration
  // object, which a later PUT /system replaces.
  w = null as unknown as ButtonWiring;
  return (name, pressed) => {
    if (!pressed) return;
    if (name === "select") {
      notices.drop(0);
      notices.prepare();
    } else if (!blocked()) {
      loadModule<typeof Press>("apps/press")(loop, name === "left" ? left : -left);
    }
  };
}
