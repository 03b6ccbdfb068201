// The payload of a pushed app or a notification, checked whole and turned into what is stored
// (payload/stored.ts). Walked in the body's own key order; the first offending key is the answer
// (422 validationFailed naming it), and nothing is returned but that failure. A value of the wrong
// JSON type for its key is left out (the key keeps its default); a number outside its range is
// clamped; a colour that cannot be read, an unlisted word, an unknown name or a bad draw element
// is refused.
import type { Failure } from "../core/failure";
import { failure, invalid, isFailure } from "../core/failure";
import { parseColor } from "../color/color";
import { findName } from "../core/text";
import { toJson } from "../core/json";
import { EFFECTS, OVERLAYS, PALETTES } from "../device/names";
import { checkScroll } from "../text/scroll-spec";
import type { ScrollSpec } from "../text/scroll-spec";
import type { DrawProgram } from "./draw";
import { compileChart } from "./chart";
import { findPaletteFile, readPaletteFile } from "../palette/file";
import { findKey } from "./schema";
import type { KeySpec } from "./schema";
import type { StoredPalette, StoredPayload, ValidatePayload } from "./stored";
import { sortStops } from "../palette/compile";

type Bag = { [key: string]: unknown };

const WHITE = 0xffffff;
const MAX_STOPS = 16;

function isObject(v: unknown): v is Bag {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function badColor(key: string): Failure {
  return invalid(key, "\"" + key + "\" is not a valid color");
}

/** Fragments joined into one string, with their colour runs (StoredPayload.r). */
function checkFragments(list: unknown[], out: StoredPayload): Failure | null {
  const pieces: string[] = [];
  const runs: string[] = [];
  let end = 0;
  let last = -1;
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    let piece = "";
    let color = WHITE;
    if (isObject(e)) {
      if (typeof e.text === "string") piece = e.text;
      if (e.color !== undefined && e.color !== null) {
        color = parseColor(e.color);
        if (color < 0) return badColor("text");
      }
    }
    if (!piece) continue;
    pieces.push(piece);
    end += piece.length;
    const run = String.fromCharCode(end >> 8, end & 255, color >> 16, (color >> 8) & 255, color & 255);
    // Neighbours of one colour draw as one run.
    if (color === last) runs[runs.length - 1] = run;
    else runs.push(run);
    last = color;
  }
  if (end > 0) {
    out.t = pieces.join("");
    out.r = runs.join("");
  }
  return null;
}

/** A palette as stored; undefined when it clears or is of the wrong type (nothing is kept). */
function checkPalette(v: unknown): StoredPalette | Failure | undefined {
  if (typeof v === "string") {
    if (v === "") return undefined;
    // A file wins over a built-in of the same name; one that does not read is refused.
    const file = findPaletteFile(v);
    if (file) return readPaletteFile(file) ? file : invalid("palette", "malformed palette file");
    const i = findName(PALETTES, v);
    return i < 0 ? invalid("palette", "unknown palette") : PALETTES[i];
  }
  if (!Array.isArray(v)) return undefined;
  if (v.length === 0) return invalid("palette", "must hold 1 to 16 colours");
  const placed = isObject(v[0]);
  const stops: number[] = [];
  const spots: number[][] = [];
  for (let i = 0; i < v.length; i++) {
    const e = v[i];
    if (isObject(e) !== placed) return invalid("palette", "either every stop has a pos or none has");
    let color: number;
    if (placed) {
      const stop = e as Bag;
      if (stop.color === undefined || stop.pos === undefined) return invalid("palette", "a stop needs both color and pos");
      if (typeof stop.pos !== "number") return invalid("palette", "pos must be a number from 0 to 100");
      color = parseColor(stop.color);
      if (color >= 0 && spots.length < MAX_STOPS) spots.push([stop.pos < 0 ? 0 : stop.pos > 100 ? 100 : stop.pos, color]);
    } else {
      color = parseColor(e);
      if (stops.length < MAX_STOPS) stops.push(color);
    }
    // Stops past the sixteenth are dropped, but a malformed one is refused wherever it is.
    if (color < 0) return badColor("palette");
  }
  if (!placed) return stops;
  return sortStops(spots);
}

/** A packed colour; undefined for null, which leaves the key at its default. */
function checkColor(key: string, v: unknown): number | Failure | undefined {
  if (v === null) return undefined;
  const c = parseColor(v);
  return c < 0 ? badColor(key) : c;
}

