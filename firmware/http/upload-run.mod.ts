// The upload half of the transport (upload.ts has the contract), a module of its own so that the
// request pipeline, loaded for every request, does not carry the multipart parser: it is loaded
// only when an upload route is asked for, and dropped with the upload.
//
// It reads the body through the parser (multipart.ts) into the sink the route's module makes,
// holding only the parser's few hundred bytes. The answer: sink.finish() once the body has arrived
// whole, or the first Failure (the sink's, a malformed body, more than `max` bytes) at once, after
// abort(), the rest of the body then read and dropped. A body that stops arriving (reset or
// half-closed: Espruino tells nothing) is given up after IDLE_MS: aborted, and answered 400 in
// case the client is still there.
import type { ApiRequest, Reply } from "./types";
import type { MakeUpload } from "./upload";
import type { App } from "../app";
import { failure, isFailure, type Failure } from "../core/failure";
import { loadModule } from "../platform/modules";
import { boundaryOf, Multipart } from "./multipart";
import { forgetRequest } from "./pipeline";

/** An upload that receives nothing for this long is given up (the client may be gone unseen). */
const IDLE_MS = 10000;

/**
 * Runs the upload `req` (the request of `request`) to route module `handler`. `expected` is the
 * declared body length (-1 chunked), `max` the route's ceiling. `refuse` answers a refusal known
 * before the body is read, `answer` anything after; both at once, and whatever of the body still
 * comes is read and dropped (pipeline.ts, forgetRequest).
 */
function runUpload(req: EspRequest, request: ApiRequest, app: App, handler: string, max: number, expected: number,
  refuse: (f: Failure) => void, answer: (out: Reply | Failure) => void): void {
  const boundary = boundaryOf(request.header("content-type"));
  if (!boundary) return refuse(failure(400, "badRequest", "expected a multipart/form-data upload"));
  let made: ReturnType<MakeUpload>;
  try {
    made = loadModule<MakeUpload>(handler)(request, app);
  } catch (e) {
    made = failure(500, "internalError", "command failed");
  }
  if (isFailure(made)) return refuse(made);
  const sink = made;
  const parser = new Multipart(boundary, sink);
  let total = 0;
  let open = true;
  let idle: number | undefined;
  /** When the last bytes came (getTime()). */
  let heard = getTime();
  const stop = (f: Failure | null) => {
    if (!open) return;
    open = false;
    if (idle !== undefined) clearTimeout(idle);
    try {
      sink.abort();
    } catch (e) {
      // Undoing is best effort; the answer still goes out.
    }
    if (f) answer(f);
    // The rest of the body, if it ever comes, is read without the parser and the sink.
    forgetRequest(req);
  };
  // One timer, set again only when it goes off early: the data handler just notes the time.
  const check = () => {
    const quiet = (getTime() - heard) * 1000;
    if (quiet < IDLE_MS) {
      idle = setTimeout(check, IDLE_MS - quiet + 10);
      return;
    }
    idle = undefined;
    stop(failure(400, "badRequest", "upload is incomplete"));
  };
  idle = setTimeout(check, IDLE_MS);
  req.on("data", (chunk: string) => {
    if (!open) return;
    if (expected >= 0 && total + chunk.length > expected) chunk = chunk.substr(0, expected - total);
    total += chunk.length;
    if (total > max) return stop(failure(413, "payloadTooLarge", "request body is larger than " + max + " bytes"));
    heard = getTime();
    if (chunk === "") return;
    let f: Failure | null;
    try {
      f = parser.push(chunk);
    } catch (e) {
      f = failure(500, "internalError", "command failed");
    }
    if (f) stop(f);
  });
  req.on("end", () => {
    if (!open || !(expected < 0 || total === expected)) return;
    if (!parser.complete()) return stop(failure(400, "badRequest", "upload is incomplete"));
    open = false;
    if (idle !== undefined) clearTimeout(idle);
    let out: Reply | Failure;
    try {
      out = sink.finish();
    } catch (e) {
      out = failure(500, "internalError", "command failed");
    }
    if (isFailure(out)) {
      try { sink.abort(); } catch (e) { /* best effort */ }
    }
    answer(out);
  });
  // Not raised by Espruino for a client that goes away mid-body, but by anything that does.
  req.on("close", () => stop(null));
}
export default runUpload;
