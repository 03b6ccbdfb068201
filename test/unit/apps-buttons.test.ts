import { test } from "uvu";
import * as assert from "uvu/assert";
import { leftStep } from "../../firmware/apps/buttons";

const wiring = (swapButtons: boolean, rotate: boolean) => ({ pinBtnLeft: 26, pinBtnRight: 14, pinBtnSelect: 27, swapButtons, rotate });

test("the left button steps back; swapButtons or a rotated panel turn it round, both together cancel", () => {
  assert.is(leftStep(wiring(false, false)), -1);
  assert.is(leftStep(wiring(true, false)), 1);
  assert.is(leftStep(wiring(false, true)), 1);
  assert.is(leftStep(wiring(true, true)), -1);
});

test.run();
