// Boot: load the stored configuration, bring up the network in station or setup mode, then
// answer HTTP.
import board from "@board";
import type { App } from "./app";
import { VERSION } from "./version";
import { flash } from "./platform/flash";
import { listen } from "./platform/server";
import * as wifi from "./platform/wifi";
import { restart, deepSleep } from "./platform/system";
import { markBoot } from "./platform/bootmark";
import { SystemStore } from "./system/store";
import { Runtime, TICK_MS } from "./device/runtime";
import { bringUpNetwork } from "./net/mode";
import { handleRequest } from "./http/pipeline";
import { ROUTES } from "./http/routes";
import { hostOf } from "./http/guards";
import { PAGE_FILE } from "./web/routes";

/** Port of the setup access point's server, whatever webPort says. */
const SETUP_PORT = 80;

function boot(): void {
  const system = new SystemStore(flash, board);
  system.load();
  const runtime = new Runtime(system.config);
  const hostname = runtime.hostname;

  const app: App = {
    board,
    version: VERSION,
    mode: "station",
    system,
    runtime,
    ownHosts: () => {
      const name = hostname.toLowerCase();
      return [hostOf(wifi.stationIp()), hostOf(wifi.accessPointIp()), name, name + ".local"];
    },
    accessPointIp: () => wifi.accessPointIp(),
    restart: () => {
      markBoot("software");
      restart();
    },
    factoryReset: () => {
      // The interpreter's own files (".bootcde" holds this firmware) and the web page came with
      // the firmware; everything else is the user's and goes.
      for (const name of flash.list()) if (name.charAt(0) !== "." && name !== PAGE_FILE) flash.erase(name);
      markBoot("software");
      restart();
    },
    sleep: (ms: number) => {
      markBoot("deepSleep");
      deepSleep(ms);
    },
  };
  if (system.pinFallback) print("stored pin map is unusable; using the board's defaults");

  bringUpNetwork(app, hostname, (mode) => {
    app.mode = mode;
    const port = mode === "setup" || system.config.webPort <= 0 ? SETUP_PORT : system.config.webPort;
    listen(port, (req, res) => {
      try {
        handleRequest(app, ROUTES, req, res);
      } catch (e) {
        // An exception here would leave the client waiting for an answer that never comes.
        res.writeHead(500, { "Content-Type": "application/json", "Connection": "close" });
        res.end("{\"error\":{\"code\":\"internalError\",\"message\":\"command failed\"}}");
      }
    });
    print("pixloop " + VERSION + " up in " + mode + " mode on port " + port);
  });
  setInterval(() => runtime.tick(), TICK_MS);
}

boot();
