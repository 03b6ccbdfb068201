// The notification queue over the loop, with a clock the tests turn: the front covers the loop's
// page (which keeps turning behind it) until its time is up, then the next comes in the same
// frame; hold, repeat, durationMs, wakeup; dismissing and retracting; and no page is made inside a
// frame. Pages come from a stand-in page module that counts where it is asked.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { AppLoop } from "../../firmware/apps/loop";
import { forgetPageModule } from "./apps-support";
import type { FrameContext, LoopApp } from "../../firmware/apps/types";
import type { StoredPayload } from "../../firmware/payload/stored";
import { NoticeQueue, type Notice } from "../../firmware/notify/queue";

type HostModules = (id: string) => unknown;
const g = globalThis as unknown as { PIXLOOP_HOST_MODULES: HostModules };
const served = g.PIXLOOP_HOST_MODULES;
let inFrame = false;
/** Pages made, by text, and any made while a frame was running. */
const made: string[] = [];
const madeInFrame: string[] = [];

test.before(() => {
  forgetPageModule();
  g.PIXLOOP_HOST_MODULES = (id: string) => {
    if (id !== "payload/page") return served(id);
    return (p: StoredPayload) => {
      const t = p.t || "";
      if (t === "!broken") throw new Error("no page for this payload");
      (inFrame ? madeInFrame : made).push(t);
      return {
        t,
        draw: () => undefined,
        passes: (f: FrameContext) => (t.charAt(0) === "~" ? Math.floor(f.shownMs / 1000) : -1),
      };
    };
  };
});
test.after(() => {
  forgetPageModule();
  g.PIXLOOP_HOST_MODULES = served;
});

function builtin(name: string): LoopApp {
  return { name, origin: "builtin", draw: () => undefined };
}

function rig(dur = 1000) {
  const timing = { autoTransition: true, appDurationMs: dur, transitionDurationMs: 0 };
  const loop = new AppLoop([builtin("Time"), builtin("Date")], () => timing, () => 1, () => false);
  const power = { matrixPower: true };
  const q = new NoticeQueue(loop, power);
  loop.cover = q;
  made.length = 0;
  madeInFrame.length = 0;
  return { loop, q, power, timing };
}

function post(q: NoticeQueue, text: string, extra: Partial<Notice> = {}): void {
  q.items.push(Object.assign({ p: { t: text } }, extra));
  q.prepare();
}

/** One frame at `now`, then what runs before the next frame (the preparation queued in it). */
async function frame(loop: AppLoop, now: number): Promise<void> {
  inFrame = true;
  try {
    loop.update(now);
  } finally {
    inFrame = false;
  }
  await new Promise<void>((resolve) => setTimeout(resolve, 0));
}

/** What the select button and DELETE /api/v1/notifications/active do. */
function dismiss(q: NoticeQueue): void {
  q.drop(0);
  q.prepare();
}

const onScreen = (q: NoticeQueue) => (q.items.length ? (q.items[0].pg as unknown as { t: string }).t : "loop");

test("a notification covers the loop from the next frame for appDurationMs; the loop comes back", async () => {
  const { loop, q } = rig(5000);
  await frame(loop, 0);
  post(q, "hello");
  assert.is(onScreen(q), "hello");
  assert.is(loop.current(), q);
  assert.is(q.name, "Time", "device state still names the loop's app");
  await frame(loop, 100);
  assert.is(loop.shownMs(100), 0, "its time starts with its first frame");
  assert.is(loop.shownMs(600), 500);
  await frame(loop, 5099);
  assert.is(onScreen(q), "hello");
  await frame(loop, 5100);
  assert.is(onScreen(q), "loop");
  assert.is(loop.current()!.name, "Date", "the loop turned behind it");
});

test("the queue plays in order; the next one comes in the very frame the last ended", async () => {
  const { loop, q } = rig(1000);
  await frame(loop, 0);
  post(q, "a");
  post(q, "b", { du: 300 });
  post(q, "c");
  assert.equal(made, ["a", "b"], "the front and the one after it are made, no more");
  await frame(loop, 10);
  await frame(loop, 1010);
  assert.is(onScreen(q), "b");
  assert.is(loop.shownMs(1010), 0);
  assert.equal(made, ["a", "b", "c"], "the new second one is made right after that frame");
  await frame(loop, 1309);
  assert.is(onScreen(q), "b");
  await frame(loop, 1310);
  assert.is(onScreen(q), "c");
  await frame(loop, 2310);
  assert.is(onScreen(q), "loop");
  assert.equal(madeInFrame, [], "no page was made inside a frame");
});

