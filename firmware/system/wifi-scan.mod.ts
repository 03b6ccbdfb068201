// GET /api/v1/system/wifi-scan: 202 {scanning: true} while a scan runs, then its results once.
// The scan's state lives in the runtime (app.runtime.wifiScan), which outlives this module, from
// the first request until its results are handed out.
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { failure } from "../core/failure";
import { scan } from "../platform/wifi";
import { nowMs } from "../platform/system";

/** A scan whose callback never came is abandoned and started again after this long. */
const SCAN_STALE_MS = 20000;

const wifiScan: Handler = (req, app) => {
  const rt = app.runtime;
  const s = rt.wifiScan || (rt.wifiScan = { started: 0, running: false, found: null });
  if (s.found) {
    // Handed out once; with no scan running the state goes too, until the next scan.
    const found = s.found;
    rt.wifiScan = null;
    return json(found);
  }
  if (!s.running || nowMs() - s.started > SCAN_STALE_MS) {
    s.running = true;
    s.started = nowMs();
    try {
      scan((found) => {
        s.running = false;
        s.found = found;
      });
    } catch (e) {
      s.running = false;
      return failure(503, "unavailable", "the radio cannot scan right now");
    }
  }
  return json({ scanning: true }, 202);
};
export default wifiScan;
