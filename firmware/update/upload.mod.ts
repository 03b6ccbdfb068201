// POST /update: a firmware package (build/package.mjs, firmware/update/README.md) taken in as it
// arrives. The refusals are decided before anything is written: from the request here, from the
// package's header by update/header, loaded for that moment. The files then go one by one into the
// slot that does not run, each written in place in Storage as its bytes come and, once whole,
// hashed where it lies; the chain of those hashes must give the header's digest. Then
// update/commit switches the record to that slot and answers; the clock restarts into the new
// release on trial, the old one still whole beside it.
//
// This is what stays loaded while the bytes stream in, so it holds as little as it can: the
// package never, a file's name and size, the hash so far, and the piece of a line in hand.
import type { App } from "../app";
import type { MakeUpload, UploadSink } from "../http/upload";
import type { Reply } from "../http/types";
import { failure, type Failure } from "../core/failure";
import { loadModule } from "../platform/modules";
import { slotPrefix } from "../platform/slot";
import { heap } from "../platform/system";
import { countListed, isFileName, listed, loadRecord, otherSlot, MANIFEST } from "./record";
import type Header from "./header.mod";
import type { Accepted } from "./header.mod";
import type End from "./commit.mod";

interface CryptoModule { SHA256(data: string): ArrayBuffer }

/** The header is a few short lines; anything longer before the blank line is no package. */
const HEAD_MAX = 1024;
/** "<name> <size>" of one file. */
const LINE_MAX = 64;
/** Free variables an update needs while it runs (measured: a few hundred), with room to spare. */
const NEED_VARS = 1500;

const HEAD = 0;
const LINE = 1;
const CONTENT = 2;
const DONE = 3;

function damaged(what: string): Failure {
  return failure(400, "wrongChip", "the package's " + what + " is damaged");
}

class Intake implements UploadSink {
  app: App;
  S: StorageModule;
  /** "a/" or "b/": the slot the package goes into, the one that does not run. */
  prefix: string;
  files: number;
  /** The part in hand is a plain form field, not the package. */
  skip: boolean;
  phase: number;
  /** The header, or the line of a file, as far as it has come. */
  buf: string;
  head: Accepted | null;
  /** Bytes of the package still to come, and files. */
  left: number;
  count: number;
  /** The file being written: its Storage name, its line, its size, how much of it is in. */
  file: string;
  line: string;
  size: number;
  off: number;
  /** The hash chain so far, 32 bytes. */
  digest: string;
  /** The staged manifest, read in place once it is whole. */
  list: string;
  /** Something is in the staging slot that an unfinished upload must erase. */
  staged: boolean;

  constructor(app: App, prefix: string) {
    this.app = app;
    this.S = require("Storage");
    this.prefix = prefix;
    this.files = 0;
    this.skip = false;
    this.phase = HEAD;
    this.buf = "";
    this.head = null;
    this.left = 0;
    this.count = 0;
    this.file = "";
    this.line = "";
    this.size = 0;
    this.off = 0;
    this.digest = "";
    this.list = "";
    this.staged = false;
  }

  begin(field: string, filename: string): Failure | null {
    // A plain form field (no file name) is no file: its value is ignored.
    this.skip = filename === "";
    if (this.skip) return null;
    if (this.files++) return failure(400, "badRequest", "more than one file: an update is one package");
    if (field !== "firmware") return failure(400, "badRequest", "the package goes in the form field firmware");
    return null;
  }

  data(chunk: string): Failure | null {
    if (this.skip) return null;
    if (this.phase !== HEAD) return body(this, chunk, 0);
    // The first piece as it is (no copy); later ones, while the header has not ended, added on.
    const text = this.buf === "" ? chunk : this.buf + chunk;
    this.buf = "";
    const end = text.indexOf("\n\n");
    if (end < 0 && text.length <= HEAD_MAX) {
      this.buf = text;
      return null;
    }
    const h = loadModule<typeof Header>("update/header")(this.app, text, end < 0 ? HEAD_MAX : end + 1, this.prefix);
    if ("status" in h) return h;
    // The header alone, as long as the limit: no package.
    if (end < 0) return damaged("header");
    this.staged = true;
    this.head = h;
    this.digest = h.digest;
    h.digest = "";
    this.left = h.length;
    this.count = h.files;
    this.phase = LINE;
    return end + 2 < text.length ? body(this, text, end + 2) : null;
  }

  end(): Failure | null {
    if (this.skip || this.phase === DONE) return null;
    if (this.phase === HEAD) return failure(400, "wrongChip", "not a pixloop firmware package");
    return failure(400, "badRequest", "upload is incomplete: the package ended early");
  }

