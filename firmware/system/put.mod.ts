// PUT /api/v1/system: validated whole, then stored atomically.
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { failure, isFailure } from "../core/failure";
import { publicView } from "./schema";
import { applySystemPut } from "./validate";

const putSystem: Handler = (req, app) => {
  const before = app.system.config;
  const next = applySystemPut(before, req.body, app.system.chip());
  if (isFailure(next)) return next;
  // Merged: the body is not held while the configuration is saved (a restore hands over a whole
  // configuration).
  req.body = undefined;
  if (!app.system.save(next)) return failure(507, "insufficientStorage", "storage capacity reached");
  // haDiscovery and haPrefix apply at once: the MQTT surface retracts or publishes in this request.
  if (app.systemSaved) app.systemSaved(before, next);
  // A new zone is compiled now, between frames, rather than by the next frame.
  app.display.clock.setZone(next.tz);
  return json(publicView(next, false));
};
export default putSystem;
