// The loop's arrangement and its pushed apps, with a clock the tests turn: which apps take turns
// (default order, order with duplicates and waiting names, switched-off names), what survives a
// change of apps, a pushed app's own dwell (durationMs, repeat), lifetimes (remove, mark) and a
// wall clock that is set meanwhile. Pages come from a stand-in page module.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { AppLoop, LEAD_MS } from "../../firmware/apps/loop";
import { PushedApp } from "../../firmware/apps/payload-app";
import { NOT_FITTED, forgetPageModule } from "./apps-support";
import type { FrameContext, LoopApp } from "../../firmware/apps/types";
import type { StoredPayload } from "../../firmware/payload/stored";
import { activateApp, stepLoop } from "../../firmware/apps/moves";
import refreshLoop from "../../firmware/apps/refresh.mod";

type HostModules = (id: string) => unknown;
const g = globalThis as unknown as { PIXLOOP_HOST_MODULES: HostModules };
const served = g.PIXLOOP_HOST_MODULES;
/** Page module loads, and pages alive. */
let pageLoads = 0;
let pagesMade = 0;

// The stand-in page module: a page whose text "scrolls" when it begins with "~", one pass per
// second of shownMs; other text does not move.
test.before(() => {
  forgetPageModule();
  g.PIXLOOP_HOST_MODULES = (id: string) => {
    if (id !== "payload/page") return served(id);
    pageLoads++;
    return (p: StoredPayload) => {
      pagesMade++;
      let stale = false;
      return {
        text: p.t || "",
        // Framed as the real page frames itself once marked (payload/page's own tests check where).
        draw: (c: { width: number; height: number; color(rgb: number): void; g: { drawRect(...a: number[]): void } }) => {
          if (!stale) return;
          c.color(0x6e0700);
          c.g.drawRect(0, 0, c.width - 1, c.height - 1);
        },
        markStale: () => {
          stale = true;
        },
        passes(f: FrameContext) {
          return (p.t || "").charAt(0) === "~" ? Math.floor(f.shownMs / 1000) : -1;
        },
      };
    };
  };
});
test.after(() => {
  forgetPageModule();
  g.PIXLOOP_HOST_MODULES = served;
});

function builtin(name: string, present = true): LoopApp {
  return { name, origin: "builtin", draw: () => undefined, ...(present ? {} : NOT_FITTED) };
}

function pushed(name: string, extra: Partial<PushedApp> = {}, text = name): PushedApp {
  return Object.assign(new PushedApp(name, { t: text }), extra);
}

function makeLoop(opts: { dur?: number; trans?: number; auto?: boolean } = {}) {
  const timing = { autoTransition: opts.auto ?? true, appDurationMs: opts.dur ?? 1000, transitionDurationMs: opts.trans ?? 0 };
  const loop = new AppLoop([builtin("Time"), builtin("Date"), builtin("Temperature", false)], () => timing, () => 1, () => false);
  loop.update(0);
  return { loop, timing };
}

function add(loop: AppLoop, ...apps: LoopApp[]): void {
  for (const a of apps) loop.apps.push(a);
  refreshLoop(loop);
}

const rotation = (l: AppLoop) => l.rotation.map((a) => a.name).join(" ");
const afterFrame = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** One frame at `now` and what it queued to run after it, as the render loop runs them. */
async function tick(loop: AppLoop, now: number): Promise<void> {
  loop.update(now);
  await afterFrame();
}

// First: no page of another test holds the module yet.
test("pages share one load of the page module, dropped with the last page", () => {
  const loads = pageLoads;
  const a = pushed("a");
  const b = pushed("b");
  assert.ok(a.load());
  assert.ok(b.load());
  assert.is(pageLoads, loads + 1);
  a.release();
  b.release();
  a.release();
  assert.ok(a.load());
  assert.is(pageLoads, loads + 2, "loaded again once no page held it");
  a.release();
});

test("default order: the built-ins this device has, then pushed apps by first arrival", () => {
  const { loop } = makeLoop();
  add(loop, pushed("weather"), pushed("stocks0"));
  add(loop, pushed("bus"));
  assert.is(rotation(loop), "Time Date weather stocks0 bus");
});

