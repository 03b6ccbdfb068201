// One command message: its topic names the HTTP route it stands for, and the route's own handler
// module answers it with the payload as the body, exactly as the pipeline would hand it over (the
// route's parser, its empty-body rule, its path checks), but without the transport's framing
// (auth, CORS, method override, content type). The verdict goes to `<topic>/result`.
//
// Held by the core while messages come in (mqtt/commands.ts) and dropped after the last.
import type { App } from "../app";
import type { MqttLink } from "./link";
import type { ApiRequest, Handler, Method, ParamsCheck, Reply } from "../http/types";
import { ok } from "../http/types";
import { failure, isFailure, type Failure } from "../core/failure";
import { parseJson, toJson } from "../core/json";
import { findText } from "../core/text";
import { methodSpec, paramsCheck, type RouteMatch } from "../http/router";
import { loadModule } from "../platform/modules";
import { fwFile } from "../platform/slot";

/** Storage file of the route table (http/router.ts). */
const ROUTES_FILE = "routes";
/** The MQTT payload ceiling: anything larger is dropped unread, with no result. */
const PAYLOAD_MAX = 8192;
/** The HTTP body ceiling of a route that names none. */
const BODY_MAX = 8192;
/** As the pipeline does: the result leaves before a restart or a sleep begins. */
const AFTER_MS = 200;

/**
 * Topics whose route does not depend on the payload: `|<topic> <method> <path under /api/v1/>`.
 * Kept as text: code, in flash, rather than a table of objects in memory.
 */
function fixed(): string {
  return "|notify POST notifications|notify/dismiss DELETE notifications/active|apps/switch PUT apps/active" +
    "|apps/next POST apps/next|apps/previous POST apps/previous|apps/order PUT apps/order" +
    "|settings PATCH settings|settings/reset POST settings/reset|display PATCH display" +
    "|audio/play POST audio/play|audio/stop POST audio/stop|audio/stations PUT audio/stations" +
    "|device/reboot POST device/reboot|device/sleep POST device/sleep|screen/get GET display/screen|";
}

/** A command: the HTTP method, the route as the table spells it, and its path parameters. */
interface Command {
  method: Method;
  route: string;
  params: { [name: string]: string };
}

function command(method: string, route: string, name?: string, value?: string): Command {
  const params: { [name: string]: string } = {};
  if (name) params[name] = value as string;
  return { method: method as Method, route: "/api/v1/" + route, params };
}

/** The clearing idiom of the topics that delete: nothing, or an object with nothing in it. */
function clears(payload: string): boolean {
  const t = payload.trim();
  return t === "" || /^\{\s*\}$/.test(t);
}

/** The command a topic (below `<P>/cmd/`) stands for, or null when it matches nothing. */
function resolve(t: string, payload: string): Command | null {
  if (t.indexOf(" ") < 0 && t.indexOf("|") < 0) {
    const table = fixed();
    const at = findText(table, "|" + t + " ");
    if (at >= 0) {
      const row = table.substring(at + 1, table.indexOf("|", at + 1)).split(" ");
      return command(row[1], row[2]);
    }
  }
  // The whole rest of the topic is the name, so a bad one is answered as the HTTP route answers it.
  if (t.substr(0, 12) === "apps/pushed/") {
    const name = t.substr(12);
    if (name === "") return null;
    return clears(payload) ? command("DELETE", "apps/{name}", "name", name) : command("PUT", "apps/pushed/{name}", "name", name);
  }
  if (t.substr(0, 15) === "notify/dismiss/") {
    const name = t.substr(15);
    if (name === "") return null;
    // As over HTTP, where the literal path wins over the name pattern.
    if (name === "active") return command("DELETE", "notifications/active");
    return command("DELETE", "notifications/{name}", "name", name);
  }
  if (t === "display/moodlight") return command(payload.trim() === "" ? "DELETE" : "PUT", "display/moodlight");
  if (t.substr(0, 11) === "indicators/") {
    const id = t.substr(11);
    // Any other id matches no route: no result at all.
    if (id !== "1" && id !== "2" && id !== "3") return null;
    return command(clears(payload) ? "DELETE" : "PUT", "indicators/{id}", "id", id);
  }
  if (t.substr(0, 5) === "apps/" && t.length > 13 && t.substr(t.length - 8) === "/enabled") {
    return command("PUT", "apps/{name}/enabled", "name", t.substring(5, t.length - 8));
  }
  return null;
}