/** A word of a row's list, in its spelling; undefined for a value that is not a string. */
function checkWord(spec: KeySpec, v: unknown): string | Failure | undefined {
  if (typeof v !== "string") return undefined;
  const words = spec.words.split(",");
  const i = findName(words, v);
  return i < 0 ? invalid(spec.name, "must be one of: " + words.join(" ")) : words[i];
}

/** A name of a list (effect, overlay), "" meaning none; undefined for a value that is not a string or is "". */
function checkName(key: string, list: string[], v: unknown): string | Failure | undefined {
  if (typeof v !== "string" || v === "") return undefined;
  const i = findName(list, v);
  return i < 0 ? invalid(key, "unknown " + key) : list[i];
}

/**
 * The value of one key as it is kept in StoredPayload.k, or undefined when nothing is kept (the
 * key was of the wrong type, or it means the default); keys stored elsewhere are written to `out`.
 */
function checkValue(spec: KeySpec, v: unknown, out: StoredPayload): unknown {
  const key = spec.name;
  switch (spec.kind) {
    case "text":
      if (typeof v === "string") {
        if (v) out.t = v;
        return undefined;
      }
      return Array.isArray(v) ? checkFragments(v, out) || undefined : undefined;
    case "word":
      return checkWord(spec, v);
    case "pcolor":
      return typeof v === "string" && v.toLowerCase() === "palette" ? "palette" : checkColor(key, v);
    case "color":
      return checkColor(key, v);
    case "int":
    case "float": {
      if (typeof v !== "number" || !isFinite(v)) return undefined;
      const n = spec.kind === "int" ? Math.round(v) : v;
      return n < spec.lo ? spec.lo : n > spec.hi ? spec.hi : n;
    }
    case "percent":
      if (typeof v !== "number" || !isFinite(v)) return undefined;
      return v < 0 ? -1 : v > 100 ? 100 : v;
    case "bool":
      return typeof v === "boolean" ? v : undefined;
    case "string":
      return typeof v === "string" ? v : undefined;
    case "any":
      return v === null ? undefined : v;
    case "scroll": {
      if (typeof v !== "string" && !isObject(v)) return undefined;
      // Onto nothing, so that only the given fields are kept: the rest follow the global setting.
      const own = checkScroll(v, {} as ScrollSpec, key);
      if (isFailure(own)) return own;
      return Object.keys(own).length ? own : undefined;
    }
    case "draw": {
      // Compiled after this module is released (check.ts): a long list's parsed form and the
      // compiler then never share memory with the rest of the validation.
      // Compiled already as the body was read (payload/parse-body), or here after.
      if (v instanceof Uint8Array) {
        if (v.length) out.d = v;
        return undefined;
      }
      if (!Array.isArray(v) || !v.length) return undefined;
      out.d = v as unknown as DrawProgram;
      return undefined;
    }
    case "chart": {
      const data = compileChart(v);
      if (data && data.length) {
        if (key === "barChart") out.b = data;
        else out.l = data;
      }
      return undefined;
    }
    case "palette":
      return checkPalette(v);
    case "effect":
      return checkName(key, EFFECTS, v);
    default:
      return checkName(key, OVERLAYS, v);
  }
}

/** Whether a kept value is the row's default, which need not be stored. */
function isDefault(spec: KeySpec, v: unknown): boolean {
  if (typeof v === "number" && (spec.kind === "color" || spec.kind === "pcolor")) {
    return spec.def !== "" && v === parseInt(spec.def, 16);
  }
  return typeof v !== "object" && String(v) === spec.def;
}

const validate: ValidatePayload = (body, notification) => {
  if (!isObject(body)) return failure(422, "validationFailed", "a payload must be a JSON object");
  const out: StoredPayload = {};
  const keep: Bag = {};
  let kept = false;
  for (const key in body) {
    const spec = findKey(key, notification);
    if (!spec) return invalid(key, "unknown field");
    const v = checkValue(spec, body[key], out);
    if (v === undefined) continue;
    // A value kept unchecked could look like a failure.
    if (spec.kind !== "any" && isFailure(v)) return v;
    if (isDefault(spec, v)) continue;
    if (key === "name") out.n = v as string;
    // A notification accepts these and never uses them.
    else if (!(notification && (key === "lifetimeMs" || key === "lifetimeExpiry"))) {
      keep[spec.code] = v;
      kept = true;
    }
  }
  if (kept) out.k = toJson(keep);
  return out;
};
export default validate;
