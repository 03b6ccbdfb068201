// The route table as the clock holds it: one text file in Storage, read in place, so the table
// costs one variable however many routes there are. The build writes it from the typed tables
// of each area (`encodeRoutes`, run by build/routes.mjs); the transport looks paths up in it.
//
// One line per route, between newlines: `<path>|<params check>|<method>|<method>...`, each
// method `<NAME>:<flags>:<maxBody>:<handler module>`, flags being letters of FLAG_LETTERS. A
// literal path is found with one search; `{param}` paths are compared segment by segment, after
// every literal path (so a literal path wins over a pattern it also matches).
import type { Method, MethodSpec, Route } from "./types";
import { findText } from "../core/text";

export interface RouteMatch {
  /** The route's fields: path, params check, then one per method. */
  fields: string[];
  params: { [name: string]: string };
}

/** A method's flag letters: s setup, g guarded, q guarded with secrets=1, j/p empty body, r raw, u upload. */
function flagsOf(spec: MethodSpec): string {
  return (spec.setup ? "s" : "") + (spec.guarded === true ? "g" : spec.guarded === "secrets" ? "q" : "") +
    (spec.emptyBody === "invalidJson" ? "j" : spec.emptyBody === "pass" ? "p" : "") + (spec.rawBody ? "r" : "") +
    (spec.upload ? "u" : "");
}

/** The Storage text of `routes`, in table order. */
export function encodeRoutes(routes: Route[]): string {
  const literal: string[] = [];
  const pattern: string[] = [];
  for (const r of routes) {
    let line = r.path + "|" + (r.checkParams || "");
    for (const m of Object.keys(r.methods) as Method[]) {
      const spec = r.methods[m] as MethodSpec;
      line += "|" + m + ":" + flagsOf(spec) + ":" + (spec.maxBody === undefined ? "" : spec.maxBody) + ":" + spec.handler +
        (spec.parser ? ":" + spec.parser : "");
    }
    (r.path.indexOf("{") >= 0 ? pattern : literal).push(line);
  }
  return "\n" + literal.concat(pattern).join("\n") + "\n";
}

function lineAt(table: string, start: number): string[] {
  return table.substring(start, table.indexOf("\n", start)).split("|");
}

export function matchRoute(table: string, path: string): RouteMatch | null {
  const at = findText(table, "\n" + path + "|");
  if (at >= 0) return { fields: lineAt(table, at + 1), params: {} };
  const parts = path.split("/");
  for (let start = 1; start < table.length; start = table.indexOf("\n", start) + 1) {
    const bar = table.indexOf("|", start);
    const pattern = table.substring(start, bar);
    if (pattern.indexOf("{") < 0) continue;
    const segs = pattern.split("/");
    if (segs.length !== parts.length) continue;
    const params: { [name: string]: string } = {};
    let matched = true;
    for (let i = 0; i < segs.length && matched; i++) {
      const seg = segs[i];
      if (seg.charAt(0) === "{") params[seg.substr(1, seg.length - 2)] = parts[i];
      else matched = seg === parts[i];
    }
    if (matched) return { fields: lineAt(table, start), params };
  }
  return null;
}

/** "GET, PUT": the order methods are written in the route table. */
export function allowedMethods(match: RouteMatch): string {
  const out: string[] = [];
  for (let i = 2; i < match.fields.length; i++) out.push(match.fields[i].split(":")[0]);
  return out.join(", ");
}

/** The module that checks the route's path parameters, or "". */
export function paramsCheck(match: RouteMatch): string {
  return match.fields[1];
}

/** A method field of a route line, `<NAME>:<flags>:<maxBody>:<handler>`, as a MethodSpec. */
function specOf(field: string[]): MethodSpec {
  const has = (letter: string) => field[1].indexOf(letter) >= 0;
  const spec: MethodSpec = {
    handler: field[3],
    setup: has("s"),
    guarded: has("g") ? true : has("q") ? "secrets" : false,
    emptyBody: has("j") ? "invalidJson" : has("p") ? "pass" : undefined,
    rawBody: has("r"),
    maxBody: field[2] === "" ? undefined : +field[2],
  };
  if (field[4]) spec.parser = field[4];
  if (has("u")) spec.upload = true;
  return spec;
}

/** How the route answers `method`, or null when it does not take that method. */
export function methodSpec(match: RouteMatch, method: string): MethodSpec | null {
  for (let i = 2; i < match.fields.length; i++) {
    const f = match.fields[i].split(":");
    if (f[0] === method) return specOf(f);
  }
  return null;
}
