// POST /update: a firmware package (build/package.mjs, firmware/update/README.md) taken in as it
// arrives. Every refusal is decided from the request and the package's header, before anything is
// written. The files then go one by one into the slot that does not run, each written in place in
// Storage as its bytes come and, once whole, hashed where it lies; the chain of those hashes must
// give the header's digest. Only then does the record switch to that slot, the answer go out, and
// the clock restart: into the new release on trial, with the old one still whole beside it.
import type { App } from "../app";
import type { MakeUpload, UploadSink } from "../http/upload";
import type { Reply } from "../http/types";
import { failure, type Failure } from "../core/failure";
import { findText } from "../core/text";
import { heap } from "../platform/system";
import { slotPrefix } from "../platform/slot";
import { log } from "../logs/log";
import { countListed, eachListed, eraseSlot, isFileName, listed, openRecord, otherSlot, BUNDLE, MANIFEST } from "./record";

interface CryptoModule { SHA256(data: string): ArrayBuffer }
interface StorageStats { freeBytes: number; trashBytes?: number }
type Storage = StorageModule & { getStats(): StorageStats };

/** First line of every package: the format and its revision. */
const MAGIC = "pixloop-update 1";
const PRODUCT = "pixloop";
/** The largest package the specification allows. */
const PACKAGE_MAX = 8388608;
/** The header is a few short lines; anything longer before the blank line is no package. */
const HEAD_MAX = 1024;
/** "<name> <size>" of one file. */
const LINE_MAX = 64;
/** What Storage spends on a file besides its bytes: a 32-byte header, and padding to 4 bytes. */
const FILE_OVERHEAD = 35;
/** Free variables an update needs while it runs (measured: a few hundred), with room to spare. */
const NEED_VARS = 1500;
/** Storage left free for what the clock writes while it runs (settings, records, logs). */
const STORAGE_RESERVE = 16384;

const HEAD = 0;
const LINE = 1;
const CONTENT = 2;
const DONE = 3;

function bad(message: string): Failure {
  return failure(400, "badRequest", message);
}

function wrongChip(message: string): Failure {
  return failure(400, "wrongChip", message);
}

function flashFailed(): Failure {
  return failure(500, "internalError", "firmware update failed (bad image or storage full)");
}

/** Whether `a` is a later version than `b` (dotted numbers); null when `a` is not one. */
function isNewer(a: string, b: string): boolean | null {
  if (!/^[0-9]+[0-9.]*$/.test(a) || a.charAt(a.length - 1) === "." || a.indexOf("..") >= 0) return null;
  const x = a.split(".");
  const y = b.split(".");
  for (let i = 0; i < x.length || i < y.length; i++) {
    const p = i < x.length ? parseInt(x[i], 10) : 0;
    const q = i < y.length ? parseInt(y[i], 10) || 0 : 0;
    if (p !== q) return p > q;
  }
  return false;
}

/** Bytes Storage holds for the slot behind `prefix`. */
function slotBytes(S: Storage, prefix: string): number {
  const list = S.read(prefix + MANIFEST);
  if (list === undefined) return 0;
  let total = list.length + FILE_OVERHEAD;
  eachListed(list, (name) => {
    const f = S.read(prefix + name);
    if (f !== undefined) total += f.length + FILE_OVERHEAD;
  });
  return total;
}

function hex(bytes: string): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += (256 + bytes.charCodeAt(i)).toString(16).substr(1);
  return out;
}

interface Header { version: string; files: number; length: number; sha256: string; signed: string; bytes: number }

/** The header's fields checked against this clock, or the refusal. */
function readHeader(app: App, text: string): Header | Failure {
  const lines = text.split("\n");
  if (lines[0] !== MAGIC) {
    if (text.charCodeAt(0) === 0xe9) return wrongChip("this is an image for a first flash over USB (esptool), not an update");
    return wrongChip("not a pixloop firmware package");
  }
  const f: { [key: string]: string } = {};
  for (let i = 1; i < lines.length; i++) {
    const sp = lines[i].indexOf(" ");
    if (sp > 0) f[lines[i].substr(0, sp)] = lines[i].substr(sp + 1);
  }
  const board = app.board;
  if (f.product !== PRODUCT) return wrongChip("a firmware package of another product (" + f.product + ")");
  if (f.chip !== board.soc) return wrongChip("built for the " + f.chip + " chip; this clock is an " + board.soc);
  if (f.psram !== board.fitted.psram) {
    return wrongChip("built for " + f.psram + " PSRAM; this clock has " + board.fitted.psram + " (its update file is " + board.updateImage + ")");
  }
  if (f.board !== board.id) return wrongChip("built for the " + f.board + " board; this clock takes " + board.updateImage);
  const files = /^[0-9]+$/.test(f.files || "") ? parseInt(f.files, 10) : 0;
  const length = /^[0-9]+$/.test(f.length || "") ? parseInt(f.length, 10) : -1;
  const sha = f.sha256 || "";
  const at = findText(text, "\nsha256 ");
  if (files < 2 || length < 0 || sha.length !== 64 || !/^[0-9a-f]+$/.test(sha) || at < 0) {
    return wrongChip("the package's header is damaged");
  }
  const newer = isNewer(f.version || "", app.version);
  if (newer === null) return wrongChip("the package's version is not one (" + f.version + ")");
  // The blank line that ends the header is part of the package too.
  const bytes = text.length + 1 + length;
  if (bytes > PACKAGE_MAX) return failure(413, "payloadTooLarge", "a firmware package is at most " + PACKAGE_MAX + " bytes");
  if (!newer) return failure(409, "notNewer", "release " + f.version + " is not newer than the running " + app.version);
  return { version: f.version, files, length, sha256: sha, signed: text.substr(0, at + 1), bytes };
}

