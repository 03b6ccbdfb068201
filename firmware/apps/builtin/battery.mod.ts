// The Battery app's page, loaded while it is on screen or about to come (see ../module-app.ts).
import type { AppModule } from "../module-app";
import { BATTERY, ReadingApp } from "./readings";
import { runtimeSensors } from "./sensors";

const battery: AppModule = (host) =>
  new ReadingApp(BATTERY, runtimeSensors(host.runtime, host.config), host.config, host.text);
export default battery;
