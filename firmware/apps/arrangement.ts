// The arrangement of the loop (order and switched-off names) as it is kept in flash: one atomic
// record, written by the order and enabled routes and read back at boot (order-load.mod.ts).
// Only modules import this file.
import type { Failure } from "../core/failure";
import { invalid } from "../core/failure";
import { AtomicRecord } from "../core/persist";
import { flash } from "../platform/flash";
import type { AppLoop } from "./loop";
import { isAppName } from "./names";

/** Base name of the record's two Storage files. */
const RECORD = "apploop";
/** Names one list may hold: they stay in memory for good. */
export const LIST_MAX = 100;

export interface StoredArrangement {
  order: string[] | null;
  disabled: string[];
}

function record(): AtomicRecord {
  return new AtomicRecord(flash, RECORD);
}

/** What was stored, or null when nothing intact was. */
export function loadArrangement(): StoredArrangement | null {
  const v = record().load() as StoredArrangement | undefined;
  if (typeof v !== "object" || v === null) return null;
  const order = nameList(v.order, "order");
  const disabled = nameList(v.disabled, "disabled");
  return { order: Array.isArray(order) ? order : null, disabled: Array.isArray(disabled) ? disabled : [] };
}

/** Writes the loop's arrangement; false when the flash refused it. */
export function saveArrangement(loop: AppLoop): boolean {
  const r = record();
  // Finds which copy is the newest, so that the write goes to the other one.
  r.load();
  const v: StoredArrangement = { order: loop.order, disabled: loop.off };
  return r.save(v);
}

/** A list of app names as a body or the record gives it, or the refusal naming `field`. */
export function nameList(v: unknown, field: string): string[] | Failure {
  if (!Array.isArray(v)) return invalid(field, "must be an array of app names");
  if (v.length > LIST_MAX) return invalid(field, "at most " + LIST_MAX + " names");
  for (let i = 0; i < v.length; i++) if (!isAppName(v[i])) return invalid(field, "must be an array of app names");
  return v as string[];
}
