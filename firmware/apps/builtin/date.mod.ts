// The Date app's page, loaded while it is on screen or about to come (see ../module-app.ts).
import type { AppModule } from "../module-app";
import { DateApp } from "./date";

const date: AppModule = (host) => new DateApp(host.text);
export default date;
