// What the app suites share: the built-in apps as the firmware makes them (builtinApps), resident
// descriptors whose pages the loop loads from their modules, which unit tests serve from the
// .mod.ts sources (test/harness/host-modules.ts). The host stands for a device with no sensor and
// no battery unless told.
import { builtinApps } from "../../firmware/apps/builtin/index";
import { TimeApp as TimePage } from "../../firmware/apps/builtin/time";
import { DateApp as DatePage } from "../../firmware/apps/builtin/date";
import { textKit } from "../../firmware/apps/text-kit";
import { dropPayloadPage } from "../../firmware/apps/payload-app";
import type { LoopApp } from "../../firmware/apps/types";
import { NEEDS_BATTERY } from "../../firmware/apps/present";
import type { AppHost } from "../../firmware/apps/module-app";
import type { Runtime } from "../../firmware/device/runtime";
import type { SystemConfig } from "../../firmware/system/schema";

/** A host without fitted parts, whose config holds what the reading apps read. */
export function bareHost(runtime: Partial<Runtime> = {}, config: Partial<SystemConfig> = {}): AppHost {
  const rt = Object.assign({ env: null, battery: null }, runtime) as unknown as Runtime;
  const cfg = Object.assign({ tempDecimals: 0, tempOffset: 0, humOffset: 0, batteryDividerRatio: 1.79 }, config) as SystemConfig;
  return { runtime: rt, config: () => cfg, text: textKit() };
}

/** What makes a made-up app absent: it is a built-in whose part, a battery, is not fitted (present.ts). */
export const NOT_FITTED = { needs: NEEDS_BATTERY, host: bareHost() };

/** The built-in app called `name`, as its own descriptor (nothing is loaded until a loop asks). */
export function builtinApp(name: string, host: AppHost = bareHost()): LoopApp {
  const app = builtinApps(host).find((a) => a.name === name);
  if (!app) throw new Error("no built-in app " + name);
  return app;
}

/** The Time app's page as its module makes it, drawing with the resident text code. */
export class TimeApp extends TimePage {
  constructor() {
    super(textKit());
  }
}

/** The Date app's page as its module makes it. */
export class DateApp extends DatePage {
  constructor() {
    super(textKit());
  }
}

/**
 * The page module is held while any page lives, and suites share one process: pages of an earlier
 * suite must not hand a suite their module, nor a suite its stand-in to a later one.
 */
export function forgetPageModule(): void {
  for (let i = 0; i < 1000; i++) dropPayloadPage();
}