test("an order picks names in turn, duplicates included; unnamed apps follow; names wait for their app", () => {
  const { loop } = makeLoop();
  add(loop, pushed("weather"), pushed("bus"));
  loop.order = ["weather", "Time", "co2", "weather", "Temperature"];
  refreshLoop(loop);
  assert.is(rotation(loop), "weather Time weather Date bus", "co2 waits; Temperature has no sensor");
  add(loop, pushed("co2"));
  assert.is(rotation(loop), "weather Time co2 weather Date bus", "co2 takes the place held for it");
});

test("switched-off names leave the rotation, present or not, and come back when switched on", () => {
  const { loop } = makeLoop();
  loop.off = ["Date", "later"];
  add(loop, pushed("weather"));
  assert.is(rotation(loop), "Time weather");
  add(loop, pushed("later"));
  assert.is(rotation(loop), "Time weather", "an app arriving under a switched-off name stays off");
  loop.off = [];
  refreshLoop(loop);
  assert.is(rotation(loop), "Time Date weather later");
});

test("a change of apps keeps the page on screen; a page that left gives its place to the next", () => {
  const { loop } = makeLoop();
  const w = pushed("weather");
  add(loop, w, pushed("bus"));
  activateApp(loop, "weather", 10, true);
  add(loop, pushed("news"));
  assert.is(loop.current(), w);
  loop.apps.splice(loop.apps.indexOf(w), 1);
  refreshLoop(loop);
  assert.is(loop.current()!.name, "bus");
});

test("a change of apps during a transition lets it run on", () => {
  const { loop } = makeLoop({ trans: 500 });
  add(loop, pushed("weather"));
  stepLoop(loop, 1, 100, false);
  assert.is(loop.incoming()!.name, "Date");
  add(loop, pushed("bus"));
  assert.is(loop.current()!.name, "Time");
  assert.is(loop.incoming()!.name, "Date");
  loop.update(700);
  assert.is(loop.current()!.name, "Date");
});

test("durationMs of its own: a pushed app stays that long instead of appDurationMs", async () => {
  const { loop } = makeLoop({ dur: 1000 });
  add(loop, pushed("long", { du: 3000 }), pushed("short", { du: 200 }));
  activateApp(loop, "long", 0, true);
  await afterFrame();
  await tick(loop, 3000 - LEAD_MS - 1);
  assert.is(loop.upcoming(), null, "alone while its own time is more than LEAD_MS from its end");
  await tick(loop, 3000 - LEAD_MS);
  assert.is(loop.upcoming()!.name, "short", "the next page is ready LEAD_MS before its own time is up");
  loop.update(2999);
  assert.is(loop.current()!.name, "long");
  loop.update(3000);
  assert.is(loop.current()!.name, "short");
  await afterFrame();
  assert.is(loop.upcoming(), null, "the page on screen stands alone after its landing frame");
  // Shorter than LEAD_MS: its first frame after the landing wants the next page.
  await tick(loop, 3001);
  assert.is(loop.upcoming()!.name, "Time");
  loop.update(3199);
  assert.is(loop.current()!.name, "short");
  loop.update(3200);
  assert.is(loop.current()!.name, "Time");
});

