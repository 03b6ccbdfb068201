// The Time app's page, loaded while it is on screen or about to come (see ../module-app.ts).
import type { AppModule } from "../module-app";
import { TimeApp } from "./time";

const time: AppModule = (host) => new TimeApp(host.text);
export default time;
