// The contract between the transport and the routes that take uploads (POST /api/v1/files,
// POST /api/v1/restore, POST /update): a multipart/form-data body is never held whole. The
// transport parses it as it arrives and hands each part's bytes, in order, to a sink the route's
// handler module makes; whatever the route keeps goes to Storage as it comes.
//
// A route whose MethodSpec has `upload: true` names a handler module whose default export is a
// MakeUpload. The transport:
//   1. runs its usual checks (method, setup mode, cross-site) and, for the login, reads the whole
//      body before answering 401 (nothing is stored: no sink is made);
//   2. hands the request over to its upload runner (http/upload-run), which lets go of the request
//      pipeline and then calls the MakeUpload, before any of the body is read; a Failure answers at
//      once (the rest of the body drained, up to a bound, then the connection closed);
//   3. for each part: begin(field, filename, contentType), data(chunk) for its bytes (chunks of a
//      few hundred bytes, as they arrive, boundaries removed), end(); any of them may answer a
//      Failure, which stops the upload (the rest is drained) and answers it after abort();
//   4. once the body has arrived whole, finish() gives the answer;
//   5. if the body is cut short (the connection closes first, or it is not valid multipart),
//      abort() undoes what was not published, and the answer is 400 badRequest when the
//      connection is still open.
import type { ApiRequest, Reply } from "./types";
import type { Failure } from "../core/failure";
import type { App } from "../app";

export interface UploadSink {
  begin(field: string, filename: string, contentType: string): Failure | null;
  data(chunk: string): Failure | null;
  end(): Failure | null;
  finish(): Reply | Failure;
  abort(): void;
}

export type MakeUpload = (req: ApiRequest, app: App) => UploadSink | Failure;
