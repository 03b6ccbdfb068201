// Setup mode: the device's own open access point, named after its hostname, the setup screen
// that says how to reach it, and every SETUP_RETRY_MS another try of the stored network (when
// there is one); once that network answers, the device restarts into station mode.
import type { App, Mode } from "../app";
import * as wifi from "../platform/wifi";
import { nowMs } from "../platform/system";

/** How often setup mode retries the stored network. */
const SETUP_RETRY_MS = 30000;

function openSetup(app: App, hostname: string, ready: (mode: Mode) => void): void {
  const cfg = () => app.system.config;
  const status = app.runtime.wifi;
  status.state = "accessPoint";
  wifi.openAccessPoint(hostname, () => {
    ready("setup");
    app.display.showSetup(hostname, wifi.accessPointIp());
  });
  if (cfg().wifiSsid) {
    setInterval(() => {
      status.connecting(cfg().wifiSsid);
      wifi.join(cfg().wifiSsid, cfg().wifiPass, (err) => {
        if (!err) app.restart();
        else status.failed(err, nowMs() + SETUP_RETRY_MS);
      });
    }, SETUP_RETRY_MS);
  }
}
export default openSetup;