class Intake implements UploadSink {
  private S: Storage;
  private crypto: CryptoModule;
  /** "a/" or "b/": the slot the package goes into, the one that does not run. */
  private prefix: string;
  private parts: number;
  /** The part in hand is a plain form field, not the package. */
  private skip: boolean;
  private phase: number;
  private buf: string;
  private head: Header | null;
  /** Bytes of the package body still to come. */
  private left: number;
  /** Files still to come. */
  private count: number;
  private file: string;
  private line: string;
  private size: number;
  private off: number;
  /** The hash chain so far, 32 bytes. */
  private digest: string;
  /** The staged manifest, read in place once it is whole. */
  private list: string;
  /** The staging slot has been touched: an interrupted upload erases it again. */
  private touched: boolean;
  private switched: boolean;
  /** How long the new release must run before it may confirm itself (the header's `wait`, ms). */
  private wait: number;

  constructor(private app: App, running: string) {
    this.S = require("Storage") as Storage;
    this.crypto = (require as unknown as (name: string) => CryptoModule)("crypto");
    this.prefix = otherSlot(running) + "/";
    this.parts = 0;
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
    this.touched = false;
    this.switched = false;
    this.wait = 0;
  }

  begin(field: string, filename: string): Failure | null {
    // A plain form field (no file name) is no file: its value is ignored.
    this.skip = filename === "";
    if (this.skip) return null;
    if (this.parts++) return bad("more than one file: an update is one package");
    if (field !== "firmware") return bad("the package goes in the form field firmware");
    return null;
  }

  data(chunk: string): Failure | null {
    if (this.skip) return null;
    if (this.phase !== HEAD) return this.body(chunk);
    this.buf += chunk;
    const end = findText(this.buf, "\n\n");
    if (end < 0 && this.buf.length > HEAD_MAX) {
      const h = readHeader(this.app, this.buf.substr(0, HEAD_MAX));
      return "status" in h ? h : wrongChip("the package's header is damaged");
    }
    if (end < 0) return null;
    const h = readHeader(this.app, this.buf.substr(0, end + 1));
    if ("status" in h) return h;
    const rest = this.buf.substr(end + 2);
    this.buf = "";
    const refused = this.prepare(h);
    return refused || (rest === "" ? null : this.body(rest));
  }

  end(): Failure | null {
    if (this.skip || this.phase === DONE) return null;
    if (this.phase === HEAD) return wrongChip("not a pixloop firmware package");
    return bad("upload is incomplete: the package ended early");
  }

  finish(): Reply | Failure {
    const h = this.head;
    if (!this.parts) return bad("no file: the package goes in the form field firmware");
    if (!h || this.phase !== DONE) return bad("upload is incomplete");
    if (hex(this.digest) !== h.sha256) return bad("the package is damaged: its SHA-256 does not match its files");
    const S = this.S;
    const prefix = this.prefix;
    let missing = "";
    eachListed(this.list, (name) => {
      if (!missing && S.read(prefix + name, 0, 1) === undefined) missing = name;
    });
    if (missing || !listed(this.list, BUNDLE)) return wrongChip("the package lacks " + (missing || BUNDLE));
    const opened = openRecord();
    const s = opened.state;
    const running = otherSlot(prefix.charAt(0));
    s.run = prefix.charAt(0);
    s.good = running;
    s.tries = 0;
    s.release = h.version;
    s.error = "";
    s.wait = this.wait;
    if (!opened.record.save(s)) {
      eraseSlot(S, prefix);
      this.touched = false;
      this.switched = true;
      this.app.update = { state: "failed", release: h.version, error: "the slot record could not be written" };
      return flashFailed();
    }
    this.switched = true;
    log("update: release " + h.version + " is in slot " + s.run + "; restarting into it");
    const app = this.app;
    return { status: 200, json: { ok: true, applying: true }, after: () => app.restart() };
  }

  abort(): void {
    if (this.switched) return;
    if (this.touched) eraseSlot(this.S, this.prefix);
    this.touched = false;
    this.app.update = undefined;
  }

