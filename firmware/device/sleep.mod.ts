// POST /api/v1/device/sleep {durationMs}: answers, then sleeps.
import type { Handler } from "../http/types";
import { okThen } from "../http/types";
import { invalid } from "../core/failure";

const sleep: Handler = (req, app) => {
  const body = req.body as { durationMs?: unknown } | null;
  const ms = body && typeof body === "object" ? body.durationMs : undefined;
  if (typeof ms !== "number" || !isFinite(ms) || Math.floor(ms) !== ms || ms <= 0) {
    return invalid("durationMs", "must be a positive integer (milliseconds)");
  }
  return okThen(() => app.sleep(ms));
};
export default sleep;
