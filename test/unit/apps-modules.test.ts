// The built-in apps as modules, under the render loop: a page's module is loaded only outside
// frames (at start, after the frame that finds the change LEAD_MS away, in a request), the page
// coming next for the last LEAD_MS before its transition starts; pages that left are released, so
// a page standing alone is the only one in memory; GET /api/v1/apps loads none; a missing module
// costs its page, not the loop.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { frameOf, type Frame } from "../harness/frame-fixture";
import { bareHost, builtinApp } from "./apps-support";
import { installEngineHost } from "./engine-support";
import { DisplayEngine, type EngineParts } from "../../firmware/display/engine";
import { AppLoop, LEAD_MS } from "../../firmware/apps/loop";
import { builtinApps } from "../../firmware/apps/builtin/index";
import { ModuleApp, NEEDS_NOTHING } from "../../firmware/apps/module-app";
import type { LoopApp } from "../../firmware/apps/types";
import type { AppHost } from "../../firmware/apps/module-app";
import type { Runtime } from "../../firmware/device/runtime";
import type { App } from "../../firmware/app";
import type { ApiRequest, Handler, Reply } from "../../firmware/http/types";
import { loadModule } from "../../firmware/platform/modules";
import { newIndicators } from "../../firmware/display/indicators";
import { Moodlight } from "../../firmware/display/moodlight";
import { LocalClock } from "../../firmware/time/clock";
import { defaultSettings } from "../../firmware/settings/schema";
import type { Settings } from "../../firmware/settings/types";
import { AdcSampler } from "../../firmware/device/adc";
import { activateApp, stepLoop } from "../../firmware/apps/moves";

type HostModules = (id: string) => unknown;
const g = globalThis as unknown as { PIXLOOP_HOST_MODULES: HostModules; print?: (...a: unknown[]) => void };

/** Every app module load: its id and whether a frame was being drawn. */
const loads: { id: string; inFrame: boolean }[] = [];
const printed: string[] = [];
let inFrame = false;
const restore: (() => void)[] = [];

test.before(() => {
  restore.push(installEngineHost());
  const host = g.PIXLOOP_HOST_MODULES;
  g.PIXLOOP_HOST_MODULES = (id: string) => {
    if (id.indexOf("apps/builtin/") === 0) loads.push({ id: id.slice(13), inFrame });
    // A module that evaluates but whose value is no app module: making the page throws.
    if (id === "apps/builtin/odd") return 42;
    return host(id);
  };
  restore.push(() => { g.PIXLOOP_HOST_MODULES = host; });
  const print = g.print;
  g.print = (...a: unknown[]) => { printed.push(a.join(" ")); };
  restore.push(() => { g.print = print; });
});
test.after(() => {
  while (restore.length) (restore.pop() as () => void)();
});

// 2026-03-10 09:05:07.250 in Berlin (CET, UTC+1).
const T0 = Date.UTC(2026, 2, 10, 8, 5, 7, 250);

/** A device with a temperature and humidity sensor and a battery: all five apps are present. */
function fittedHost(): AppHost {
  const env = { valid: true, t: 21.5, h: 40, sensor: { humidity: true } };
  const battery = new AdcSampler(34);
  battery.push(2700);
  return bareHost({ env, battery } as unknown as Partial<Runtime>);
}

interface Rig {
  engine: DisplayEngine;
  loop: AppLoop;
  apps: LoopApp[];
  settings: Settings;
  report: { fps: number; brightness: number; currentApp: string; matrixPower: boolean; lightRaw: number };
  pushed: Frame[];
  now: number;
}

