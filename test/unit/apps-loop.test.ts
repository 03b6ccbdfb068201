import { test } from "uvu";
import * as assert from "uvu/assert";
import { AppLoop, LEAD_MS } from "../../firmware/apps/loop";
import type { LoopApp } from "../../firmware/apps/types";
import { activateApp, stepLoop } from "../../firmware/apps/moves";
import replaceApps from "../../firmware/apps/replace.mod";
import { NOT_FITTED } from "./apps-support";

function app(name: string, present = true): LoopApp {
  return { name, origin: "builtin", draw: () => undefined, ...(present ? {} : NOT_FITTED) };
}

function makeLoop(opts: Partial<{ auto: boolean; dur: number; trans: number; reverse: boolean }> = {}) {
  const timing = { autoTransition: opts.auto ?? true, appDurationMs: opts.dur ?? 7000, transitionDurationMs: opts.trans ?? 1000 };
  const loop = new AppLoop([app("Time"), app("Date"), app("Temperature", false), app("Battery")], () => timing,
    () => 5, () => opts.reverse ?? false);
  // The first frame, at time 0, starts the first page's time.
  loop.update(0);
  return { loop, timing };
}

const names = (l: AppLoop) => l.rotation.map((a) => a.name);

/** Lets the timers queued so far run: a page landed in a frame has the next one prepared after it. */
const afterFrame = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** One frame at `now` and what it queued to run after it, as the render loop runs them. */
async function tick(loop: AppLoop, now: number): Promise<void> {
  loop.update(now);
  await afterFrame();
}

test("the rotation holds the present apps in default order", () => {
  const { loop } = makeLoop();
  assert.equal(names(loop), ["Time", "Date", "Battery"]);
  assert.is(loop.current()!.name, "Time");
  assert.is(loop.incoming(), null);
});

test("a page stays appDurationMs, then the transition runs for transitionDurationMs", async () => {
  const { loop } = makeLoop();
  await tick(loop, 7000 - LEAD_MS - 1);
  assert.is(loop.upcoming(), null, "no next page while the change is more than LEAD_MS away");
  await tick(loop, 7000 - LEAD_MS);
  assert.is(loop.upcoming()!.name, "Date", "the next page is ready LEAD_MS before its change");
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
  await afterFrame();
  assert.is(loop.upcoming(), null, "the page on screen stands alone");
  await tick(loop, 15000 - LEAD_MS);
  loop.update(15000);
  assert.is(loop.incoming()!.name, "Battery");
});

test("autoTransition off keeps the page until asked", () => {
  const { loop } = makeLoop({ auto: false });
  loop.update(100000);
  assert.is(loop.current()!.name, "Time");
  assert.is(loop.incoming(), null);
  stepLoop(loop, 1, 100000, false);
  assert.is(loop.incoming()!.name, "Date");
});

test("next and previous wrap around; previous plays the transition backwards", () => {
  const { loop } = makeLoop();
  stepLoop(loop, -1, 10, false);
  assert.is(loop.incoming()!.name, "Battery");
  assert.is(loop.reverse, true);
  stepLoop(loop, 1, 20, true);
  // The running transition lands first, then the fast step goes on from there.
  assert.is(loop.current()!.name, "Time");
  assert.is(loop.incoming(), null);
  stepLoop(loop, 1, 30, false);
  assert.is(loop.reverse, false);
});

test("transitionDirection reverse flips both ways", () => {
  const { loop } = makeLoop({ reverse: true });
  stepLoop(loop, 1, 0, false);
  assert.is(loop.reverse, true);
  stepLoop(loop, -1, 5000, false);
  assert.is(loop.reverse, false);
});

test("transitionDurationMs 0 switches at once", async () => {
  const { loop } = makeLoop({ trans: 0 });
  await tick(loop, 7000 - LEAD_MS);
  loop.update(7000);
  assert.is(loop.current()!.name, "Date");
  assert.is(loop.incoming(), null);
});

test("activate by name; unknown or absent names are refused", () => {
  const { loop } = makeLoop();
  assert.is(activateApp(loop, "Battery", 0, true), true);
  assert.is(loop.current()!.name, "Battery");
  assert.is(activateApp(loop, "Temperature", 0, true), false);
  assert.is(activateApp(loop, "nope", 0, true), false);
  assert.is(activateApp(loop, "Date", 100, false), true);
  assert.is(loop.incoming()!.name, "Date");
});

