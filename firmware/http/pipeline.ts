// One request from arrival to answer: the transport rules every route shares, in the order the
// specification fixes them. Handlers only see requests that passed all of them.
import type { App } from "../app";
import type { ApiRequest, Handler, Method, MethodSpec, ParamsCheck, Reply } from "./types";
import { failure, errorBody, isFailure, type Failure } from "../core/failure";
import { toJson, parseJson } from "../core/json";
import { matchRoute, allowedMethods, methodSpec, paramsCheck } from "./router";
import { loadModule } from "../platform/modules";
import { splitTarget } from "./query";
import { hostOf, isAuthorized, crossSite, AUTH_REALM } from "./guards";
import { heap } from "../platform/system";

/** Default ceiling of a JSON body. */
export const JSON_BODY_MAX = 8192;
/** Past this many bytes a refused body is no longer drained; the connection is just closed. */
const DRAIN_MAX = 65536;
/** Bodies at most this large are never refused for lack of memory. */
const SMALL_BODY = 1024;
/** Headroom kept free, in interpreter variables, when a large body is taken in. */
const RESERVE_VARS = 1500;

/** Paths claimed by upload handlers, which never honour a method override. */
const UPLOAD_PATHS = ["/update", "/api/v1/files", "/api/v1/audio/mp3", "/api/v1/restore"];

const OVERRIDABLE = ["PUT", "PATCH", "DELETE"];

type Headers = { [name: string]: string };

function send(res: EspResponse, status: number, headers: Headers, body: string, head: boolean): void {
  headers["Connection"] = "close";
  // A HEAD answer announces the length the GET body would have.
  headers["Content-Length"] = "" + body.length;
  res.writeHead(status, headers);
  res.end(head ? "" : body);
}

function sendFailure(res: EspResponse, f: Failure, cors: boolean, extra?: Headers): void {
  const headers: Headers = extra || {};
  headers["Content-Type"] = "application/json";
  if (cors) headers["Access-Control-Allow-Origin"] = "*";
  if (f.retryAfter) headers["Retry-After"] = "" + f.retryAfter;
  send(res, f.status, headers, toJson(errorBody(f)), false);
}

function sendReply(res: EspResponse, reply: Reply, cors: boolean, head: boolean): void {
  const headers: Headers = {};
  if (reply.headers) for (const k in reply.headers) headers[k] = reply.headers[k];
  if (cors) headers["Access-Control-Allow-Origin"] = "*";
  let body = "";
  if (reply.text !== undefined) {
    headers["Content-Type"] = reply.contentType || "text/plain";
    body = reply.text;
  } else if (reply.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = toJson(reply.json);
  }
  send(res, reply.status, headers, body, head);
}

/**
 * The length of the body a request declares, which is when Espruino's server raises `end`: -1 for
 * a chunked body (its last chunk ends it), 0 without Content-Length (a request without either has
 * no body, whatever else the client sends), and NaN for a Content-Length that is not a decimal
 * number of bytes (such a body is never taken in).
 */
function declaredLength(header: (name: string) => string): number {
  if (header("transfer-encoding").toLowerCase() === "chunked") return -1;
  const v = header("content-length");
  if (v === "") return 0;
  return /^[0-9]+$/.test(v) ? parseInt(v, 10) : NaN;
}

/**
 * Takes in a body, keeping at most `keep` bytes of it. `done` runs once, when the body has arrived
 * whole: on the request's `end`, and only if exactly `expected` bytes came (any number when
 * `expected` is negative; never when it is NaN). A client that resets or half-closes the
 * connection before that never gets `end` from Espruino, so nothing is done for it. Bytes past
 * `expected` are no part of the body. Past DRAIN_MAX bytes (and past `keep`), `done` runs at once
 * with `cut` set, for a refusal: the body is not complete and must not be used.
 */
