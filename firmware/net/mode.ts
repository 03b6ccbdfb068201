// Device mode: station (joined to the stored network) or setup (own access point). A device
// with no stored network, or whose network does not answer within wifiConnectTimeout, opens the
// access point and keeps trying the stored network; once it answers, the device restarts.
import type { App, Mode } from "../app";
import * as wifi from "../platform/wifi";
import { nowMs } from "../platform/system";

/** How often setup mode retries the stored network. */
const SETUP_RETRY_MS = 30000;
/** How often a station whose link dropped tries again. */
const RECONNECT_MS = 5000;

export function bringUpNetwork(app: App, hostname: string, ready: (mode: Mode) => void): void {
  // The configuration is read where it is used: a PUT replaces the object.
  const cfg = () => app.system.config;
  const status = app.runtime.wifi;
  let decided = false;

  const openSetup = () => {
    if (decided) return;
    decided = true;
    status.state = "accessPoint";
    wifi.openAccessPoint(hostname, () => ready("setup"));
    if (cfg().wifiSsid) {
      setInterval(() => {
        status.connecting(cfg().wifiSsid);
        wifi.join(cfg().wifiSsid, cfg().wifiPass, (err) => {
          if (!err) app.restart();
          else status.failed(err, nowMs() + SETUP_RETRY_MS);
        });
      }, SETUP_RETRY_MS);
    }
  };

  if (!cfg().wifiSsid) return openSetup();

  const attempt = () => {
    if (decided && app.mode !== "station") return;
    status.connecting(cfg().wifiSsid);
    wifi.join(cfg().wifiSsid, cfg().wifiPass, (err) => {
      if (err) {
        status.failed(err, nowMs() + RECONNECT_MS);
        setTimeout(attempt, decided ? RECONNECT_MS : 1000);
        return;
      }
      status.connected(wifi.stationIp());
      if (!decided) {
        decided = true;
        ready("station");
      }
    });
  };
  wifi.setHostname(hostname);
  wifi.onLinkChange((up) => {
    if (!up && decided && app.mode === "station" && status.state === "connected") {
      status.failed("link lost", nowMs() + RECONNECT_MS);
      setTimeout(attempt, RECONNECT_MS);
    }
  });
  setTimeout(openSetup, cfg().wifiConnectTimeout);
  attempt();
}
