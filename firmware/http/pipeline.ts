// One request from arrival to answer: the transport rules every route shares, in the order the
// specification fixes them. Handlers only see requests that passed all of them.
import type { App } from "../app";
import type { ApiRequest, Handler, Method, MethodSpec, ParamsCheck, Reply } from "./types";
import type RunUpload from "./upload-run.mod";
import { failure, isFailure, type Failure } from "../core/failure";
import { parseJson } from "../core/json";
import { send, sendFailure, sendReply, forgetRequest, headerMap, headerOf, type Headers } from "./send";
import { matchRoute, allowedMethods, methodSpec, paramsCheck } from "./router";
import { loadModule } from "../platform/modules";
import { splitTarget } from "./query";
import { hostOf, isAuthorized, crossSite, AUTH_REALM } from "./guards";
import { heap } from "../platform/system";

/** Default ceiling of a JSON body. */
export const JSON_BODY_MAX = 8192;
/** Default ceiling of an upload: the largest the specification names (a firmware package). */
export const UPLOAD_BODY_MAX = 8388608;
/** Past this many bytes a refused body is no longer drained; the connection is just closed. */
const DRAIN_MAX = 65536;
/** A body that stops arriving for this long is given up (readBody). */
const BODY_IDLE_MS = 5000;
/** The same for a refused upload being read to its end: uploads are large, and slow links pause. */
const UPLOAD_IDLE_MS = 10000;
/** Bodies at most this large are never refused for lack of memory. */
const SMALL_BODY = 1024;
/** Headroom kept free, in interpreter variables, when a large body is taken in. */
const RESERVE_VARS = 1500;

/** Free variables an upload needs to start: its parser and sink hold a few hundred at most. */
const UPLOAD_RESERVE_VARS = 1000;

/** Paths claimed by upload handlers, which never honour a method override. */
const UPLOAD_PATHS = ["/update", "/api/v1/files", "/api/v1/audio/mp3", "/api/v1/restore"];

const OVERRIDABLE = ["PUT", "PATCH", "DELETE"];

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
 * `expected` is negative; never when it is NaN). Bytes past `expected` are no part of the body.
 * Past `drainMax` bytes (DRAIN_MAX unless given; and past `keep`), `done` runs at once with `cut`
 * set, for a refusal: the body is not complete and must not be used.
 *
 * A client that resets or half-closes the connection before the body is whole never gets `end`
 * from Espruino, nor does anything tell that it went: the connection, and all this request holds,
 * would stay for good (a few hundred variables each). So once nothing has come for `idleMs`
 * (BODY_IDLE_MS unless given), `done` runs with `stalled` set: the answer written then lets
 * Espruino find a client gone and close the connection, and tells one still there.
 */
function readBody(req: EspRequest, keep: number, expected: number,
  done: (body: string, total: number, cut: boolean, stalled?: boolean) => void, drainMax?: number, idleMs?: number): void {
  const limit = drainMax || DRAIN_MAX;
  const quietMax = idleMs || BODY_IDLE_MS;
  let body = "";
  let total = 0;
  let finished = false;
  let heard = getTime();
  // One timer, set again only when it goes off early: the data handler just notes the time.
  const check = () => {
    if (finished) return;
    const quiet = (getTime() - heard) * 1000;
    if (quiet < quietMax) {
      timer = setTimeout(check, quietMax - quiet + 10);
      return;
    }
    finished = true;
    body = "";
    done("", total, true, true);
    forgetRequest(req);
  };
  let timer = setTimeout(check, quietMax);
  req.on("data", (chunk: string) => {
    if (finished) return;
    heard = getTime();
    if (expected >= 0 && total + chunk.length > expected) chunk = chunk.substr(0, expected - total);
    total += chunk.length;
    if (total <= keep) body += chunk;
    if (total > limit && total > keep) {
      finished = true;
      clearTimeout(timer);
      done(body, total, true);
    }
  });
  req.on("end", () => {
    if (finished || !(expected < 0 || total === expected)) return;
    finished = true;
    clearTimeout(timer);
    // Handed over, not kept here as well: the caller drops it once parsed (an 8 KB body is about
    // 700 variables).
    const whole = body;
    body = "";
    done(whole, total, false);
  });
}

/**
 * Whether `need` variables are free. The quick figure counts garbage not yet collected (every
 * request leaves cycles, a response and its listeners, that only a collection frees), so a
 * collection runs before saying no.
 */
