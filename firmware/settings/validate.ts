// PATCH /api/v1/settings: any subset of keys, validated whole before anything changes.
//
// The body is walked in its own key order and the first offending key is the answer (422 with
// that key, or "group.field" inside weekdayBar and scroll); nothing is applied then. Groups and
// the scroll object merge field by field onto their current value.
import { failure, invalid, isFailure } from "../core/failure";
import type { Failure } from "../core/failure";
import { TRANSITIONS } from "../device/names";
import { findName } from "../core/text";
import { COLOR_MESSAGE, parseColor } from "../color/color";
import { checkScroll } from "../text/scroll-spec";
import type { ScrollSpec } from "../text/scroll-spec";
import { isInteger } from "../core/number";
import { WEEKDAYS, findField } from "./schema";
import type { Bag, FieldSpec } from "./schema";
import type { Settings } from "./types";

function isObject(v: unknown): v is Bag {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Weekday numbers in calendar order without repeats, from a list of lowercase weekday names (or,
 * with `numbers`, of day numbers 0-6 as they are stored); null when the list is anything else.
 */
export function weekdaysFrom(v: unknown, numbers: boolean): number[] | null {
  if (!Array.isArray(v)) return null;
  let mask = 0;
  for (let i = 0; i < v.length; i++) {
    const day = numbers ? (isInteger(v[i]) && v[i] >= 0 && v[i] < 7 ? v[i] : -1) : WEEKDAYS.indexOf(v[i]);
    if (day < 0) return null;
    mask |= 1 << day;
  }
  const out: number[] = [];
  for (let d = 0; d < 7; d++) if (mask & (1 << d)) out.push(d);
  return out;
}

function oneOf(names: string[], v: unknown, field: string): string | Failure {
  const i = typeof v === "string" ? findName(names, v) : -1;
  return i < 0 ? invalid(field, "must be one of: " + names.join(" ")) : names[i];
}

/** The fields of a group object merged onto a copy of its current value. */
function checkGroup(spec: FieldSpec, v: unknown, held: Bag): Bag | Failure {
  if (!isObject(v)) return invalid(spec.name, "must be an object");
  const out = Object.assign({}, held) as Bag;
  for (let key in v) {
    const name = spec.name + "." + key;
    const sub = findField(name);
    if (!sub) return invalid(name, "unknown field");
    const r = checkValue(sub, v[key], out[key]);
    if (isFailure(r)) return r;
    out[key] = r;
  }
  return out;
}

/**
 * One request value checked against its row, in the form the firmware holds it (packed
 * colours, weekday numbers, canonical names), or the failure naming it. `held` is the current
 * value, onto which the scroll object and groups merge.
 */
export function checkValue(spec: FieldSpec, v: unknown, held: unknown): unknown | Failure {
  const field = spec.name;
  switch (spec.kind) {
    case "bool":
      return typeof v === "boolean" ? v : invalid(field, "must be a boolean");
    case "int":
      if (!isInteger(v)) return invalid(field, "must be an integer");
      return v < spec.lo || v > spec.hi ? invalid(field, "out of range") : v;
    case "positive":
      if (typeof v !== "number" || !isFinite(v)) return invalid(field, "must be a number");
      return v > 0 ? v : invalid(field, "out of range");
    case "enum":
      return oneOf(spec.values, v, field);
    case "transition":
      return oneOf(TRANSITIONS, v, field);
    case "color": {
      const c = parseColor(v);
      // Inside a group the shorter message names what is wanted.
      return c >= 0 ? c : invalid(field, field.indexOf(".") < 0 ? COLOR_MESSAGE : "must be a color");
    }
    case "ncolor": {
      const c = v === null ? null : parseColor(v);
      return c === null || c >= 0 ? c : invalid(field, "must be a color or null");
    }
    case "days": {
      const days = weekdaysFrom(v, false);
      return days ? days : invalid(field, "must be an array of weekday names");
    }
    case "scroll":
      return checkScroll(v, held as ScrollSpec, field);
    default:
      return checkGroup(spec, v, held as Bag);
  }
}

/**
 * Settings after a PATCH body, as a fresh object, or the first failure; `current` is never
 * modified.
 */
export function applySettingsPatch(current: Settings, body: unknown): Settings | Failure {
  if (!isObject(body)) return failure(422, "validationFailed", "the body must be a JSON object of settings");
  const next = Object.assign({}, current) as unknown as Bag;
  for (let key in body) {
    // Fields of a group are reached through the group, never as top-level keys.
    const spec = key.indexOf(".") < 0 ? findField(key) : null;
    if (!spec) return invalid(key, "unknown field");
    const r = checkValue(spec, body[key], next[key]);
    if (isFailure(r)) return r;
    next[key] = r;
  }
  return next as unknown as Settings;
}
