// Restart or deep sleep, the firmware's own: the boot mark says so to the next boot (see
// platform/bootmark.ts). Loaded only when the device goes down.
import { markBoot } from "../platform/bootmark";
import { deepSleep, restart } from "../platform/system";

/** Restarts now (ms 0), or sleeps for `ms` milliseconds. */
function powerDown(ms: number): void {
  if (ms > 0) {
    markBoot("deepSleep");
    deepSleep(ms);
  } else {
    markBoot("software");
    restart();
  }
}
export default powerDown;
