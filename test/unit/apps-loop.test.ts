import { test } from "uvu";
import * as assert from "uvu/assert";
import { AppLoop } from "../../firmware/apps/loop";
import type { LoopApp } from "../../firmware/apps/types";

function app(name: string, present = true): LoopApp {
  return { name, origin: "builtin", present: () => present, draw: () => undefined };
}

function makeLoop(opts: Partial<{ auto: boolean; dur: number; trans: number; reverse: boolean }> = {}) {
  const timing = { autoTransition: opts.auto ?? true, appDurationMs: opts.dur ?? 7000, transitionDurationMs: opts.trans ?? 1000 };
  const loop = new AppLoop([app("Time"), app("Date"), app("Temperature", false), app("Battery")], () => timing,
    () => 5, () => opts.reverse ?? false);
  // The first frame, at time 0, starts the first page's time.
  loop.update(0);
  return { loop, timing };
}

const names = (l: AppLoop) => l.members().map((a) => a.name);

test("the rotation holds the present apps in default order", () => {
  const { loop } = makeLoop();
  assert.equal(names(loop), ["Time", "Date", "Battery"]);
  assert.is(loop.current()!.name, "Time");
  assert.is(loop.incoming(), null);
});

test("a page stays appDurationMs, then the transition runs for transitionDurationMs", () => {
  const { loop } = makeLoop();
  loop.update(6999);
  assert.is(loop.incoming(), null);
  loop.update(7000);
  assert.is(loop.incoming()!.name, "Date");
  assert.is(loop.current()!.name, "Time", "during a transition the page being left is current");
  assert.is(loop.effect, 5);
  assert.is(loop.progress(7500), 0.5);
  loop.update(7999);
  assert.is(loop.current()!.name, "Time");
  // A late frame lands the page at the moment the transition ended, not when the frame came.
  loop.update(8400);
  assert.is(loop.current()!.name, "Date");
  assert.is(loop.incoming(), null);
  assert.is(loop.shownMs(8400), 400);
  loop.update(15000);
  assert.is(loop.incoming()!.name, "Battery");
});

test("autoTransition off keeps the page until asked", () => {
  const { loop } = makeLoop({ auto: false });
  loop.update(100000);
  assert.is(loop.current()!.name, "Time");
  assert.is(loop.incoming(), null);
  loop.next(100000, false);
  assert.is(loop.incoming()!.name, "Date");
});

test("next and previous wrap around; previous plays the transition backwards", () => {
  const { loop } = makeLoop();
  loop.previous(10, false);
  assert.is(loop.incoming()!.name, "Battery");
  assert.is(loop.reverse, true);
  loop.next(20, true);
  // The running transition lands first, then the fast step goes on from there.
  assert.is(loop.current()!.name, "Time");
  assert.is(loop.incoming(), null);
  loop.next(30, false);
  assert.is(loop.reverse, false);
});

test("transitionDirection reverse flips both ways", () => {
  const { loop } = makeLoop({ reverse: true });
  loop.next(0, false);
  assert.is(loop.reverse, true);
  loop.previous(5000, false);
  assert.is(loop.reverse, false);
});

test("transitionDurationMs 0 switches at once", () => {
  const { loop } = makeLoop({ trans: 0 });
  loop.update(7000);
  assert.is(loop.current()!.name, "Date");
  assert.is(loop.incoming(), null);
});

test("activate by name; unknown or absent names are refused", () => {
  const { loop } = makeLoop();
  assert.is(loop.activate("Battery", 0, true), true);
  assert.is(loop.current()!.name, "Battery");
  assert.is(loop.activate("Temperature", 0, true), false);
  assert.is(loop.activate("nope", 0, true), false);
  assert.is(loop.activate("Date", 100, false), true);
  assert.is(loop.incoming()!.name, "Date");
});

test("one app never rotates", () => {
  const loop = new AppLoop([app("Time")], () => ({ autoTransition: true, appDurationMs: 10, transitionDurationMs: 0 }),
    () => 1, () => false);
  loop.update(1000);
  loop.next(1000, false);
  assert.is(loop.current()!.name, "Time");
});

test("the first page's time starts with the first frame, not at time 0", () => {
  const loop = new AppLoop([app("A"), app("B")], () => ({ autoTransition: true, appDurationMs: 1000, transitionDurationMs: 0 }),
    () => 1, () => false);
  assert.is(loop.shownMs(5000), 0);
  loop.update(5000);
  loop.update(5999);
  assert.is(loop.current()!.name, "A");
  assert.is(loop.shownMs(5500), 500);
  loop.update(6000);
  assert.is(loop.current()!.name, "B");
});

test("an empty loop has no current app", () => {
  const loop = new AppLoop([app("X", false)], () => ({ autoTransition: true, appDurationMs: 10, transitionDurationMs: 0 }),
    () => 1, () => false);
  assert.is(loop.current(), null);
  loop.update(50);
  assert.is(loop.activate("X", 0, true), false);
});

test.run();
