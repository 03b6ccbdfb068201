// Notifications under the render loop, with a clock the tests turn: a notification that arrives in
// the middle of a change of page covers it at once and loads nothing inside a frame (its page was
// made in the request); the engine reports the loop's app as current throughout; a wakeup
// notification lights a dark display for itself; the loop's change of page goes on after.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { frameOf, type Frame } from "../harness/frame-fixture";
import { bareHost } from "./apps-support";
import { installEngineHost } from "./engine-support";
import { DisplayEngine, type EngineParts } from "../../firmware/display/engine";
import { AppLoop } from "../../firmware/apps/loop";
import { builtinApps } from "../../firmware/apps/builtin/index";
import { dropPayloadPage, payloadHost } from "../../firmware/apps/payload-app";
import { NoticeQueue } from "../../firmware/notify/queue";
import { newIndicators } from "../../firmware/display/indicators";
import { Moodlight } from "../../firmware/display/moodlight";
import { LocalClock } from "../../firmware/time/clock";
import { defaultSettings } from "../../firmware/settings/schema";
import type { Canvas } from "../../firmware/display/canvas";
import type { StoredPayload } from "../../firmware/payload/stored";

type HostModules = (id: string) => unknown;
const g = globalThis as unknown as { PIXLOOP_HOST_MODULES: HostModules };
const restore: (() => void)[] = [];
/** Every module load and page made: what, and whether a frame was being drawn. */
const loads: { id: string; inFrame: boolean }[] = [];
let inFrame = false;

/** The stand-in page module: a page filled with the colour its text names. */
function page(p: StoredPayload) {
  loads.push({ id: "page " + p.t, inFrame });
  const rgb = parseInt(p.t || "0", 16);
  return {
    draw(c: Canvas) {
      c.color(rgb);
      c.g.fillRect(0, 0, c.width - 1, c.height - 1);
    },
    passes: () => -1,
  };
}

test.before(() => {
  restore.push(installEngineHost());
  const host = g.PIXLOOP_HOST_MODULES;
  g.PIXLOOP_HOST_MODULES = (id: string) => {
    loads.push({ id, inFrame });
    return id === "payload/page" ? page : host(id);
  };
  restore.push(() => { g.PIXLOOP_HOST_MODULES = host; });
  // Pages of other suites must not hand this one their module.
  for (let i = 0; i < 1000; i++) dropPayloadPage();
  restore.push(() => { for (let i = 0; i < 1000; i++) dropPayloadPage(); });
});
test.after(() => {
  while (restore.length) (restore.pop() as () => void)();
});

function rig() {
  const settings = defaultSettings();
  settings.appDurationMs = 1000;
  settings.transitionDurationMs = 400;
  settings.transitionEffect = "Slide";
  const host = bareHost();
  payloadHost.text = host.text;
  const report = { fps: 0, brightness: 0, currentApp: "", matrixPower: true, lightRaw: -1 };
  const r = { now: 1000000, pushed: [] as Frame[], report, engine: null as unknown as DisplayEngine };
  const loop = new AppLoop(builtinApps(host), () => settings, () => r.engine.take(), () => false);
  const notices = new NoticeQueue(loop, report);
  loop.cover = notices;
  const parts: EngineParts = {
    panel: {
      width: 32,
      push: (f: Graphics) => { r.pushed.push(frameOf(f)); },
      blank: () => { r.pushed.push({ width: 32, height: 8, pixels: new Array(256).fill(0) }); },
    } as unknown as EngineParts["panel"],
    loop,
    indicators: newIndicators(),
    moodlight: new Moodlight(),
    clock: new LocalClock(() => r.now),
    tz: () => "UTC0",
    brightness: { update: () => 255 } as unknown as EngineParts["brightness"],
    settings: () => settings,
    colorOrder: "rgb",
    health: () => null,
    report,
    pick: () => 1,
    weather: () => null,
  };
  r.engine = new DisplayEngine(parts);
  return Object.assign(r, { loop, notices });
}

type Rig = ReturnType<typeof rig>;

async function frame(r: Rig): Promise<void> {
  inFrame = true;
  try {
    r.engine.tick(r.now);
  } finally {
    inFrame = false;
  }
  r.now += 25;
  await new Promise<void>((resolve) => setTimeout(resolve, 0));
}

/** What a request does: queue the notification and make what it needs, outside frames. */
function post(r: Rig, hex: string, extra: object = {}): void {
  r.notices.items.push(Object.assign({ p: { t: hex } }, extra));
  r.notices.prepare();
}

/** Pages and transitions loaded or made inside frames. */
const pagesInFrames = () => loads.filter((l) => l.inFrame);
const last = (r: Rig) => r.pushed[r.pushed.length - 1].pixels;
const all = (px: number[], rgb: number) => px.every((p) => p === rgb);

test("a notification arriving mid-transition covers it in the next frame and loads nothing in a frame", async () => {
  const r = rig();
  await frame(r);
  while (!r.loop.incoming()) await frame(r);
  await frame(r);
  assert.is(r.loop.incoming()!.name, "Date", "half-way from Time to Date");
  post(r, "ff00ff", { du: 500 });
  await frame(r);
  assert.ok(all(last(r), 0xff00ff), "the notification, not the transition");
  assert.is(r.report.currentApp, "Time", "the loop's app, being left");
  for (let k = 0; k < 30; k++) {
    await frame(r);
    assert.ok(r.report.currentApp === "Time" || r.report.currentApp === "Date");
  }
  assert.is(r.report.currentApp, "Date", "the change of page landed behind it");
  assert.not.ok(all(last(r), 0xff00ff), "the notification ended after its 500 ms");
  assert.ok(last(r).some((p) => p !== 0), "the loop's page again");
  assert.equal(pagesInFrames(), [], "no page was loaded or made inside a frame");
});

test("the next notification comes in the frame the first one ends, its page made ahead", async () => {
  const r = rig();
  loads.length = 0;
  await frame(r);
  post(r, "ff00ff", { du: 100 });
  post(r, "00ffff", { du: 100 });
  post(r, "ffff00", { du: 100 });
  const seen: string[] = [];
  for (let k = 0; k < 20; k++) {
    await frame(r);
    const c = last(r)[0].toString(16);
    if (seen[seen.length - 1] !== c) seen.push(c);
  }
  assert.equal(seen.slice(0, 3), ["ff00ff", "ffff", "ffff00"]);
  assert.equal(pagesInFrames(), []);
});

test("wakeup lights a dark display for its notification, which goes dark after", async () => {
  const r = rig();
  await frame(r);
  r.report.matrixPower = false;
  await frame(r);
  assert.ok(all(last(r), 0), "dark");
  post(r, "00ffff", { du: 200 });
  await frame(r);
  assert.ok(all(last(r), 0), "no wakeup: not shown");
  r.notices.drop(0);
  r.notices.prepare();
  post(r, "ff00ff", { du: 200, wk: 1 });
  await frame(r);
  assert.ok(all(last(r), 0xff00ff), "lit for it");
  assert.is(r.report.matrixPower, true);
  for (let k = 0; k < 10; k++) await frame(r);
  assert.is(r.report.matrixPower, false);
  assert.ok(all(last(r), 0), "dark again");
});

test.run();
