// The end of POST /update (firmware/update/README.md), loaded once the package is in and dropped
// with the request: `commit` checks the digest and the slot, switches the record to the new slot
// and answers (the clock restarts after the answer); `drop` erases a slot an upload did not finish.
import type { App } from "../app";
import type { Reply } from "../http/types";
import { failure, type Failure } from "../core/failure";
import { log } from "../logs/log";
import { eraseSlot, listed, loadRecord, otherSlot, saveRecord, BUNDLE } from "./record";
import type { Accepted } from "./header.mod";

function hex(bytes: string): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += (256 + bytes.charCodeAt(i)).toString(16).substr(1);
  return out;
}

/** `digest`: the hash chain over everything that came; `list`: the staged manifest. */
function commit(app: App, prefix: string, h: Accepted, digest: string, list: string): Reply | Failure {
  if (hex(digest) !== h.sha256) return failure(400, "badRequest", "the package is damaged: its SHA-256 does not match its files");
  // Every file the manifest lists came (as many as it lists, each listed, none twice): the bundle too?
  if (!listed(list, BUNDLE)) return failure(400, "wrongChip", "the package lacks " + BUNDLE);
  const S = require("Storage");
  const r = loadRecord();
  const slot = prefix.charAt(0);
  const s = r.state;
  s.run = slot;
  s.good = otherSlot(slot);
  s.tries = 0;
  s.release = h.version;
  s.error = "";
  s.wait = h.wait;
  if (!saveRecord(r, s)) {
    eraseSlot(S, prefix);
    app.update = { state: "failed", release: h.version, error: "the slot record could not be written" };
    return failure(500, "internalError", "firmware update failed (bad image or storage full)");
  }
  log("update: release " + h.version + " is in slot " + slot + "; restarting into it");
  return { status: 200, json: { ok: true, applying: true }, after: () => app.restart() };
}

/** An upload that did not finish: what it staged goes, and the clock is as it was. */
function drop(app: App, prefix: string): void {
  eraseSlot(require("Storage"), prefix);
  app.update = undefined;
}

export interface Commit {
  commit: typeof commit;
  drop: typeof drop;
}

const end: Commit = { commit, drop };
export default end;
