// The core's one hook into updates: a release on trial (firmware/update/README.md) has its
// confirmation watched by the module update/watch, loaded only then.
import type { App } from "../app";
import type Watch from "./watch.mod";
import { loadModule } from "../platform/modules";
import { log } from "../logs/log";

/** The boot stage's restart timer: set only while the running release is on trial. */
declare const PIXLOOP_DUE: number | undefined;

/** Once HTTP is up; `answer` is the server's request handler, which the check asks as a client would. */
export function watchTrial(app: App, answer: (req: EspRequest, res: EspResponse) => void): void {
  if (typeof PIXLOOP_DUE === "undefined" || !PIXLOOP_DUE) return;
  try {
    loadModule<typeof Watch>("update/watch")(app, answer);
  } catch (e) {
    // Never confirmed, so the boot stage takes the release back after its tries.
    log("update: cannot watch the release on trial: " + e);
  }
}
