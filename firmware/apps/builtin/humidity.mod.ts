// The Humidity app's page, loaded while it is on screen or about to come (see ../module-app.ts).
import type { AppModule } from "../module-app";
import { HUMIDITY, ReadingApp } from "./readings";
import { relativeHumidity } from "./sensors";
import { drawDroplet } from "./icons";

// The export itself, not a named constant: a name would be one more variable while the page lives.
export default ((host) =>
  new ReadingApp(HUMIDITY, () => relativeHumidity(host.runtime, host.config), drawDroplet, host.config, host.text)) as AppModule;
