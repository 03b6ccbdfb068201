// The Humidity app's page, loaded while it is on screen or about to come (see ../module-app.ts).
import type { AppModule } from "../module-app";
import { HUMIDITY, ReadingApp } from "./readings";
import { runtimeSensors } from "./sensors";

const humidity: AppModule = (host) =>
  new ReadingApp(HUMIDITY, runtimeSensors(host.runtime, host.config), host.config, host.text);
export default humidity;