function rig(apps: LoopApp[], tweak?: (s: Settings) => void): Rig {
  const settings = defaultSettings();
  settings.appDurationMs = 1000;
  settings.transitionDurationMs = 300;
  settings.autoTransition = true;
  if (tweak) tweak(settings);
  const r = { apps, settings, pushed: [] as Frame[], now: T0 } as Rig;
  r.report = { fps: 0, brightness: 0, currentApp: "", matrixPower: true, lightRaw: -1 };
  // The loop takes the transition the engine made ahead where the engine makes them (take), as the
  // firmware wires it; Slide either way.
  const engine = () => r.engine as unknown as { take?: () => number };
  r.loop = new AppLoop(apps, () => settings, () => (engine().take ? (engine().take as () => number)() : 1), () => false);
  const parts: EngineParts = {
    panel: { width: 32, push: (f: Graphics) => { r.pushed.push(frameOf(f)); }, blank: () => undefined } as unknown as EngineParts["panel"],
    loop: r.loop,
    indicators: newIndicators(),
    moodlight: new Moodlight(),
    clock: new LocalClock(() => r.now),
    tz: () => "CET-1CEST,M3.5.0,M10.5.0/3",
    brightness: { update: () => 255 } as unknown as EngineParts["brightness"],
    settings: () => settings,
    colorOrder: "rgb",
    health: () => null,
    report: r.report,
    pick: () => 1,
    weather: () => null,
  };
  r.engine = new DisplayEngine(parts);
  return r;
}

/** One frame, then whatever the interpreter would run before the next (the queued preparation). */
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

/** The apps whose page is in memory now. */
function loaded(r: Rig): string[] {
  return r.apps.filter((a) => (a as unknown as { page: unknown }).page).map((a) => a.name);
}

/** The transition the engine holds made ahead for the next change (its private fields, read for the test). */
function nextTransition(r: Rig): number {
  return r.engine.change ? r.engine.change.nextIndex : -1;
}

test("only the page on screen is loaded, and the next for the last LEAD_MS before its change; never in a frame", async () => {
  loads.length = 0;
  // Pages stay longer than LEAD_MS, so that each stands alone for a while.
  const r = rig(builtinApps(fittedHost()), (s) => { s.appDurationMs = 2000; });
  assert.equal(loads.map((l) => l.id), ["time"], "at start: the page on screen only");
  assert.is(r.loop.upcoming(), null);
  const shown: string[] = [];
  let alone = 0;
  // Two rounds of the five pages.
  for (let k = 0; k < 2 * 5 * 93; k++) {
    const before = loaded(r);
    const wasIncoming = r.loop.incoming();
    const at = r.now;
    await frame(r);
    const inc = r.loop.incoming();
    if (inc && inc !== wasIncoming) {
      assert.ok(before.indexOf(inc.name) >= 0, inc.name + " was loaded before its transition started");
    }
    if (shown[shown.length - 1] !== r.report.currentApp) shown.push(r.report.currentApp);
    // Between frames: the page on screen, the one arriving, the one next; never more than two.
    const keep = [r.loop.current(), inc, r.loop.upcoming()].filter((a) => a).map((a) => (a as LoopApp).name);
    const now = loaded(r);
    assert.ok(now.every((n) => keep.indexOf(n) >= 0), "loaded " + now + ", on screen or next " + keep);
    assert.ok(now.length <= 2, "loaded " + now);
    // More than LEAD_MS before its change, the page on screen stands alone: no next page, no next transition.
    if (!inc && r.loop.shownMs(at) + LEAD_MS < r.settings.appDurationMs) {
      alone++;
      assert.is(r.loop.upcoming(), null, "next page " + r.loop.shownMs(at) + " ms into " + r.report.currentApp);
      assert.equal(now, [r.report.currentApp], "alone " + r.loop.shownMs(at) + " ms into " + r.report.currentApp);
      assert.is(nextTransition(r), -1, "no transition made " + r.loop.shownMs(at) + " ms into " + r.report.currentApp);
    }
  }
  assert.ok(alone > 2 * 5 * 30, "pages stood alone for " + alone + " frames");
  assert.equal(shown.slice(0, 10), ["Time", "Date", "Temperature", "Humidity", "Battery", "Time", "Date", "Temperature",
    "Humidity", "Battery"]);
  assert.equal(loads.filter((l) => l.inFrame), [], "no module loaded inside a frame");
  // Each page came from its module once per round (the second round's start was loaded ahead).
  assert.is(loads.filter((l) => l.id === "humidity").length, 2);
  assert.is(r.pushed[r.pushed.length - 1].pixels.some((p) => p !== 0), true, "pages were drawn");
});

