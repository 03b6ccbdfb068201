// Device mode: station (joined to the stored network) or setup (own access point). A device
// with no stored network, or whose network does not answer within wifiConnectTimeout, opens the
// access point and keeps trying the stored network; once it answers, the device restarts. Setup
// mode is the module net/setup, loaded only when the device enters it.
import type { App, Mode } from "../app";
import * as wifi from "../platform/wifi";
import { nowMs } from "../platform/system";
import { loadModule } from "../platform/modules";
import type OpenSetup from "./setup.mod";

/** How often a station whose link dropped tries again. */
const RECONNECT_MS = 5000;

/**
 * Once at boot. The closures made here live as long as the firmware (the reconnect and the link
 * watch), and with them this call's scope: it holds only what they need.
 */
export function bringUpNetwork(app: App, ready: (mode: Mode) => void): void {
  // The configuration is read where it is used: a PUT replaces the object.
  const status = app.runtime.wifi;
  let decided = false;

  const setup = () => {
    if (decided) return;
    decided = true;
    loadModule<typeof OpenSetup>("net/setup")(app, app.runtime.hostname, ready);
  };

  if (!app.system.config.wifiSsid) return setup();
  // Cleared once the station is up: left to run, it would hold its few variables for the first
  // wifiConnectTimeout after every boot only to find the question settled.
  const fallback = setTimeout(setup, app.system.config.wifiConnectTimeout);

  const attempt = () => {
    if (decided && app.mode !== "station") return;
    const cfg = app.system.config;
    status.connecting(cfg.wifiSsid);
    wifi.join(cfg.wifiSsid, cfg.wifiPass, (err) => {
      if (err) {
        status.failed(err, nowMs() + RECONNECT_MS);
        setTimeout(attempt, decided ? RECONNECT_MS : 1000);
        return;
      }
      status.connected(wifi.stationIp());
      if (!decided) {
        decided = true;
        clearTimeout(fallback);
        ready("station");
      }
    });
  };
  // The hostname was given to the radio by the boot module (device/boot), before this.
  wifi.onLinkLost(() => {
    if (decided && app.mode === "station" && status.state === "connected") {
      status.failed("link lost", nowMs() + RECONNECT_MS);
      setTimeout(attempt, RECONNECT_MS);
    }
  });
  attempt();
}