test("hold: stays until dismissed, and the queue waits behind it", async () => {
  const { loop, q } = rig(1000);
  post(q, "alarm", { hd: 1 });
  post(q, "next");
  await frame(loop, 0);
  await frame(loop, 60000);
  assert.is(onScreen(q), "alarm");
  dismiss(q);
  assert.is(onScreen(q), "next");
  await frame(loop, 60010);
  await frame(loop, 61009);
  assert.is(onScreen(q), "next");
  await frame(loop, 61010);
  assert.is(onScreen(q), "loop");
});

test("repeat: moving text stays for its passes; durationMs of its own is the least", async () => {
  const { loop, q } = rig(10000);
  post(q, "~long", { rp: 2 });
  post(q, "~short", { rp: 1, du: 3000 });
  post(q, "fits", { rp: 5, du: 500 });
  await frame(loop, 0);
  await frame(loop, 1999);
  assert.is(onScreen(q), "~long");
  await frame(loop, 2000);
  assert.is(onScreen(q), "~short");
  await frame(loop, 4999);
  assert.is(onScreen(q), "~short");
  await frame(loop, 5000);
  assert.is(onScreen(q), "fits");
  await frame(loop, 5500);
  assert.is(onScreen(q), "loop", "text that does not move: its durationMs decides");
});

test("wakeup lights a dark display for itself only; others run their time unseen", async () => {
  const { loop, q, power } = rig(1000);
  power.matrixPower = false;
  post(q, "quiet");
  post(q, "loud", { wk: 1 });
  post(q, "after");
  await frame(loop, 0);
  assert.is(power.matrixPower, false);
  await frame(loop, 1000);
  assert.is(onScreen(q), "loud");
  assert.is(power.matrixPower, true, "lit in the frame it starts");
  await frame(loop, 2000);
  assert.is(onScreen(q), "after");
  assert.is(power.matrixPower, false, "dark again when it ends");
  dismiss(q);
  // A wakeup on a lit display leaves the power alone when it ends.
  power.matrixPower = true;
  post(q, "lit", { wk: 1 });
  await frame(loop, 3000);
  dismiss(q);
  assert.is(power.matrixPower, true);
});

test("dropping one that waits leaves the front running; dropping the front starts the next afresh", async () => {
  const { loop, q } = rig(1000);
  post(q, "a");
  post(q, "b");
  post(q, "c");
  await frame(loop, 0);
  await frame(loop, 500);
  q.drop(1);
  q.prepare();
  assert.equal(q.items.map((n) => (n.p as StoredPayload).t), ["a", "c"]);
  await frame(loop, 999);
  assert.is(onScreen(q), "a");
  assert.is(loop.shownMs(999), 999);
  dismiss(q);
  assert.is(onScreen(q), "c");
  await frame(loop, 1200);
  assert.is(loop.shownMs(1200), 0, "the next one's time starts with its first frame");
});

test("the loop turns behind a notification unseen: no transition is shown while covered", async () => {
  const timing = { autoTransition: true, appDurationMs: 1000, transitionDurationMs: 400 };
  const loop = new AppLoop([builtin("Time"), builtin("Date")], () => timing, () => 1, () => false);
  const q = new NoticeQueue(loop, { matrixPower: true });
  loop.cover = q;
  await frame(loop, 0);
  post(q, "x", { du: 5000 });
  await frame(loop, 1000);
  assert.is(loop.incoming(), null);
  assert.is(loop.selected()!.name, "Time");
  await frame(loop, 1400);
  assert.is(loop.selected()!.name, "Date");
  assert.is(q.name, "Date");
  await frame(loop, 2400);
  assert.is(loop.incoming(), null, "a transition runs behind, unseen");
  dismiss(q);
  assert.is(loop.incoming()!.name, "Time", "and shows once nothing covers it");
});

test("a page that cannot be made: the notification shows blank for its time", async () => {
  const { loop, q } = rig(1000);
  post(q, "!broken");
  assert.ok(q.items.length);
  assert.is(q.items[0].pg, undefined);
  await frame(loop, 0);
  await frame(loop, 1000);
  assert.not.ok(q.items.length);
});

test.run();
