// The upload half of the transport (upload.ts has the contract), a module of its own so that the
// request pipeline, loaded for every request, does not carry the multipart parser: it is loaded
// only when an upload route is asked for, and dropped with the upload.
//
// It answers on its own (send.ts, through answer.mod.ts, loaded once the answer is known) and
// keeps nothing of the pipeline, which lets go of itself once it has handed over (serve.mod.ts): a
// long upload holds this module, the parser and the route's sink, not the parsing, guards and
// routing of every request. The route's module is loaded just after the hand-over, never beside
// the pipeline.
//
// It reads the body through the parser (multipart.mod.ts, loaded with the sink and let go once
// the body has ended) into the sink the route's module makes, holding only the parser's few
// hundred bytes. The answer: sink.finish() once the body has arrived
// whole, or the first Failure (the sink's, a malformed body, more than `max` bytes) at once, after
// abort(), the rest of the body then read and dropped. A body that stops arriving (reset or
// half-closed: Espruino tells nothing) is given up after IDLE_MS: aborted, and answered 400 in
// case the client is still there.
import type { ApiRequest, Reply } from "./types";
import type { MakeUpload, UploadSink } from "./upload";
import type { App } from "../app";
import { failure, isFailure, type Failure } from "../core/failure";
import { loadModule } from "../platform/modules";
import { boundaryOf } from "./multipart";
import type { Multipart } from "./multipart";
import type MultipartModule from "./multipart.mod";
import { forgetRequest, headerOf } from "./send";
import type Answer from "./answer.mod";

/** An upload that receives nothing for this long is given up (the client may be gone unseen). */
const IDLE_MS = 10000;

/**
 * Runs the upload `req` (the request of `request`) to route module `handler`, and answers it on
 * `res` (with the CORS header when `cors`). `expected` is the declared body length (-1 chunked),
 * `max` the route's ceiling. A refusal known before the body is read is answered at once, and
 * whatever of the body still comes is read and dropped (send.ts, forgetRequest); so is anything
 * answered before the body has ended. Nothing here points back into the request pipeline, which
 * is not held while the upload runs.
 */
function runUpload(req: EspRequest, res: EspResponse, request: ApiRequest, app: App, handler: string, max: number,
  expected: number, cors: boolean): void {
  // The pipeline's header reader would hold the pipeline: this module reads the headers itself.
  request.header = headerOf(req);
  // The code that writes answers is loaded only when there is one to write.
  const answer = (out: Reply | Failure) => loadModule<typeof Answer>("http/answer")(res, out, cors);
  const refuse = (f: Failure) => {
    answer(f);
    forgetRequest(req);
  };
  const boundary = boundaryOf(request.header("content-type"));
  if (!boundary) return refuse(failure(400, "badRequest", "expected a multipart/form-data upload"));
  let sink: UploadSink | null = null;
  let parser: Multipart | null = null;
  let total = 0;
  let open = true;
  let idle: number | undefined;
  /** When the last bytes came (getTime()). */
  let heard = getTime();
  /**
   * Makes the route's sink, once: false (answered, the rest of the body dropped) when the route
   * refuses. Run just after the pipeline has handed over (or by the first bytes, whichever comes
   * first), so that the route's module is never loaded beside the pipeline.
   */
  const make = (): boolean => {
    if (!open) return false;
    if (sink) return true;
    let made: ReturnType<MakeUpload>;
    try {
      made = loadModule<MakeUpload>(handler)(request, app);
      // What the sink needs of the request it has taken: the request is not held beside it.
      request = undefined as unknown as ApiRequest;
    } catch (e) {
      made = failure(500, "internalError", "command failed");
    }
    if (isFailure(made)) {
      open = false;
      if (idle !== undefined) clearTimeout(idle);
      refuse(made);
      return false;
    }
    sink = made;
    try {
      const Parser = loadModule<typeof MultipartModule>("http/multipart");
      parser = new Parser(boundary, made);
    } catch (e) {
      stop(failure(500, "internalError", "command failed"));
      return false;
    }
    return true;
  };
  const stop = (f: Failure | null) => {
    if (!open) return;
    open = false;
    if (idle !== undefined) clearTimeout(idle);
    try {
      if (sink) sink.abort();
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
  setTimeout(make, 0);
  req.on("data", (chunk: string) => {
    if (!make()) return;
    if (expected >= 0 && total + chunk.length > expected) chunk = chunk.substr(0, expected - total);
    total += chunk.length;
    if (total > max) return stop(failure(413, "payloadTooLarge", "request body is larger than " + max + " bytes"));
    heard = getTime();
    if (chunk === "") return;
    let f: Failure | null;
    try {
      f = (parser as Multipart).push(chunk);
    } catch (e) {
      f = failure(500, "internalError", "command failed");
    }
    if (f) stop(f);
  });
  req.on("end", () => {
    if (!make() || !(expected < 0 || total === expected)) return;
    if (!(parser as Multipart).complete()) return stop(failure(400, "badRequest", "upload is incomplete"));
    open = false;
    // Its work is done: not held while the answer is made (a restore applies its entries then).
    parser = null;
    if (idle !== undefined) clearTimeout(idle);
    const done = sink as UploadSink;
    let out: Reply | Failure;
    try {
      out = done.finish();
    } catch (e) {
      out = failure(500, "internalError", "command failed");
    }
    if (isFailure(out)) {
      try { done.abort(); } catch (e) { /* best effort */ }
    }
    answer(out);
  });
  // Not raised by Espruino for a client that goes away mid-body, but by anything that does.
  req.on("close", () => stop(null));
}
export default runUpload;
