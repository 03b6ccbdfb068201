// POST /api/v1/restore: a backup archive (a store-only ZIP in the upload's `file` field) applied
// entry by entry. manifest.json must come first and name this product and layout, or nothing is
// applied. A file is checked as POST /api/v1/files checks it (its name, its first bytes, a text
// folder's whole text), goes into the files API's temporary segments as it arrives, and is
// published under its name only once its CRC-32 has checked out, so no damaged or half-received
// file is ever seen. Each configuration entry goes through the handler of the route that writes
// it (PUT /api/v1/system, PATCH /api/v1/settings, PUT /api/v1/apps/order), so it is checked as a
// request would be and takes effect the same way (credentials included: the next request must use
// the restored ones). What cannot be applied is skipped with a warning, in archive order; the
// answer counts what was.
//
// In two parts, so that the request never holds both: the reader (restore-stream.mod.ts), loaded
// while the archive arrives, stores each configuration entry as it is in Storage; once the archive
// has ended it is dropped, and the entries are applied one after another (restore-apply.mod.ts).
// An upload cut short applies none of them.
import type { MakeUpload, UploadSink } from "../http/upload";
import type { Reply } from "../http/types";
import { json } from "../http/types";
import type { App } from "../app";
import { failure } from "../core/failure";
import type { Failure } from "../core/failure";
import { loadModule } from "../platform/modules";
import { newState, warn } from "./restore-state";
import type { ArchiveReader, RestoreState } from "./restore-state";
import type MakeStream from "./restore-stream.mod";
import type ApplyAll from "./restore-apply.mod";

/**
 * Free interpreter variables a restore needs once its module is in: a configuration entry applied
 * through its route (the system configuration the largest) peaks at about 1,000 above that.
 */
const RESERVE_VARS = 1200;

class Restore implements UploadSink {
  private app: App;
  private st: RestoreState;
  /** The reader, until the archive has ended. */
  private stream: ArchiveReader | null;
  /** A file part was seen: the archive. */
  private seen: boolean;
  /** The current part is the archive. */
  private reading: boolean;

  constructor(app: App) {
    this.app = app;
    this.st = newState();
    this.stream = loadModule<typeof MakeStream>("backup/restore-stream")(this.st);
    this.seen = false;
    this.reading = false;
  }

  begin(field: string): Failure | null {
    this.reading = false;
    if (field !== "file") return null;
    if (this.seen) {
      warn(this.st, "the upload holds more than one file; only the first was read");
      return null;
    }
    this.seen = true;
    this.reading = true;
    return null;
  }

  data(chunk: string): Failure | null {
    if (this.reading) (this.stream as ArchiveReader).feed(chunk);
    return null;
  }

  end(): Failure | null {
    if (this.reading) this.conclude();
    return null;
  }

  finish(): Reply | Failure {
    if (!this.seen) return failure(400, "badRequest", "no backup file received");
    if (this.reading) this.conclude();
    // The body has arrived whole: only now does the configuration change.
    if (this.st.queue) loadModule<typeof ApplyAll>("backup/restore-apply")(this.st, this.app);
    const st = this.st;
    const body: { [key: string]: unknown } = { ok: !st.rejected };
    if (st.rejected) body.error = st.rejected;
    body.applied = st.applied;
    if (st.unlisted) st.warnings.push("and " + st.unlisted + " more");
    body.warnings = st.warnings;
    if (st.rejected) return json(body, 400);
    if (st.unsaved) {
      return failure(507, "insufficientStorage", "restored, but " + st.unsaved + " of its entries could not be " +
        "stored: free storage and restore again before rebooting");
    }
    return json(body);
  }

  abort(): void {
    if (this.stream) this.stream.abort();
    this.stream = null;
    // An archive cut short changes no configuration: what it stored is dropped unapplied (files
    // already published stay, as the files route's do).
    const Storage = require("Storage");
    for (const rec of this.st.queue.split(";")) if (rec) Storage.erase(this.st.stash + rec.split(",")[3]);
    this.st.queue = "";
  }

  /** The archive's part ended: its reader is done, and dropped before anything is applied. */
  private conclude(): void {
    this.reading = false;
    if (this.stream) this.stream.end();
    this.stream = null;
  }
}

const makeRestore: MakeUpload = (req, app) => {
  // Refused before anything is applied, rather than running out halfway through the archive. With
  // a collection first (once a restore): modules just dropped are cycles only a collection frees.
  if (process.memory().free < RESERVE_VARS) return failure(507, "insufficientStorage", "not enough free memory for a restore");
  return new Restore(app);
};
export default makeRestore;
