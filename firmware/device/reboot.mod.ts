// POST /api/v1/device/reboot: answers, then restarts.
import type { Handler } from "../http/types";
import { okThen } from "../http/types";

const reboot: Handler = (req, app) => okThen(() => app.restart());
export default reboot;
