// The Humidity app's page, loaded while it is on screen or about to come (see ../module-app.ts).
import type { AppModule } from "../module-app";
import { HUMIDITY, ReadingApp } from "./readings";
import { relativeHumidity } from "./sensors";
import { drawDroplet } from "./icons";

const humidity: AppModule = (host) =>
  new ReadingApp(HUMIDITY, () => relativeHumidity(host.runtime, host.config), drawDroplet, host.config, host.text);
export default humidity;