function readBody(req: EspRequest, keep: number, expected: number,
  done: (body: string, total: number, cut: boolean) => void): void {
  let body = "";
  let total = 0;
  let finished = false;
  req.on("data", (chunk: string) => {
    if (finished) return;
    if (expected >= 0 && total + chunk.length > expected) chunk = chunk.substr(0, expected - total);
    total += chunk.length;
    if (total <= keep) body += chunk;
    if (total > DRAIN_MAX && total > keep) {
      finished = true;
      done(body, total, true);
    }
  });
  req.on("end", () => {
    if (finished || !(expected < 0 || total === expected)) return;
    finished = true;
    // Handed over, not kept here as well: the caller drops it once parsed (an 8 KB body is about
    // 700 variables).
    const whole = body;
    body = "";
    done(whole, total, false);
  });
}

function isJsonType(contentType: string): boolean {
  const semi = contentType.indexOf(";");
  const type = (semi < 0 ? contentType : contentType.substr(0, semi)).trim().toLowerCase();
  return type === "application/json";
}

function isGuarded(spec: MethodSpec, query: { [name: string]: string }): boolean {
  return spec.guarded === "secrets" ? query.secrets === "1" : !!spec.guarded;
}

function notAllowedDuringSetup(): Failure {
  return failure(403, "forbidden", "not available during provisioning");
}

function preflight(res: EspResponse, methods: string): void {
  send(res, 204, {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": methods,
    "Access-Control-Allow-Headers": "Content-Type, Authorization, X-HTTP-Method-Override",
    "Access-Control-Allow-Private-Network": "true",
    "Access-Control-Max-Age": "600",
  }, "", false);
}

