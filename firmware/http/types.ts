// The boundary between the HTTP transport and the handlers of each API area.
import type { Failure } from "../core/failure";
import type { App } from "../app";

export type Method = "GET" | "PUT" | "PATCH" | "POST" | "DELETE";

export interface ApiRequest {
  method: Method;
  path: string;
  /** Decoded query parameters; the last one wins. */
  query: { [name: string]: string };
  /** Header by lower-case name, or "" when absent. */
  header(name: string): string;
  /** Parsed JSON body; undefined when the body was empty or the route takes it raw. */
  body: unknown;
  /** The body as sent, for routes that read it themselves (`rawBody`). */
  raw: string;
  /** Path parameters captured by the route pattern (`{name}` segments). */
  params: { [name: string]: string };
}

export interface Reply {
  status: number;
  /** Serialised as JSON unless `text` is set. */
  json?: unknown;
  text?: string;
  contentType?: string;
  headers?: { [name: string]: string };
  /** Runs once the answer has been sent (reboot, sleep). */
  after?: () => void;
  /**
   * A body too large to hold (a backup archive): the transport sends `text` (if any), then asks
   * for the next piece whenever the connection can take more, until it returns undefined. With
   * it the answer has no Content-Length and the connection closes after it.
   */
  chunks?: () => string | undefined;
}

/** What a handler module exports: the answer to one request. */
export type Handler = (req: ApiRequest, app: App) => Reply | Failure;

/** What a params-check module exports: a refusal for bad path parameters, or null. */
export type ParamsCheck = (params: { [name: string]: string }) => Failure | null;

/** How a method of a route treats its request body. */
export interface MethodSpec {
  /** The module (firmware/<id>.mod.ts) whose default export, a Handler, answers. */
  handler: string;
  /** Allowed in setup mode. */
  setup?: boolean;
  /**
   * Reads, replaces or erases secrets or firmware: no CORS header on the answer, and cross-site
   * requests are refused. "secrets": only when the query asks for secrets=1 (GET /system).
   */
  guarded?: boolean | "secrets";
  /** What an empty body means: refused as invalidJson, or handed to the handler as undefined. */
  emptyBody?: "invalidJson" | "pass";
  /** The handler reads the body itself from `raw`: no JSON parsing, no invalidJson. */
  rawBody?: boolean;
  /** Body ceiling in bytes; 0 means the route takes no body (anything sent is discarded). */
  maxBody?: number;
  /**
   * A module whose default export parses this route's JSON body in place of JSON.parse (same
   * contract as core/json parseJson: the value, or undefined when the text is not JSON).
   */
  parser?: string;
  /**
   * The body is a multipart upload streamed to the handler module, whose default export is then
   * a MakeUpload (http/upload.ts); maxBody bounds the whole upload.
   */
  upload?: boolean;
}

export interface Route {
  /** Literal segments and `{param}` segments, e.g. "/api/v1/indicators/{id}". */
  path: string;
  methods: { [M in Method]?: MethodSpec };
  /** A module exporting a ParamsCheck, run before the method check (a bad id answers 404, not 405). */
  checkParams?: string;
}

export function ok(): Reply {
  return { status: 200, json: { ok: true } };
}

/** A 200 {ok: true} that runs `after` once it has been sent (restart, sleep). */
export function okThen(after: () => void): Reply {
  const r = ok();
  r.after = after;
  return r;
}

export function json(value: unknown, status?: number): Reply {
  return { status: status || 200, json: value };
}