  /**
   * The header passed: the room is checked, the stale slot goes, the digest starts. Null, or the
   * last refusal. New files go where Storage has never been written since it was last compacted;
   * what erased files hold comes back only when the boot stage compacts (firmware/update/README.md),
   * never while the firmware runs (compacting moves the files its code runs from).
   */
  private prepare(h: Header): Failure | null {
    const S = this.S;
    const stats = S.getStats();
    const need = h.length + h.files * FILE_OVERHEAD + STORAGE_RESERVE;
    if (need > stats.freeBytes) {
      const reclaim = (stats.trashBytes || 0) + slotBytes(S, this.prefix);
      return failure(409, "insufficientStorage", "the package needs " + need + " bytes of free Storage and " + stats.freeBytes +
        " are free" + (stats.freeBytes + reclaim >= need ? "; " + reclaim + " more come back when the clock restarts" +
        " (POST /api/v1/device/reboot), then try again" : ""));
    }
    this.wait = this.waitOf(h.signed);
    this.head = h;
    this.left = h.length;
    this.count = h.files;
    this.app.update = { state: "applying", release: h.version, error: "" };
    log("update: taking release " + h.version + " into slot " + this.prefix.charAt(0));
    this.touched = true;
    // Empty after every start (the boot stage sees to it); not if an update was cut off since.
    eraseSlot(S, this.prefix);
    this.digest = E.toString(new Uint8Array(this.crypto.SHA256(h.signed)));
    this.phase = LINE;
    return null;
  }

  /** The header's `wait` line, if any, bounded to 1 s .. 10 min. */
  private waitOf(signed: string): number {
    const at = findText(signed, "\nwait ");
    if (at < 0) return 0;
    const v = parseInt(signed.substr(at + 6, 8), 10);
    return isNaN(v) ? 0 : v < 1000 ? 1000 : v > 600000 ? 600000 : v;
  }

  private body(s: string): Failure | null {
    if (this.phase === DONE || s.length > this.left) return bad("the upload holds more than the package's header says");
    this.left -= s.length;
    let i = 0;
    while (i < s.length) {
      if (this.phase === DONE) return bad("the upload holds more than the package's files");
      if (this.phase === LINE) {
        const nl = s.indexOf("\n", i);
        const end = nl < 0 ? s.length : nl;
        this.buf += s.substr(i, end - i);
        if (this.buf.length > LINE_MAX) return wrongChip("the package's file list is damaged");
        i = end + 1;
        if (nl < 0) break;
        const line = this.buf;
        this.buf = "";
        const f = this.open(line);
        if (f) return f;
      } else {
        const take = Math.min(this.size - this.off, s.length - i);
        const piece = i === 0 && take === s.length ? s : s.substr(i, take);
        const ok = this.off === 0 ? this.S.write(this.file, piece, 0, this.size) : this.S.write(this.file, piece, this.off);
        if (!ok) return flashFailed();
        this.off += take;
        i += take;
        if (this.off === this.size) {
          const f = this.close();
          if (f) return f;
        }
      }
    }
    return null;
  }

  /** The line "<name> <size>" that starts a file. */
  private open(line: string): Failure | null {
    const sp = line.indexOf(" ");
    const name = sp > 0 ? line.substr(0, sp) : "";
    const sizeText = sp > 0 ? line.substr(sp + 1) : "";
    const size = /^[0-9]+$/.test(sizeText) ? parseInt(sizeText, 10) : 0;
    if (!isFileName(name) || size < 1 || size > (this.head as Header).length) {
      return wrongChip("the package's file list is damaged");
    }
    // The manifest comes first, so that whatever lands in the slot is listed in it.
    if (this.list === "" ? name !== MANIFEST : !listed(this.list, name)) {
      return wrongChip("the package holds a file its manifest does not list (" + name + ")");
    }
    this.file = this.prefix + name;
    this.line = line + "\n";
    this.size = size;
    this.off = 0;
    this.phase = CONTENT;
    return null;
  }

  /** A file is whole: hashed where it lies, into the chain. */
  private close(): Failure | null {
    const stored = this.S.read(this.file);
    if (stored === undefined || stored.length !== this.size) return flashFailed();
    const sha = this.crypto;
    this.digest = E.toString(new Uint8Array(sha.SHA256(this.digest + this.line + E.toString(new Uint8Array(sha.SHA256(stored))))));
    if (this.list === "") {
      // Every line a file name, one for each file of the package.
      if (countListed(stored) !== (this.head as Header).files) return wrongChip("the package's manifest is damaged");
      this.list = stored;
    }
    this.count--;
    this.phase = this.count > 0 ? LINE : DONE;
    if (this.phase === DONE && this.left !== 0) return bad("the upload holds more than the package's files");
    return null;
  }
}

const makeUpload: MakeUpload = (req, app) => {
  const running = slotPrefix();
  if (running === "") {
    return failure(503, "unavailable", "this clock was flashed without update slots: run npm run flash once");
  }
  if (app.update && app.update.state === "applying") return failure(409, "updateBusy", "an update is being applied");
  const s = openRecord().state;
  if (s.run !== s.good) {
    return failure(409, "updateBusy", "release " + s.release + " is still on trial; try again once it has confirmed itself");
  }
  // The figure without a collection counts garbage too; only a real shortage is refused.
  if (heap().freeVars < NEED_VARS && (process.memory(), heap().freeVars < NEED_VARS)) {
    return failure(413, "insufficientMemory", "not enough free memory to take an update");
  }
  return new Intake(app, running.charAt(0));
};
export default makeUpload;