test("repeat: moving text stays for its passes, no longer, and at least its own durationMs", async () => {
  const { loop } = makeLoop({ dur: 10000 });
  add(loop, pushed("news", { rp: 2 }, "~headline"), pushed("slow", { rp: 1, du: 4000 }, "~x"), pushed("still", { rp: 3 }, "fits"));
  activateApp(loop, "news", 0, true);
  await afterFrame();
  // Its passes are counted as they will be LEAD_MS later: the next page comes that much ahead.
  await tick(loop, 2000 - LEAD_MS - 1);
  assert.is(loop.upcoming(), null, "one pass LEAD_MS later: alone");
  await tick(loop, 2000 - LEAD_MS);
  assert.is(loop.upcoming()!.name, "slow", "two passes LEAD_MS later: the next page is ready");
  loop.update(1999);
  assert.is(loop.current()!.name, "news");
  loop.update(2000);
  assert.is(loop.current()!.name, "slow", "two passes, well before appDurationMs");
  await afterFrame();
  await tick(loop, 6000 - LEAD_MS - 1);
  assert.is(loop.upcoming(), null, "its pass is done, but not its durationMs, LEAD_MS later");
  await tick(loop, 6000 - LEAD_MS);
  assert.is(loop.upcoming()!.name, "still");
  loop.update(5999);
  assert.is(loop.current()!.name, "slow", "one pass done, but durationMs is the least");
  loop.update(6000);
  assert.is(loop.current()!.name, "still");
  await afterFrame();
  await tick(loop, 16000 - LEAD_MS - 1);
  assert.is(loop.upcoming(), null, "text that does not move stands alone for appDurationMs less LEAD_MS");
  await tick(loop, 16000 - LEAD_MS);
  assert.is(loop.upcoming()!.name, "Time");
  loop.update(15999);
  assert.is(loop.current()!.name, "still", "text that does not move: repeat counts nothing");
  loop.update(16000);
  assert.is(loop.current()!.name, "Time");
});

test("lifetimes: remove takes the app out, mark keeps it framed; the soonest is tracked", async () => {
  const { loop } = makeLoop({ auto: false });
  const gone = pushed("gone", { ex: 500 });
  const kept = pushed("kept", { ex: -800 });
  add(loop, gone, kept, pushed("plain"));
  loop.expires = 500;
  loop.update(499);
  await afterFrame();
  assert.is(rotation(loop), "Time Date gone kept plain");
  loop.update(500);
  await afterFrame();
  assert.is(rotation(loop), "Time Date kept plain");
  assert.is(loop.expires, 800);
  loop.update(800);
  await afterFrame();
  assert.is(rotation(loop), "Time Date kept plain");
  assert.is(kept.mk, 1);
  assert.is(kept.ex, undefined);
  assert.is(loop.expires, Infinity);
});

test("setting the wall clock neither ends nor stretches a lifetime", async () => {
  const { loop } = makeLoop({ auto: false });
  loop.update(1000);
  const a = pushed("a", { ex: loop.life + 5000 });
  add(loop, a);
  loop.expires = a.ex!;
  // The clock is set: 1.7e12 ms later in one step.
  loop.update(1700000000000);
  loop.update(1700000004000);
  await afterFrame();
  assert.is(rotation(loop), "Time Date a");
  loop.update(1700000006000);
  await afterFrame();
  assert.is(rotation(loop), "Time Date");
});

test("a marked app's page is made again and marked, and so is it when loaded later", async () => {
  const rects: string[] = [];
  let color = -1;
  const c = {
    width: 32, height: 8,
    g: { drawRect: (x: number, y: number, x2: number, y2: number) => rects.push([x, y, x2, y2, color.toString(16)].join(",")) },
    color: (rgb: number) => { color = rgb; },
  };
  const { loop } = makeLoop({ auto: false });
  const a = pushed("a", { ex: -500 });
  add(loop, a);
  loop.expires = 500;
  // On screen, so that its page stays in memory.
  activateApp(loop, "a", 0, true);
  a.draw(c as never, {} as FrameContext);
  assert.equal(rects, []);
  loop.update(500);
  await afterFrame();
  assert.is(a.mk, 1);
  a.draw(c as never, {} as FrameContext);
  assert.equal(rects, ["0,0,31,7,6e0700"], "the page in memory was made again, framed");
  assert.ok(isNaN(a.stillKey({} as FrameContext)));
  a.release();
  assert.ok(a.load());
  a.draw(c as never, {} as FrameContext);
  assert.is(rects.length, 2, "and so is it when it is loaded later");
  a.release();
});

test("a pushed app costs only what it was given: absent extras are absent properties", () => {
  const a = new PushedApp("weather", { t: "21C" });
  assert.equal(Object.keys(a).sort(), ["name", "p"]);
  assert.ok(a.load());
  assert.equal(Object.keys(a).sort(), ["name", "p", "page"]);
  a.release();
  assert.equal(Object.keys(a).sort(), ["name", "p"]);
});

test.run();
