// POST /api/v1/apps/next and /previous: one page forward or back, with the transition.
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { nowMs } from "../platform/system";
import { stepLoop } from "./moves";

const step: Handler = (req, app) => {
  stepLoop(app.display.loop, req.path === "/api/v1/apps/previous" ? -1 : 1, nowMs(), false);
  return ok();
};
export default step;