/** Answers `req` by the route table `routes` (the text router.ts reads). */
export function handleRequest(app: App, routes: string, req: EspRequest, res: EspResponse): void {
  const target = splitTarget(req.url || "/");
  const lower: Headers = {};
  for (const k in req.headers) lower[k.toLowerCase()] = "" + req.headers[k];
  const header = (name: string) => lower[name] || "";
  let method = (req.method || "GET").toUpperCase();
  const head = method === "HEAD";
  if (head) method = "GET";
  const match = matchRoute(routes, target.path);

  if (method === "OPTIONS") {
    preflight(res, match ? allowedMethods(match) + ", OPTIONS" : "GET, PUT, PATCH, POST, DELETE, OPTIONS");
    return;
  }

  const setup = app.mode === "setup";
  const config = app.system.config;
  // Answers of the protected routes never carry the CORS header, refusals included.
  const early = match && methodSpec(match, method);
  let cors = !(early && isGuarded(early, target.query));
  const reject = (f: Failure, extra?: Headers) => {
    // Whatever the client is still sending is read and dropped, so it gets the answer rather
    // than a reset connection. A refusal changes nothing, so any body that ends will do.
    readBody(req, 0, -1, () => sendFailure(res, f, cors, extra));
  };

  // Setup mode: a captive portal for foreign hosts, before the login check.
  if (setup) {
    const host = hostOf(header("host"));
    const own = host !== "" && app.ownHosts().indexOf(host) >= 0;
    if (!own && method === "GET") {
      readBody(req, 0, -1, () => send(res, 302, {
        "Location": "http://" + app.accessPointIp() + "/",
        "Content-Type": "text/plain",
      }, "", head));
      return;
    }
    if (!own) return reject(failure(403, "forbidden", "requests must be addressed to this device"));
  }

  if (config.authEnabled && !isAuthorized(header("authorization"), config.authUser, config.authPass)) {
    return reject(failure(401, "unauthorized", "authentication required"),
      { "WWW-Authenticate": "Basic realm=\"" + AUTH_REALM + "\"" });
  }

  const override = header("x-http-method-override").trim();
  if (override !== "" && UPLOAD_PATHS.indexOf(target.path) < 0) {
    const wanted = override.toUpperCase();
    if (req.method.toUpperCase() !== "POST") {
      return reject(failure(400, "invalidMethodOverride", "X-HTTP-Method-Override is only accepted on POST"));
    }
    if (OVERRIDABLE.indexOf(wanted) < 0) {
      return reject(failure(400, "invalidMethodOverride", "X-HTTP-Method-Override must be PUT, PATCH or DELETE"));
    }
    if (wanted === "PUT" && target.path.startsWith("/api/v1/apps/script/")) {
      return reject(failure(400, "invalidMethodOverride", "script source needs a real PUT"));
    }
    method = wanted;
  }

  if (!match) return reject(failure(404, "notFound", "unknown route"));
  const check = paramsCheck(match);
  if (check) {
    const bad = loadModule<ParamsCheck>(check)(match.params);
    if (bad) return reject(bad);
  }
  const spec = methodSpec(match, method);
  if (!spec) {
    return reject(failure(405, "methodNotAllowed", "allowed method(s): " + allowedMethods(match)));
  }
  const m = method as Method;

  const request: ApiRequest = {
    method: m as Method, path: target.path, query: target.query, header, body: undefined, raw: "",
    params: match.params,
  };

  if (setup && !spec.setup) return reject(notAllowedDuringSetup());

  const guarded = isGuarded(spec, request.query);
  cors = !guarded;
  // In setup mode writes must come from the device's own page; reads stay open so a captive
  // portal's redirected navigation still shows the setup page.
  if ((guarded || (setup && m !== "GET")) && crossSite(header("origin"), header("host"), header("sec-fetch-site"))) {
    return reject(failure(403, "forbiddenOrigin", "cross-site requests are refused on this route"));
  }

  const contentType = header("content-type");
  if ((m === "PUT" || m === "PATCH") && contentType !== "" && !isJsonType(contentType)) {
    return reject(failure(415, "unsupportedMediaType", "Content-Type must be application/json"));
  }

  const max = spec.maxBody === undefined ? JSON_BODY_MAX : spec.maxBody;
  const declared = declaredLength(header);
  if (max > 0 && declared > max) {
    return reject(failure(413, "payloadTooLarge", "request body is larger than " + max + " bytes"));
  }
  if (max > 0 && declared > SMALL_BODY && heap().freeVars < RESERVE_VARS + declared / 4) {
    return reject(failure(507, "insufficientStorage", "not enough free memory for this request body"));
  }

  readBody(req, max, declared, (raw, total, cut) => {
    if (cut || (max > 0 && total > max)) {
      const limit = max > 0 ? max : DRAIN_MAX;
      return sendFailure(res, failure(413, "payloadTooLarge", "request body is larger than " + limit + " bytes"), cors);
    }
    // A POST is not type-gated: a body it declares as something other than JSON counts as empty.
    if (m === "POST" && contentType !== "" && !isJsonType(contentType)) raw = "";
    const json = max > 0 && !spec.rawBody;
    if (!json) request.raw = raw;
    if (json && raw.trim() !== "") {
      const parsed = spec.parser ? loadModule<typeof parseJson>(spec.parser)(raw) : parseJson(raw);
      // The text is not needed beside its parsed value while the handler works on it.
      raw = "";
      if (!parsed) return sendFailure(res, failure(400, "invalidJson", "request body is not valid JSON"), cors);
      request.body = parsed.value;
    } else if (json && spec.emptyBody === "invalidJson") {
      return sendFailure(res, failure(400, "invalidJson", "request body is not valid JSON"), cors);
    }
    let out: Reply | Failure;
    try {
      out = loadModule<Handler>(spec.handler)(request, app);
    } catch (e) {
      out = failure(500, "internalError", "command failed");
    }
    if (isFailure(out)) return sendFailure(res, out, cors);
    sendReply(res, out, cors, head);
    const after = out.after;
    // Let the answer leave the socket before the restart or sleep.
    if (after) setTimeout(after, 200);
  });
}
