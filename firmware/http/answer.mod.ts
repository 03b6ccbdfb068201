// How an upload's answer is written (send.ts), a module of its own so that the upload runner
// (upload-run.mod.ts) does not hold this code while the body streams in and the route works:
// it is loaded once the answer is known.
import type { Reply } from "./types";
import { isFailure, type Failure } from "../core/failure";
import { sendFailure, sendReply } from "./send";

/** Writes `out` on `res`, with the CORS header when `cors`. */
function answer(res: EspResponse, out: Reply | Failure, cors: boolean): void {
  if (isFailure(out)) sendFailure(res, out, cors);
  else sendReply(res, out, cors, false);
}
export default answer;
