// GET /api/v1/system/wifi-scan: 202 {scanning: true} while a scan runs, then its results once.
// The scan's state lives in the runtime (app.runtime.wifiScan), which outlives this module.
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { failure } from "../core/failure";
import { scan } from "../platform/wifi";
import { nowMs } from "../platform/system";

/** A scan whose callback never came is abandoned and started again after this long. */
const SCAN_STALE_MS = 20000;

const wifiScan: Handler = (req, app) => {
  const s = app.runtime.wifiScan;
  if (s.found) {
    const found = s.found;
    s.found = null;
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
