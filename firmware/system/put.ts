// PUT /api/v1/system without its answer (module system/apply), which the route (put.mod.ts) and
// a restore's system entries run: validated whole, then stored atomically, and in force at once.
import type { App } from "../app";
import { failure, isFailure } from "../core/failure";
import type { Failure } from "../core/failure";
import type { SystemConfig } from "./schema";
import { applySystemPut } from "./validate";

/**
 * The configuration `req.body` makes, stored and in force, or the failure (nothing changed). The
 * body is all it reads of the request.
 */
export function putSystem(req: { body: unknown }, app: App): SystemConfig | Failure {
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
  return next;
}
