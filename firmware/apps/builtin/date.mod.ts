// The Date app's page, loaded while it is on screen or about to come (see ../module-app.ts).
import type { AppModule } from "../module-app";
import { DateApp } from "./date";

// The export itself, not a named constant: a name would be one more variable while the page lives.
export default ((host) => new DateApp(host.text)) as AppModule;
