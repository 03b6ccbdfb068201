// GET /api/v1/system/wifi-scan: 202 {scanning: true} while a scan runs, then its results once.
// The scan's state lives in the runtime (app.runtime.wifiScan), which outlives this module, from
// the first request until its results are handed out, or dropped SCAN_KEEP_MS after they came.
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { failure } from "../core/failure";
import { scan } from "../platform/wifi";
import { nowMs } from "../platform/system";
import type { Runtime } from "../device/runtime";

/** A scan whose callback never came is abandoned and started again after this long. */
const SCAN_STALE_MS = 20000;
/**
 * Results nobody comes for are dropped after this long, and the state with them: the setup page
 * asks every 1.5 s, and a client that starts a scan and goes away would otherwise leave them in
 * memory for good (13 variables with one network found, measured, and more for each other one).
 */
const SCAN_KEEP_MS = 10000;

type ScanState = NonNullable<Runtime["wifiScan"]>;

/**
 * Forgets `s` SCAN_KEEP_MS from now unless its results were handed out by then. A function of its
 * own, so that the timer holds only these two and not the request that started the scan.
 */
function forgetLater(rt: Runtime, s: ScanState): void {
  s.forget = setTimeout(() => {
    if (rt.wifiScan === s) delete rt.wifiScan;
  }, SCAN_KEEP_MS) as unknown as number;
}

const wifiScan: Handler = (req, app) => {
  const rt = app.runtime;
  const s = rt.wifiScan || (rt.wifiScan = { started: 0, running: false, found: null });
  if (s.found) {
    // Handed out once; with no scan running the state goes too, until the next scan.
    const found = s.found;
    delete rt.wifiScan;
    // The timer would hold the results until it ran.
    if (s.forget !== undefined) clearTimeout(s.forget);
    return json(found);
  }
  if (!s.running || nowMs() - s.started > SCAN_STALE_MS) {
    s.running = true;
    s.started = nowMs();
    try {
      scan((found) => {
        s.running = false;
        s.found = found;
        forgetLater(rt, s);
      });
    } catch (e) {
      s.running = false;
      return failure(503, "unavailable", "the radio cannot scan right now");
    }
  }
  return json({ scanning: true }, 202);
};
export default wifiScan;