test("one app never rotates", () => {
  const loop = new AppLoop([app("Time")], () => ({ autoTransition: true, appDurationMs: 10, transitionDurationMs: 0 }),
    () => 1, () => false);
  loop.update(1000);
  stepLoop(loop, 1, 1000, false);
  assert.is(loop.current()!.name, "Time");
});

test("the first page's time starts with the first frame, not at time 0", async () => {
  const loop = new AppLoop([app("A"), app("B")], () => ({ autoTransition: true, appDurationMs: 1000, transitionDurationMs: 0 }),
    () => 1, () => false);
  assert.is(loop.shownMs(5000), 0);
  // A page shorter than LEAD_MS wants the next one from its first frame.
  await tick(loop, 5000);
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
  assert.is(activateApp(loop, "X", 0, true), false);
});

/** Apps whose page is loaded and released as a module app's is, writing down what happens when. */
interface Probe {
  log: string[];
  inFrame: boolean;
  apps: (LoopApp & { loaded: boolean })[];
}

function probe(spec: string): Probe {
  const p: Probe = { log: [], inFrame: false, apps: [] };
  // One letter per app; a lower-case letter is an app whose page cannot be loaded.
  for (const letter of spec.split("")) {
    const name = letter.toUpperCase();
    const fails = letter !== name;
    p.apps.push({
      name, origin: "builtin", draw: () => undefined, loaded: false,
      load() {
        if (!this.loaded) p.log.push((p.inFrame ? "in frame: " : "") + "load " + name);
        if (!fails) this.loaded = true;
        return !fails;
      },
      release() {
        if (this.loaded) p.log.push("release " + name);
        this.loaded = false;
      },
    });
  }
  return p;
}

const loadedOf = (p: Probe) => p.apps.filter((a) => a.loaded).map((a) => a.name).join("");

function probeLoop(p: Probe, trans = 1000) {
  return new AppLoop(p.apps, () => ({ autoTransition: true, appDurationMs: 7000, transitionDurationMs: trans }), () => 5, () => false);
}

/** One frame's worth of the loop, as the engine runs it. */
function frame(p: Probe, loop: AppLoop, now: number): void {
  p.inFrame = true;
  loop.update(now);
  p.inFrame = false;
}

test("at start only the page on screen is loaded", () => {
  const p = probe("ABCD");
  const loop = probeLoop(p);
  assert.is(loadedOf(p), "A");
  assert.is(loop.upcoming(), null);
  assert.equal(p.log, ["load A"]);
});

/** Frames 25 ms apart from `now`, each with what it queued after it, until `done`; the time reached. */
async function framesUntil(p: Probe, loop: AppLoop, now: number, done: () => boolean): Promise<number> {
  for (; !done(); now += 25) {
    frame(p, loop, now);
    await afterFrame();
  }
  return now;
}

test("the next page is loaded LEAD_MS before its transition starts, never in a frame; pages that left are released", async () => {
  const p = probe("ABCD");
  const loop = probeLoop(p);
  let now = 0;
  frame(p, loop, now);
  for (let cycle = 0; cycle < 2 * 4; cycle++) {
    const on = loop.current()!;
    // Alone on screen until the change is LEAD_MS away.
    for (; !loop.upcoming(); now += 25) {
      assert.is(loadedOf(p), on.name, "cycle " + cycle + ": alone at " + loop.shownMs(now) + " ms");
      frame(p, loop, now);
      await afterFrame();
    }
    const next = loop.upcoming()!;
    assert.ok(next.name !== on.name);
    const wantedAt = loop.shownMs(now - 25);
    assert.ok(wantedAt >= 7000 - LEAD_MS && wantedAt < 7000 - LEAD_MS + 25, "wanted at " + wantedAt + " ms of 7000");
    // The page's time runs out in a frame: the transition starts with both pages in memory.
    now = await framesUntil(p, loop, now, () => loop.incoming() !== null);
    assert.is(loop.incoming(), next);
    assert.is(loadedOf(p), [on.name, next.name].sort().join(""), "cycle " + cycle);
    // It lands in a frame; the page left stays loaded until that frame is over.
    for (; loop.incoming(); now += 25) frame(p, loop, now);
    assert.is(loop.current(), next);
    assert.is(loadedOf(p), [on.name, next.name].sort().join(""), "cycle " + cycle + " in the landing frame");
    await afterFrame();
    assert.is(loop.upcoming(), null);
    assert.is(loadedOf(p), next.name, "cycle " + cycle + " after the frame");
  }
  assert.equal(p.log.filter((l) => l.indexOf("in frame") >= 0), []);
  // Each landing releases the page that left; the one after next comes LEAD_MS before its change.
  assert.equal(p.log.slice(0, 6), ["load A", "load B", "release A", "load C", "release B", "load D"]);
});

