// A built-in app, whose page lives in a module (apps/builtin/<name in lower case>): what stays in
// memory is its name and the part it needs to be present (present.ts), so a page costs memory only
// while it is on screen or about to come (the last second before its change). The loop loads the
// page (outside frames) and releases it; the engine draws through the app as through any other,
// and an app whose module is missing or broken draws nothing.
import type { Runtime } from "../device/runtime";
import type { LiveConfig } from "../system/store";
import type { LoopApp, Page } from "./types";
import type { TextKit } from "./text-kit";
import { loadModule } from "../platform/modules";
import { PageApp } from "./page-app";
import { NEEDS_NOTHING } from "./present";
import { log } from "../logs/log";

/** What an app module is handed when its page is made: the live device and its configuration. */
export interface AppHost {
  runtime: Runtime;
  /** What frames read of the system configuration; returns the held object, so it may be called every frame. */
  config: () => LiveConfig;
  /** The resident text code, for drawing. */
  text: TextKit;
}

/**
 * The default export of an app module (firmware/apps/builtin/<app>.mod.ts): makes the page. The
 * page lives as long as the loop keeps it loaded, and everything it keeps goes with it.
 */
export type AppModule = (host: AppHost) => Page;

export class ModuleApp extends PageApp implements LoopApp {
  name: string;
  /** On the prototype: one for every app. */
  declare origin: "builtin";
  /**
   * The part it needs to be present (present.ts); on the prototype while NEEDS_NOTHING, so that an
   * app that needs no part holds no variable for it.
   */
  declare needs: number;
  /** Read by present.ts too. */
  host: AppHost;
  /**
   * Present (true) once loading failed (and was logged): the page stays blank and is not tried
   * again. Absent otherwise, as an absent property costs no variable.
   */
  declare private broken?: true;

  constructor(name: string, needs: number, host: AppHost) {
    super();
    this.name = name;
    if (needs !== NEEDS_NOTHING) this.needs = needs;
    this.host = host;
  }

  load(): boolean {
    if (this.page || this.broken) return !this.broken;
    try {
      this.page = loadModule<AppModule>("apps/builtin/" + this.name.toLowerCase())(this.host);
    } catch (e) {
      this.broken = true;
      log("app " + this.name + " cannot be shown: " + e);
    }
    return !this.broken;
  }
}
ModuleApp.prototype.origin = "builtin";
ModuleApp.prototype.needs = NEEDS_NOTHING;
