// Answers as the transport writes them, shared by the request pipeline and the upload runner
// (each module bundles its own copy, so neither holds the other's code while it answers).
import type { Reply } from "./types";
import { errorBody, type Failure } from "../core/failure";
import { toJson } from "../core/json";

export type Headers = { [name: string]: string };

export function send(res: EspResponse, status: number, headers: Headers, body: string, head: boolean): void {
  headers["Connection"] = "close";
  // A HEAD answer announces the length the GET body would have.
  headers["Content-Length"] = "" + body.length;
  res.writeHead(status, headers);
  res.end(head ? "" : body);
}

export function sendFailure(res: EspResponse, f: Failure, cors: boolean, extra?: Headers): void {
  const headers: Headers = extra || {};
  headers["Content-Type"] = "application/json";
  if (cors) headers["Access-Control-Allow-Origin"] = "*";
  if (f.retryAfter) headers["Retry-After"] = "" + f.retryAfter;
  send(res, f.status, headers, toJson(errorBody(f)), false);
}

/**
 * A streamed answer: the head and `first`, then a piece of `next` each time Espruino has sent
 * everything written so far (its `drain`), until `next` gives undefined. There is no
 * Content-Length: the end of the body is the end of the connection. `done` runs once it has ended.
 */
function sendStream(res: EspResponse, status: number, headers: Headers, first: string,
  next: () => string | undefined, done?: () => void): void {
  headers["Connection"] = "close";
  res.writeHead(status, headers);
  let over = false;
  const more = () => {
    if (over) return;
    let piece: string | undefined = "";
    // An empty write sends nothing, so no drain would follow it.
    while (piece === "") {
      try {
        piece = next();
      } catch (e) {
        piece = undefined;
      }
    }
    if (piece === undefined) {
      over = true;
      res.end();
      if (done) done();
      return;
    }
    res.write(piece);
  };
  res.on("drain", more);
  // A client gone: nothing more is asked for.
  res.on("close", () => { over = true; });
  // The head alone is written too, and its drain asks for the first piece.
  if (first !== "") res.write(first);
  else more();
}

export function sendReply(res: EspResponse, reply: Reply, cors: boolean, head: boolean): void {
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
  const after = reply.after;
  // Let the answer leave the socket before the restart or sleep.
  const later = after ? () => { setTimeout(after, 200); } : undefined;
  if (reply.chunks) {
    if (!headers["Content-Type"]) headers["Content-Type"] = reply.contentType || "application/octet-stream";
    return sendStream(res, reply.status, headers, head ? "" : body, head ? () => undefined : reply.chunks, later);
  }
  send(res, reply.status, headers, body, head);
  if (later) later();
}

/**
 * Lets go of a request whose answer has gone out but whose body may still come, maybe never (a
 * client gone unseen, or stalled): Espruino keeps such a connection open until the declared body
 * has arrived. Without the request's own listeners it holds only Espruino's objects (about 45
 * variables, measured) rather than everything the listeners' scopes hold (about 700). Whatever
 * still comes goes to a builtin, which holds no scope: with no `data` listener at all Espruino
 * would keep the bytes.
 */
export function forgetRequest(req: EspRequest): void {
  const r = req as unknown as { removeAllListeners?: (ev: string) => void };
  if (!r.removeAllListeners) return;
  r.removeAllListeners("data");
  r.removeAllListeners("end");
  r.removeAllListeners("close");
  req.on("data", Math.abs as unknown as (chunk: string) => void);
}

/**
 * The request's header `name` (lower case), or "" when absent: the headers by lower-case name,
 * made once, for the pipeline's many lookups.
 */
export function headerMap(req: EspRequest): (name: string) => string {
  const lower: Headers = {};
  for (const k in req.headers) lower[k.toLowerCase()] = "" + req.headers[k];
  return (name: string) => lower[name] || "";
}

/**
 * The same, looked up in the request's own headers (whose names keep the client's case) at each
 * call: slower, but it holds no copy of them for as long as the request lasts (an upload).
 */
export function headerOf(req: EspRequest): (name: string) => string {
  return (name: string) => {
    const h = req.headers;
    for (const k in h) if (k.length === name.length && k.toLowerCase() === name) return "" + h[k];
    return "";
  };
}
