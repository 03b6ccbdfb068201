import { test } from "uvu";
import * as assert from "uvu/assert";
import { drawWeekdayBar } from "../../firmware/apps/builtin/weekday-bar";
import { defaultSettings } from "../../firmware/settings/schema";
import type { WeekdayBar } from "../../firmware/settings/types";
import { blankGraphics, frameOf, frameToText, ungradedCanvas } from "../harness/frame-fixture";

const TODAY = 0xffffff;
const OTHER = 0x666666;
const WEEKEND_TODAY = 0xffaa00;
const WEEKEND_OTHER = 0x664400;

function bar(patch: Partial<WeekdayBar> = {}): WeekdayBar {
  return Object.assign(defaultSettings().weekdayBar, {
    activeColor: TODAY, inactiveColor: OTHER, weekendActiveColor: WEEKEND_TODAY, weekendInactiveColor: WEEKEND_OTHER,
  }, patch);
}

/** The bar drawn on row 0 of a one-row canvas, as text. */
function row(b: WeekdayBar, today: number, x = 0, width = 32): string {
  const g = blankGraphics(32, 1);
  drawWeekdayBar(ungradedCanvas(g), b, today, x, width, 0);
  return frameToText(frameOf(g));
}

test("the two colour axes: weekend or workday, today or not", () => {
  // Saturday: a weekend day today, Sunday a weekend day not today, the rest workdays.
  assert.is(row(bar(), 6), "# g=#666666 O=#FFAA00 a=#664400\n..ggg.ggg.ggg.ggg.ggg.OOO.aaa...\n");
  // Wednesday: a workday today.
  assert.is(row(bar(), 3), "# g=#666666 W=#FFFFFF a=#664400\n..ggg.ggg.WWW.ggg.ggg.aaa.aaa...\n");
});

test("full width: seven 3-pixel segments from column 2, Monday first, today lit", () => {
  // Tuesday: second segment is today; Saturday and Sunday are the last two.
  assert.is(row(bar(), 2), "# g=#666666 W=#FFFFFF a=#664400\n..ggg.WWW.ggg.ggg.ggg.aaa.aaa...\n");
});

test("startOnMonday false only rotates: Sunday first, weekend still Saturday and Sunday", () => {
  assert.is(row(bar({ startOnMonday: false }), 2), "# a=#664400 g=#666666 W=#FFFFFF\n..aaa.ggg.WWW.ggg.ggg.ggg.aaa...\n");
  // Today on a weekend day, Sunday first.
  assert.is(row(bar({ startOnMonday: false }), 0), "# O=#FFAA00 g=#666666 a=#664400\n..OOO.ggg.ggg.ggg.ggg.ggg.aaa...\n");
});

test("weekend follows the calendar day, whatever the order", () => {
  assert.is(row(bar({ weekendDays: [5, 6] }), 5), "# g=#666666 O=#FFAA00 a=#664400\n..ggg.ggg.ggg.ggg.OOO.aaa.ggg...\n");
  assert.is(row(bar({ weekendDays: [] }), 0), "# g=#666666 W=#FFFFFF\n..ggg.ggg.ggg.ggg.ggg.ggg.WWW...\n");
});

test("the time area of the calendar modes: 2-pixel segments under columns 10-29", () => {
  assert.is(row(bar(), 3, 9, 23), "# g=#666666 W=#FFFFFF a=#664400\n..........gg.gg.WW.gg.gg.aa.aa..\n");
});

test("show false draws nothing", () => {
  assert.is(row(bar({ show: false }), 2), "#\n................................\n");
});

test.run();