function hasFreeVars(need: number): boolean {
  return heap().freeVars >= need || process.memory().free >= need;
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

/**
 * A JSON (or raw) body taken in and handed to the route's handler, and its answer sent. A function
 * of its own, so that while the body arrives and the handler works only what they need is held,
 * not everything the checks before them looked at.
 */
function takeBody(app: App, req: EspRequest, res: EspResponse, request: ApiRequest, spec: MethodSpec, max: number,
  declared: number, contentType: string, cors: boolean, head: boolean, handlerOf: (name: string) => Handler): void {
  const m = request.method;
  // The checks are done with the map of lower-case headers; the handler, which seldom reads one,
  // looks them up in the request itself, and the map is not held while the body comes.
  request.header = headerOf(req);
  const answer = (raw: string, total: number, cut: boolean, stalled?: boolean) => {
    if (stalled) return sendFailure(res, failure(400, "badRequest", "request body is incomplete"), cors);
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
      out = handlerOf(spec.handler)(request, app);
    } catch (e) {
      out = failure(500, "internalError", "command failed");
    }
    if (isFailure(out)) return sendFailure(res, out, cors);
    sendReply(res, out, cors, head);
  };
  // Without a body there is nothing to wait for: answered at once, no idle timer is set, and no
  // frame runs between the request and its answer.
  if (declared === 0) answer("", 0, false);
  else readBody(req, max, declared, answer);
}

/**
 * Answers `req` by the route table `routes` (the text router.ts reads). `release` lets go of this
 * module (serve.mod.ts holds it between requests): an upload calls it before its body comes, so
 * that the pipeline is not held for as long as the upload takes. `handlerOf` gives a route's
 * handler by its module name (pipeline.mod.ts keeps the last one loaded).
 */
export function handleRequest(app: App, routes: string, req: EspRequest, res: EspResponse, release: () => void,
  handlerOf: (name: string) => Handler): void {
  const target = splitTarget(req.url || "/");
  const header = headerMap(req);
  let method = (req.method || "GET").toUpperCase();
  const head = method === "HEAD";
  if (head) method = "GET";
  const match = matchRoute(routes, target.path);

  if (method === "OPTIONS") {
    preflight(res, match ? allowedMethods(match) + ", OPTIONS" : "GET, PUT, PATCH, POST, DELETE, OPTIONS");
    return;
  }

  const setup = app.mode === "setup";
  // Answers of the protected routes never carry the CORS header, refusals included.
  const early = match && methodSpec(match, method);
  let cors = !(early && isGuarded(early, target.query));
  // An upload route answers its refusals once the whole upload has been read (the login check
  // among them), up to its ceiling. "soon": after DRAIN_MAX bytes at most all the same; "now": at
  // once, the rest read and dropped after the answer (Espruino keeps the connection open until
  // the declared body has come, so the answer is not lost).
  const uploadMax = early && early.upload ? early.maxBody || UPLOAD_BODY_MAX : 0;
  const reject = (f: Failure, extra?: Headers, when?: "soon" | "now") => {
    if (when === "now") {
      sendFailure(res, f, cors, extra);
      return forgetRequest(req);
    }
    // Whatever the client is still sending is read and dropped, so it gets the answer rather
    // than a reset connection. A refusal changes nothing, so any body that ends will do.
    readBody(req, 0, -1, () => sendFailure(res, f, cors, extra), when ? 0 : uploadMax, uploadMax ? UPLOAD_IDLE_MS : 0);
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

  // The login check reads the stored credentials only, not the whole configuration.
  const login = app.system.login;
  if (login !== "" && !isAuthorized(header("authorization"), login)) {
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

  const max = spec.maxBody === undefined ? (spec.upload ? UPLOAD_BODY_MAX : JSON_BODY_MAX) : spec.maxBody;
  const declared = declaredLength(header);
  if (max > 0 && declared > max) {
    return reject(failure(413, "payloadTooLarge", "request body is larger than " + max + " bytes"), undefined,
      spec.upload ? "now" : "soon");
  }
  if (spec.upload) {
    // Parts go to the sink as they come: memory does not grow with the upload, only a floor is kept.
    if (!hasFreeVars(UPLOAD_RESERVE_VARS)) {
      return reject(failure(507, "insufficientStorage", "not enough free memory for an upload"), undefined, "now");
    }
    if (isNaN(declared)) return reject(failure(400, "badRequest", "expected a multipart/form-data upload"), undefined, "now");
    let run: typeof RunUpload;
    try {
      run = loadModule<typeof RunUpload>("http/upload-run");
    } catch (e) {
      return reject(failure(500, "internalError", "command failed"), undefined, "now");
    }
    // From here the upload runner answers on its own: nothing it keeps points back into this
    // module, which is let go so that the upload does not hold it.
    release();
    return run(req, res, request, app, spec.handler, max, declared, cors);
  }
  if (max > 0 && declared > SMALL_BODY && !hasFreeVars(RESERVE_VARS + declared / 4)) {
    return reject(failure(507, "insufficientStorage", "not enough free memory for this request body"));
  }
  takeBody(app, req, res, request, spec, max, declared, contentType, cors, head, handlerOf);
}