test("a page that left is released: what it kept goes with it, and it comes back afresh", async () => {
  const r = rig(builtinApps(fittedHost()), (s) => { s.autoTransition = false; });
  await frame(r);
  const time = r.apps[0] as unknown as { page: unknown };
  const first = time.page;
  assert.ok(first);
  stepLoop(r.loop, 1, r.now, true);
  stepLoop(r.loop, 1, r.now, true);
  await frame(r);
  assert.is(r.report.currentApp, "Temperature");
  assert.not.ok(time.page, "Time has left the screen");
  assert.is(r.loop.upcoming(), null, "no change is near");
  assert.equal(loaded(r), ["Temperature"], "the page on screen stands alone");
  assert.ok(activateApp(r.loop, "Time", r.now, false));
  assert.ok(time.page && time.page !== first, "loaded again for its transition");
  assert.equal(loaded(r).sort(), ["Temperature", "Time"]);
});

test("GET /api/v1/apps lists every app of the rotation without loading any page", async () => {
  const r = rig(builtinApps(fittedHost()));
  stepLoop(r.loop, 1, r.now, true);
  loads.length = 0;
  const list = loadModule<Handler>("apps/list");
  const reply = list({ path: "/api/v1/apps" } as ApiRequest, { display: { loop: r.loop } } as unknown as App) as Reply;
  assert.is(reply.status, 200);
  const body = reply.json as { name: string; present: boolean; origin: string; slot: number }[];
  assert.equal(body.map((a) => a.name), ["Time", "Date", "Temperature", "Humidity", "Battery"]);
  assert.ok(body.every((a) => a.present && a.origin === "builtin"));
  assert.equal(loads, [], "no app module loaded");
  assert.equal(loaded(r), ["Date"], "still only the page on screen");
  // Without the parts, the reading apps are not members, and nothing was loaded to know it.
  loads.length = 0;
  const bare = new AppLoop(builtinApps(bareHost()), () => r.settings, () => 1, () => false);
  const names = (list({ path: "/api/v1/apps" } as ApiRequest, { display: { loop: bare } } as unknown as App) as Reply).json as { name: string }[];
  assert.equal(names.map((a) => a.name), ["Time", "Date"]);
  assert.equal(loads.map((l) => l.id), ["time"], "only the constructor's page on screen");
});

test("a missing app module costs its page, not the render loop: skipped, blank when asked for, logged once", async () => {
  printed.length = 0;
  const host = bareHost();
  const ghost = new ModuleApp("Ghost", NEEDS_NOTHING, host);
  const r = rig([builtinApp("Time", host), ghost, builtinApp("Date", host)], (s) => { s.transitionDurationMs = 0; });
  const shown: string[] = [];
  for (let k = 0; k < 200; k++) {
    await frame(r);
    if (shown[shown.length - 1] !== r.report.currentApp) shown.push(r.report.currentApp);
  }
  assert.equal(shown.slice(0, 4), ["Time", "Date", "Time", "Date"], "the rotation passes it by");
  assert.equal(r.loop.rotation.map((a) => a.name), ["Time", "Ghost", "Date"], "still listed");
  assert.ok(activateApp(r.loop, "Ghost", r.now, true));
  await frame(r);
  assert.is(r.report.currentApp, "Ghost");
  assert.ok(r.pushed[r.pushed.length - 1].pixels.every((p) => p === 0), "a blank page");
  stepLoop(r.loop, 1, r.now, true);
  await frame(r);
  assert.is(r.report.currentApp, "Date");
  assert.is(printed.length, 1, printed.join("\n"));
  assert.match(printed[0], /Ghost/);
  assert.match(printed[0], /missing/);
});

test("a module whose value makes no page is treated as missing", async () => {
  printed.length = 0;
  const host = bareHost();
  const r = rig([builtinApp("Time", host), new ModuleApp("Odd", NEEDS_NOTHING, host)], (s) => {
    s.autoTransition = false;
  });
  assert.ok(activateApp(r.loop, "Odd", r.now, true));
  await frame(r);
  assert.is(r.report.currentApp, "Odd");
  assert.ok(r.pushed[r.pushed.length - 1].pixels.every((p) => p === 0));
  assert.is(printed.length, 1);
  assert.match(printed[0], /Odd/);
  stepLoop(r.loop, 1, r.now, false);
  for (let k = 0; k < 40; k++) await frame(r);
  assert.is(r.report.currentApp, "Time");
});

test.run();
