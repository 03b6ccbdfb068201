// A PATCH of the settings, shared by PATCH /api/v1/settings and PATCH /api/v1/display.
import { failure, isFailure } from "../core/failure";
import type { Failure } from "../core/failure";
import type { SettingsStore } from "./store";
import { applySettingsPatch } from "./validate";

/**
 * Applies the PATCH body `req.body` (any subset of keys, validated whole) and saves the result.
 * Null when applied; otherwise the failure (422, or 507 when the flash refused), and nothing
 * changed. Once checked, the body is let go (`req.body` cleared), so that it is not held beside
 * the settings being saved.
 */
export function patchSettings(store: SettingsStore, req: { body: unknown }): Failure | null {
  const next = applySettingsPatch(store.current, req.body);
  if (isFailure(next)) return next;
  // An empty object changes nothing and need not wear the flash.
  const empty = Object.keys(req.body as object).length === 0;
  req.body = undefined;
  if (empty) return null;
  return store.save(next) ? null : failure(507, "insufficientStorage", "storage capacity reached");
}
