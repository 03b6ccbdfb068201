// The core's hooks into updates: a release on trial (firmware/update/README.md) is watched by the
// module update/watch, loaded only then. The boot stage's restart timer gives it twice its wait to
// show that it works; once its display runs, and again once HTTP is up, the release moves that
// timer on, so that a network that takes its time to come up does not count against it. A release
// that dies before its display runs does not, and is restarted on the boot stage's time.
import type { App } from "../app";
import type Watch from "./watch.mod";
import { loadModule } from "../platform/modules";
import { log } from "../logs/log";

/** The boot stage's restart timer: set only while the running release is on trial. */
declare const PIXLOOP_DUE: number | undefined;

/**
 * Once the display runs (no `answer`), and again once HTTP is up, with `answer`, the server's
 * request handler, which the check asks as a client would. One function for both: each resident
 * function costs variables for good, and these run only at boot.
 */
export function watchTrial(app: App, answer?: (req: EspRequest, res: EspResponse) => void): void {
  if (typeof PIXLOOP_DUE === "undefined" || !PIXLOOP_DUE) return;
  let w: typeof Watch;
  try {
    w = loadModule<typeof Watch>("update/watch");
  } catch (e) {
    // Never confirmed, so the boot stage takes the release back after its tries.
    log("update: cannot watch the release on trial: " + e);
    return;
  }
  if (answer) w.watch(app, answer);
  else w.started(app);
}