  finish(): Reply | Failure {
    if (!this.files) return failure(400, "badRequest", "no file: the package goes in the form field firmware");
    if (!this.head || this.phase !== DONE) return failure(400, "badRequest", "upload is incomplete");
    const out = loadModule<typeof End>("update/commit").commit(this.app, this.prefix, this.head, this.digest, this.list);
    // Switched, or (a record that would not be written) the slot already erased.
    if (!("code" in out) || out.status === 500) this.staged = false;
    return out;
  }

  abort(): void {
    if (!this.staged) return;
    this.staged = false;
    this.list = "";
    loadModule<typeof End>("update/commit").drop(this.app, this.prefix);
  }
}

/** Package bytes after the header, from `from` in `s`: file lines and file contents. */
function body(k: Intake, s: string, from: number): Failure | null {
  if (k.phase === DONE || s.length - from > k.left) return failure(400, "badRequest", "the upload holds more than the package's header says");
  k.left -= s.length - from;
  let i = from;
  while (i < s.length) {
    if (k.phase === DONE) return failure(400, "badRequest", "the upload holds more than the package's files");
    if (k.phase === LINE) {
      let nl = s.indexOf("\n", i);
      if (nl < 0) nl = s.length;
      k.buf += s.substr(i, nl - i);
      if (k.buf.length > LINE_MAX) return damaged("file list");
      if (nl === s.length) break;
      i = nl + 1;
      const f = open(k, k.buf);
      k.buf = "";
      if (f) return f;
    } else {
      const take = Math.min(k.size - k.off, s.length - i);
      const piece = i === 0 && take === s.length ? s : s.substr(i, take);
      const ok = k.off === 0 ? k.S.write(k.file, piece, 0, k.size) : k.S.write(k.file, piece, k.off);
      if (!ok) return failure(500, "internalError", "firmware update failed (bad image or storage full)");
      k.off += take;
      i += take;
      if (k.off === k.size) {
        const f = close(k);
        if (f) return f;
      }
    }
  }
  return null;
}

/** The line "<name> <size>" that starts a file. */
function open(k: Intake, line: string): Failure | null {
  const sp = line.indexOf(" ");
  const name = line.substr(0, sp);
  const size = sp > 0 && /^[0-9]+$/.test(line.substr(sp + 1)) ? parseInt(line.substr(sp + 1), 10) : 0;
  if (!isFileName(name) || size < 1 || size > (k.head as Accepted).length) return damaged("file list");
  // The manifest comes first, so that whatever lands in the slot is listed in it; as many files
  // as it lists, none twice (the slot was emptied), so that every one it lists arrives.
  if (k.list === "" ? name !== MANIFEST : !listed(k.list, name)) {
    return failure(400, "wrongChip", "the package holds a file its manifest does not list (" + name + ")");
  }
  k.file = k.prefix + name;
  if (k.S.read(k.file, 0, 1) !== undefined) return failure(400, "wrongChip", "the package holds " + name + " twice");
  k.line = line + "\n";
  k.size = size;
  k.off = 0;
  k.phase = CONTENT;
  return null;
}

/** A file is whole: hashed where it lies, into the chain. */
function close(k: Intake): Failure | null {
  const stored = k.S.read(k.file);
  if (stored === undefined || stored.length !== k.size) return failure(500, "internalError", "firmware update failed (bad image or storage full)");
  const sha = (require as unknown as (name: string) => CryptoModule)("crypto").SHA256;
  k.digest = E.toString(new Uint8Array(sha(k.digest + k.line + E.toString(new Uint8Array(sha(stored))))));
  if (k.list === "") {
    // Every line a file name, one for each file of the package.
    if (countListed(stored) !== (k.head as Accepted).files) return damaged("manifest");
    k.list = stored;
  }
  k.count--;
  k.phase = k.count > 0 ? LINE : DONE;
  if (k.phase === DONE && k.left !== 0) return failure(400, "badRequest", "the upload holds more than the package's files");
  return null;
}

/** Refusals decided from the request alone (the transport has done setup mode, origin and size). */
const makeUpload: MakeUpload = (req, app) => {
  const running = slotPrefix();
  if (running === "") return failure(503, "unavailable", "this clock was flashed without update slots: run npm run flash once");
  if (app.update && app.update.state === "applying") return failure(409, "updateBusy", "an update is being applied");
  const s = loadRecord().state;
  if (s.run !== s.good) {
    return failure(409, "updateBusy", "release " + s.release + " is still on trial; try again once it has confirmed itself");
  }
  // The figure without a collection counts garbage too; only a real shortage is refused.
  if (heap().freeVars < NEED_VARS && (process.memory(), heap().freeVars < NEED_VARS)) {
    return failure(413, "insufficientMemory", "not enough free memory to take an update");
  }
  return new Intake(app, otherSlot(running.charAt(0)) + "/");
};
export default makeUpload;
