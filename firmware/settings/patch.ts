// A PATCH of the settings, shared by PATCH /api/v1/settings and PATCH /api/v1/display.
import { failure, isFailure } from "../core/failure";
import type { Failure } from "../core/failure";
import type { SettingsStore } from "./store";
import { applySettingsPatch } from "./validate";

/**
 * Applies a PATCH body (any subset of keys, validated whole) and saves the result. Null when
 * applied; otherwise the failure (422, or 507 when the flash refused), and nothing changed.
 */
export function patchSettings(store: SettingsStore, body: unknown): Failure | null {
  const next = applySettingsPatch(store.current, body);
  if (isFailure(next)) return next;
  // An empty object changes nothing and need not wear the flash.
  if (Object.keys(body as object).length === 0) return null;
  return store.save(next) ? null : failure(507, "insufficientStorage", "storage capacity reached");
}
