// The Temperature app's page, loaded while it is on screen or about to come (see ../module-app.ts).
import type { AppModule } from "../module-app";
import { TEMPERATURE, ReadingApp } from "./readings";
import { temperatureC } from "./sensors";
import { drawThermometer } from "./icons";

// The export itself, not a named constant: a name would be one more variable while the page lives.
export default ((host) =>
  new ReadingApp(TEMPERATURE, () => temperatureC(host.runtime, host.config), drawThermometer, host.config, host.text)) as AppModule;
