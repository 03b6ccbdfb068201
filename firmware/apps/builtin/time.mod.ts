// The Time app's page, loaded while it is on screen or about to come (see ../module-app.ts).
import type { AppModule } from "../module-app";
import { TimeApp } from "./time";

// The export itself, not a named constant: a name would be one more variable while the page lives.
export default ((host) => new TimeApp(host.text)) as AppModule;
