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
}

export type Handler = (req: ApiRequest, app: App) => Reply | Failure;

/** How a method of a route treats its request body. */
export interface MethodSpec {
  handler: Handler;
  /** Allowed in setup mode. */
  setup?: boolean;
  /**
   * Reads, replaces or erases secrets or firmware: no CORS header on the answer, and cross-site
   * requests are refused. A function decides per request (GET /system only with secrets=1).
   */
  guarded?: boolean | ((req: ApiRequest) => boolean);
  /** What an empty body means: refused as invalidJson, or handed to the handler as undefined. */
  emptyBody?: "invalidJson" | "pass";
  /** The handler reads the body itself from `raw`: no JSON parsing, no invalidJson. */
  rawBody?: boolean;
  /** Body ceiling in bytes; 0 means the route takes no body (anything sent is discarded). */
  maxBody?: number;
}

export interface Route {
  /** Literal segments and `{param}` segments, e.g. "/api/v1/indicators/{id}". */
  path: string;
  methods: { [M in Method]?: MethodSpec };
  /** Checked before the method, so a bad name answers 400 rather than 405. */
  checkParams?: (params: { [name: string]: string }) => Failure | null;
}

export function ok(): Reply {
  return { status: 200, json: { ok: true } };
}

export function json(value: unknown, status?: number): Reply {
  return { status: status || 200, json: value };
}