test("in a loop of two, each page stands alone between its changes", async () => {
  const p = probe("AB");
  const loop = probeLoop(p);
  let now = 0;
  for (let k = 0; k < 4; k++) {
    now = await framesUntil(p, loop, now, () => loop.incoming() !== null);
    assert.is(loadedOf(p), "AB");
    now = await framesUntil(p, loop, now, () => loop.incoming() === null);
    assert.is(loadedOf(p), loop.current()!.name);
  }
  assert.is(loop.current()!.name, "A");
  assert.equal(p.log.slice(0, 5), ["load A", "load B", "release A", "load A", "release B"]);
});

test("a step or an activation loads the page it brings at once (outside frames); the rest go", async () => {
  const p = probe("ABCD");
  const loop = probeLoop(p);
  frame(p, loop, 0);
  stepLoop(loop, -1, 100, false);
  assert.is(loop.incoming()!.name, "D");
  assert.is(loadedOf(p), "AD", "B, next a moment ago, is released");
  activateApp(loop, "C", 200, true);
  assert.is(loop.current()!.name, "C", "the transition to D landed, then C came at once");
  assert.is(loop.upcoming(), null);
  assert.is(loadedOf(p), "C");
  stepLoop(loop, 1, 300, true);
  assert.is(loop.current()!.name, "D");
  assert.is(loadedOf(p), "D");
  assert.equal(p.log.filter((l) => l.indexOf("in frame") >= 0), []);
});

test("a page that cannot be loaded is skipped by the rotation and by steps, and shown blank when asked for", async () => {
  const p = probe("AbC");
  const loop = probeLoop(p, 0);
  assert.equal(names(loop), ["A", "B", "C"], "still a member");
  frame(p, loop, 0);
  frame(p, loop, 7000 - LEAD_MS);
  await afterFrame();
  assert.is(loop.upcoming()!.name, "C");
  frame(p, loop, 7000);
  assert.is(loop.current()!.name, "C");
  frame(p, loop, 14000 - LEAD_MS);
  await afterFrame();
  assert.is(loop.upcoming()!.name, "A", "past the end, round to A");
  stepLoop(loop, -1, 7100, true);
  assert.is(loop.current()!.name, "A", "back from C skips B");
  assert.is(activateApp(loop, "B", 7200, true), true);
  assert.is(loop.current()!.name, "B");
  assert.is(loadedOf(p), "", "B shows blank, alone");
  frame(p, loop, 7200 + 7000 - LEAD_MS);
  await afterFrame();
  assert.is(loop.upcoming()!.name, "C");
  assert.is(loadedOf(p), "C");
});

test("a loop whose other pages all fail stays on its page", async () => {
  const p = probe("Abc");
  const loop = probeLoop(p, 0);
  frame(p, loop, 0);
  frame(p, loop, 7000 - LEAD_MS);
  await afterFrame();
  assert.is(loop.upcoming(), null);
  assert.equal(p.log, ["load A", "load B", "load C"], "each tried once");
  frame(p, loop, 70000);
  await afterFrame();
  assert.equal(p.log, ["load A", "load B", "load C"], "and not again at every frame");
  assert.is(loop.current()!.name, "A");
  stepLoop(loop, 1, 70100, true);
  assert.is(loop.current()!.name, "A");
});

test("replace releases the pages of the apps it replaces", () => {
  const p = probe("AB");
  const loop = probeLoop(p);
  stepLoop(loop, 1, 0, false);
  assert.is(loadedOf(p), "AB");
  replaceApps(loop, [app("Setup")]);
  assert.is(loadedOf(p), "");
  assert.is(loop.current()!.name, "Setup");
});

test.run();
