// POST /api/v1/apps/next and /previous: one page forward or back, with the transition.
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { nowMs } from "../platform/system";

const step: Handler = (req, app) => {
  app.display.loop.step(req.path === "/api/v1/apps/previous" ? -1 : 1, nowMs(), false);
  return ok();
};
export default step;