/** The route's line of the table, found by its own spelling, or null when this build lacks it. */
function routeLine(routes: string, route: string, params: { [name: string]: string }): RouteMatch | null {
  const at = findText(routes, "\n" + route + "|");
  if (at < 0) return null;
  return { fields: routes.substring(at + 1, routes.indexOf("\n", at + 1)).split("|"), params };
}

/** The route's path with its parameters in place, as a request for it would carry it. */
function concrete(route: string, params: { [name: string]: string }): string {
  for (const name in params) route = route.split("{" + name + "}").join(params[name]);
  return route;
}

/**
 * The result body. Over MQTT three messages are fixed whatever the route says (there is no request
 * body, and "not found" covers every kind of name).
 */
function resultText(f: Failure | null): string {
  if (!f) return "{\"ok\":true}";
  let message = f.message;
  if (f.code === "notFound") message = "not found";
  else if (f.code === "invalidJson") message = "payload is not valid JSON";
  else if (f.code === "internalError") message = "command failed";
  const error: { code: string; message: string; field?: string } = { code: f.code, message };
  if (f.field) error.field = f.field;
  return toJson({ ok: false, error });
}

function invalidJson(): Failure {
  return failure(400, "invalidJson", "payload is not valid JSON");
}

/** What the route says, or null when the topic matches nothing this build has (no result). */
function answer(app: App, link: MqttLink, c: Command, payload: string, base: string): Failure | Reply | null {
  const match = routeLine(require("Storage").read(fwFile(ROUTES_FILE)) || "\n", c.route, c.params);
  if (!match) {
    // Sound is a feature of its own: a build without its routes has no output to play on, and
    // stopping what does not play succeeds.
    if (c.route === "/api/v1/audio/stop") return ok();
    if (c.route.substr(0, 14) === "/api/v1/audio/") return failure(503, "unavailable", "this build has no audio output");
    return null;
  }
  const check = paramsCheck(match);
  if (check) {
    const bad = loadModule<ParamsCheck>(check)(c.params);
    if (bad) return bad;
  }
  const spec = methodSpec(match, c.method);
  if (!spec) return null;
  // A read takes no body: screen/get's payload is ignored.
  const max = c.method === "GET" ? 0 : spec.maxBody === undefined ? BODY_MAX : spec.maxBody;
  // Over the route's own ceiling: dropped as the MQTT ceiling drops it.
  if (max > 0 && payload.length > max) return null;
  const req: ApiRequest = {
    method: c.method, path: concrete(c.route, c.params), query: {}, header: () => "", body: undefined, raw: "",
    params: c.params,
  };
  const json = max > 0 && !spec.rawBody;
  if (max > 0 && !json) req.raw = payload;
  if (json && payload.trim() !== "") {
    const parsed = spec.parser ? loadModule<typeof parseJson>(spec.parser)(payload) : parseJson(payload);
    if (!parsed) return invalidJson();
    req.body = parsed.value;
  } else if (json && spec.emptyBody === "invalidJson") {
    return invalidJson();
  }
  let out: Reply | Failure;
  try {
    out = loadModule<Handler>(spec.handler)(req, app);
  } catch (e) {
    out = failure(500, "internalError", "command failed");
  }
  if (!isFailure(out) && c.route === "/api/v1/display/screen") {
    link.publish(base + "/state/screen", out.text !== undefined ? out.text : toJson(out.json), false, 0);
  }
  return out;
}

/**
 * Runs the message on topic `<P>/<rest>` (the core has checked the prefix and counted it) and
 * publishes its result, unless the topic matches nothing.
 */
export default function runCommand(app: App, link: MqttLink, rest: string, payload: string): void {
  if (payload.length > PAYLOAD_MAX || rest.substr(0, 4) !== "cmd/") return;
  const c = resolve(rest.substr(4), payload);
  if (!c) return;
  const base = link.prefix();
  const out = answer(app, link, c, payload, base);
  if (!out) return;
  const failed = isFailure(out);
  link.publish(base + "/" + rest + "/result", resultText(failed ? out as Failure : null), false, 0);
  const after = failed ? undefined : (out as Reply).after;
  if (after) setTimeout(after, AFTER_MS);
}
