import { test } from "uvu";
import * as assert from "uvu/assert";
import { loopButtons } from "../../firmware/apps/buttons";
import type { AppLoop } from "../../firmware/apps/loop";
import type { NoticeQueue } from "../../firmware/notify/queue";

const wiring = (swapButtons: boolean, rotate: boolean) => ({ pinBtnLeft: 26, pinBtnRight: 14, pinBtnSelect: 27, swapButtons, rotate });

/** The steps the press module is handed for a press of the left and then the right button. */
function steps(swapButtons: boolean, rotate: boolean): number[] {
  const g = globalThis as unknown as { PIXLOOP_HOST_MODULES: (id: string) => unknown };
  const host = g.PIXLOOP_HOST_MODULES;
  const seen: number[] = [];
  g.PIXLOOP_HOST_MODULES = (id: string) => (id === "apps/press" ? (_loop: AppLoop, delta: number) => seen.push(delta) : host(id));
  try {
    const press = loopButtons(wiring(swapButtons, rotate), {} as AppLoop, () => false, {} as NoticeQueue);
    press("left", true);
    press("left", false);
    press("right", true);
  } finally {
    g.PIXLOOP_HOST_MODULES = host;
  }
  return seen;
}

test("the left button steps back; swapButtons or a rotated panel turn it round, both together cancel", () => {
  assert.equal(steps(false, false), [-1, 1]);
  assert.equal(steps(true, false), [1, -1]);
  assert.equal(steps(false, true), [1, -1]);
  assert.equal(steps(true, true), [-1, 1]);
});

test.run();
