// The buttonCallback webhook: every edge of a wired button, down and up, goes to the URL in the
// system field buttonCallback (read live: a PUT applies at once; empty: off). Resident are only
// a listener on the buttons (platform/buttons) and the small state below; building and sending a
// request is the module system/callback, loaded on an edge only while a URL is set.
import type { App } from "../app";
import type SendCallback from "./callback.mod";
import { loadModule } from "../platform/modules";
import { log } from "../logs/log";

export interface CallbackState {
  app: App;
  /** A request is out and has not ended: no second one is started meanwhile. */
  busy: boolean;
  /** The newest edge that came while busy ("button=left&state=0"), sent once the request ends; or "". */
  next: string;
  /** What failed last and was logged (a URL, or the module): not logged again until something works. */
  failed: string;
}

/** The `failed` mark of a module that does not load. */
const NO_MODULE = " ";

/**
 * In station mode, once the network is up. The buttons are named after their wiring, whatever
 * swapButtons and rotate do to the loop: left, middle (the select button) and right. The listener
 * does the work itself: a function of its own would stay in memory beside it.
 */
export function watchButtonCallback(app: App): void {
  const st: CallbackState = { app, busy: false, next: "", failed: "" };
  app.display.buttons.push((name, pressed) => {
    if (!app.system.live.buttonCallback) return;
    try {
      loadModule<typeof SendCallback>("system/callback")(st, name === "select" ? "middle" : name, pressed);
    } catch (e) {
      if (st.failed !== NO_MODULE) log("buttonCallback: " + e);
      st.failed = NO_MODULE;
    }
  });
}
