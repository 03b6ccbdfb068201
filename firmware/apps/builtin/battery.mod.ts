// The Battery app's page, loaded while it is on screen or about to come (see ../module-app.ts).
import type { AppModule } from "../module-app";
import { BATTERY, ReadingApp } from "./readings";
import { batteryLevel } from "./sensors";
import { drawBattery } from "./icons";

// The export itself, not a named constant: a name would be one more variable while the page lives.
export default ((host) =>
  new ReadingApp(BATTERY, () => batteryLevel(host.runtime, host.config), drawBattery, host.config, host.text)) as AppModule;
