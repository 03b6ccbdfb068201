// Boot: load the stored configuration, bring up the network in station or setup mode, then
// answer HTTP.
import board from "@board";
import type { App } from "./app";
import { VERSION } from "./version";
import { flash } from "./platform/flash";
import * as wifi from "./platform/wifi";
import { restart } from "./platform/system";
import { heldModule, loadModule } from "./platform/modules";
import type PowerDown from "./device/power.mod";
import type Serve from "./http/serve.mod";
import { SystemStore } from "./system/store";
import { SettingsStore } from "./settings/store";
import { Runtime, TICK_MS } from "./device/runtime";
import { Display } from "./display/display";
import type { LinkHealth } from "./display/status-dots";
import { bringUpNetwork } from "./net/mode";
import { startNtp } from "./platform/clock";
import { hostOf } from "./http/guards";
import type MqttSession from "./mqtt/session.mod";
import { log } from "./logs/log";
import { openLog } from "./logs/ring";
import { watchButtonCallback } from "./system/button-callback";
import { fwFile } from "./platform/slot";
import { watchTrial } from "./update/trial";
import { ConnectionStatus } from "./net/status";

/** Port of the setup access point's server, whatever webPort says. */
const SETUP_PORT = 80;
/** How long the request pipeline stays loaded after the last request came in. */
const SERVE_KEEP_MS = 500;

/**
 * Restarts (ms 0 or none) or sleeps for `ms`; the module device/power leaves the boot mark first.
 * App's restart and sleep both, as they are: a wrapper each would be two more functions for good.
 */
function powerDown(ms?: number): void {
  try {
    loadModule<typeof PowerDown>("device/power")(ms || 0);
  } catch (e) {
    // Without the module: restart all the same (the next boot then reports a power-on).
    restart();
  }
}

// The boot runs at the top level rather than in a function: the closures it leaves behind (the
// tick, the request handler, the status dots) then hold no scope of their own, and nothing that
// runs only here stays behind as a resident function.

// First, so that whatever the boot reports is kept too.
const logs = openLog();
// Espruino makes its SyntaxError constructor and that constructor's prototype (10 variables,
// measured) the first time anything throws one (a request body cut short, a damaged record, a
// broken module) and keeps them for good. Made now, they are part of idle from the start instead
// of growth after the first bad request.
try {
  JSON.parse("{");
} catch (e) {
  // The throw is the point.
}
const system = new SystemStore(flash, board);
system.load();
const settings = new SettingsStore(flash);
settings.load();
const runtime = new Runtime(system.config);
const health: LinkHealth = { wifiUp: false, brokerDown: false };
const display = new Display(system, settings, runtime, () => {
  // No dots on the setup screen.
  if (app.mode === "setup") return null;
  const cfg = system.live;
  health.wifiUp = runtime.wifi.state === "connected";
  health.brokerDown = cfg.mqttEnabled && cfg.mqttHost !== "" && (!runtime.mqtt || runtime.mqtt.state !== "connected");
  return health;
});

const app: App = {
  board,
  version: VERSION,
  mode: "station",
  system,
  settings,
  runtime,
  display,
  ownHosts: () => {
    const name = runtime.hostname.toLowerCase();
    return [hostOf(wifi.stationIp()), hostOf(wifi.accessPointIp()), name, name + ".local"];
  },
  accessPointIp: wifi.accessPointIp,
  restart: powerDown,
  sleep: powerDown,
};
logs.zone = display.clock.tz;
if (system.pinFallback) log("stored pin map is unusable; using the board's defaults");

// The stored zone is compiled now rather than in the first frame.
display.clock.setZone(system.config.tz);
display.start();
watchTrial(app);
bringUpNetwork(app, (mode) => {
  app.mode = mode;
  const port = mode === "setup" || system.config.webPort <= 0 ? SETUP_PORT : system.config.webPort;
  // The route table, written by the build from ./routes.ts, is read in place from Storage (see
  // http/router.ts).
  const routes = flash.read(fwFile("routes")) || "\n";
  const serve = heldModule<typeof Serve>("http/serve", SERVE_KEEP_MS);
  const answer = (req: EspRequest, res: EspResponse) => {
    try {
      serve()(app, routes, req, res);
    } catch (e) {
      // An exception here would leave the client waiting for an answer that never comes.
      res.writeHead(500, { "Content-Type": "application/json", "Connection": "close" });
      res.end("{\"error\":{\"code\":\"internalError\",\"message\":\"command failed\"}}");
    }
  };
  require("http").createServer(answer).listen(port);
  watchTrial(app, answer);
  if (mode === "station") {
    // MQTT: the session (module mqtt/session: the broker link and the MQTT surface on it) starts
    // when the system configuration enables MQTT, now or with the PUT /api/v1/system that does,
    // and is held from then on.
    const startMqtt = (): boolean => {
      if (!runtime.mqtt) runtime.mqtt = new ConnectionStatus();
      try {
        app.systemSaved = loadModule<typeof MqttSession>("mqtt/session")(app);
        return true;
      } catch (e) {
        log("mqtt: " + e);
        return false;
      }
    };
    if (system.config.mqttEnabled) startMqtt();
    else {
      app.systemSaved = (before, after) => {
        // The session takes this change too, as it takes every later one.
        if (after.mqttEnabled && startMqtt() && app.systemSaved) app.systemSaved(before, after);
      };
    }
    watchButtonCallback(app);
  }
  log("pixloop " + VERSION + " up in " + mode + " mode on port " + port);
});
// ntpServer applies at once: a change is picked up by the next tick.
let ntpServer = "";
setInterval(() => {
  runtime.tick();
  if (app.mode !== "station") return;
  const server = system.live.ntpServer;
  if (server !== ntpServer) startNtp(server);
  // Kept even when the text is the same: a saved system configuration brings a copy of every
  // value, and holding the one seen first would keep a second copy of the name for good.
  ntpServer = server;
}, TICK_MS);
