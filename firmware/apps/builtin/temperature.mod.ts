// The Temperature app's page, loaded while it is on screen or about to come (see ../module-app.ts).
import type { AppModule } from "../module-app";
import { TEMPERATURE, ReadingApp } from "./readings";
import { runtimeSensors } from "./sensors";

const temperature: AppModule = (host) =>
  new ReadingApp(TEMPERATURE, runtimeSensors(host.runtime, host.config), host.config, host.text);
export default temperature;
