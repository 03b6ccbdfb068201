// The scroll object of settings and payloads: how a line of text moves.
import { invalid } from "../core/failure";
import type { Failure } from "../core/failure";
import { findName } from "../core/text";
import { isInteger } from "../core/number";

export type ScrollMode = "static" | "wrap" | "loop" | "bounce";

export interface ScrollSpec {
  mode: ScrollMode;
  direction: "left" | "right";
  entry: "inline" | "offscreen";
  whenFits: "static" | "scroll";
  /** Percent of BASE_SCROLL_PX_PER_S; 0 freezes. */
  speed: number;
  /** Pixels between repetitions (loop mode). */
  gap: number;
  holdMs: number;
}

/** 100 % scroll speed, in pixels per second. */
export const BASE_SCROLL_PX_PER_S = 21;

/** The scroll object of a factory-fresh device. Read-only: copy it before changing a field. */
export const DEFAULT_SCROLL: ScrollSpec = {
  mode: "wrap", direction: "left", entry: "inline", whenFits: "static", speed: 100, gap: 8, holdMs: 1000,
};

// Every field, as "<name>:<allowed,words>" for a name field or a bare "<name>" for a
// non-negative integer; one string so that the table costs a single interpreter variable.
const FIELDS = "mode:static,wrap,loop,bounce direction:left,right entry:inline,offscreen whenFits:static,scroll speed gap holdMs";

/** The allowed words of a scroll field ("" for the integer fields), or null when it is unknown. */
function wordsOf(name: string): string | null {
  const fields = FIELDS.split(" ");
  for (let i = 0; i < fields.length; i++) {
    const colon = fields[i].indexOf(":");
    const fieldName = colon < 0 ? fields[i] : fields[i].substr(0, colon);
    if (fieldName === name) return colon < 0 ? "" : fields[i].substr(colon + 1);
  }
  return null;
}

/**
 * A scroll value of a request merged field by field onto `base`: an object of scroll fields, or
 * a bare mode name, which means exactly {mode: name}. The first bad field in the value's key
 * order is the answer, its name prefixed by `field` ("scroll.speed"); `base` is never modified.
 */
export function checkScroll(value: unknown, base: ScrollSpec, field: string): ScrollSpec | Failure {
  const src = (typeof value === "string" ? { mode: value } : value) as { [name: string]: unknown };
  if (typeof src !== "object" || src === null || Array.isArray(src)) {
    return invalid(field, "must be an object of scroll fields or a mode name");
  }
  const out = Object.assign({}, base) as ScrollSpec;
  const bag = out as unknown as { [name: string]: unknown };
  for (let key in src) {
    const words = wordsOf(key);
    const at = field + "." + key;
    if (words === null) return invalid(at, "unknown field");
    const v = src[key];
    if (words === "") {
      if (!isInteger(v)) return invalid(at, "must be an integer");
      if (v < 0) return invalid(at, "out of range");
      bag[key] = v;
    } else {
      const list = words.split(",");
      const i = typeof v === "string" ? findName(list, v) : -1;
      if (i < 0) return invalid(at, "must be one of: " + list.join(" "));
      bag[key] = list[i];
    }
  }
  return out;
}
