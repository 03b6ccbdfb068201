// POST /api/v1/restore: a backup archive (a store-only ZIP in the upload's `file` field) applied
// entry by entry. manifest.json must come first and name this product and layout, or nothing is
// applied. A file is checked as POST /api/v1/files checks it (its name, its first bytes, a text
// folder's whole text), goes into the files API's temporary segments as it arrives, and is
// published under its name only once its CRC-32 has checked out, so no damaged or half-received
// file is ever seen. Each configuration entry is checked as the route that writes it checks a
// request (PUT /api/v1/system, PATCH /api/v1/settings, PUT /api/v1/apps/order) and takes effect
// the same way (credentials included: the next request must use the restored ones). What cannot
// be applied is skipped with a warning, in archive order; the answer counts what was.
//
// In two parts, so that the request never holds both. This module reads the archive as it
// arrives: the ZIP reader, the checks of each entry, files written into the files API's
// temporary segments and published once their CRC-32 has checked out, and the configuration
// entries written whole into Storage files of their own (RestoreState.queue). Nothing it holds
// grows with an entry. Once the archive's part has ended, the sink's methods are handed to
// restore-apply.mod.ts, which applies the entries once the body has arrived whole and answers;
// nothing then points into this module, which is dropped. An upload cut short applies none of
// them.
import { loadModule } from "../platform/modules";
import type NameCheck from "../files/name-check.mod";
import type Publish from "../files/publish.mod";
import type Sweep from "../files/sweep.mod";
import { SNIFF_BYTES, TEXT_MAX, isTextFolder, startSuits } from "../files/content";
import type TextCheck from "./text-check.mod";
import type CheckManifest from "./manifest.mod";
import { Incoming } from "../files/store";
import { ZipReader } from "./zip";
import type { ZipConsumer, ZipEntry } from "./zip";
import { entryNames, fileFolders } from "./layout";
import { A_FILES, A_SKIPPED, JSON_MAX, K_FILE, K_MANIFEST, K_SKIP, dropQueue, newState, shownName, warn, warned } from "./restore-state";
import type { RestoreSink, RestoreState } from "./restore-state";
import type { MakeUpload } from "../http/upload";
import type { Reply } from "../http/types";
import { failure } from "../core/failure";
import type { Failure } from "../core/failure";
import type TakeOver from "./restore-apply.mod";

/**
 * Free interpreter variables a restore needs once its module is in: a configuration entry applied
 * as its route would (the system configuration the largest) peaks at about 1,000 above that.
 */
const RESERVE_VARS = 1200;

/** Storage's per-file overhead, counted when a declared size is checked against free space. */
const FILE_OVERHEAD = 64;

/** Bytes Storage can take, counting what it will reclaim from erased files. */
function room(): number {
  const Storage = require("Storage") as StorageModule & { getStats?: () => { freeBytes: number; trashBytes?: number } };
  if (!Storage.getStats) return Storage.getFree();
  const stats = Storage.getStats();
  return stats.freeBytes + (stats.trashBytes || 0);
}

/** Why an entry name may not be used as a path, or "". */
function pathProblem(name: string): string {
  if (name.charAt(0) === "/" || name.split("\\").length > 1 || name.split(":").length > 1) return "not a relative path";
  const parts = name.split("/");
  for (let i = 0; i < parts.length; i++) if (parts[i] === ".." || parts[i] === ".") return "the path leaves the archive";
  return "";
}

// Every object of this module and every name on it costs the interpreter's variables for as long
// as the archive is read, and a name longer than four characters one more: hence the short names.

/** Reads one archive into `st`. */
class RestoreStream implements ZipConsumer {
  st: RestoreState;
  zip: ZipReader;
  /** manifest.json was read and names this product and layout. */
  man: boolean;
  /** Configuration entries stashed so far (the number of the next one's file). */
  n: number;
  // The entry being read.
  kind: number;
  name: string;
  /** The manifest's text. */
  text: string;
  /** A configuration entry's Storage file, its size there, and its bytes so far. */
  file: string;
  cap: number;
  got: number;
  /** A file's folder (its index in fileFolders() and as the API names it) and name in it. */
  fold: number;
  dir: string;
  base: string;
  /** A file's bytes so far, and its first bytes until they have been judged (`sure` then). */
  inc: Incoming | null;
  head: string;
  sure: boolean;

  constructor(st: RestoreState) {
    this.st = st;
    this.zip = new ZipReader(this);
    this.man = false;
    this.n = 0;
    this.kind = K_SKIP;
    this.name = "";
    this.text = "";
    this.file = "";
    this.cap = 0;
    this.got = 0;
    this.fold = 0;
    this.dir = "";
    this.base = "";
    this.inc = null;
    this.head = "";
    this.sure = false;
    // What uploads and restores cut short by a restart left behind.
    loadModule<typeof Sweep>("files/sweep")();
  }

  /** The whole archive is refused, for `why`. */
  fail(why: string): void {
    this.st.rejected = why;
    this.kind = K_SKIP;
    this.zip.stop();
    this.drop();
  }

  /** The current entry is left out, for `why`. */
  skip(why: string): void {
    warn(this.st, shownName(this.name) + ": " + why + "; skipped");
    this.st.applied[A_SKIPPED]++;
    this.kind = K_SKIP;
    this.drop();
  }

  /** The entry does not fit: left out, and the answer will be 507. */
  full(): void {
    this.st.unsaved++;
    warn(this.st, shownName(this.name) + ": not stored, storage is full");
    this.kind = K_SKIP;
    this.drop();
  }

  // -- the archive

  open(e: ZipEntry): boolean {
    const name = e.name;
    this.name = name;
    this.kind = K_SKIP;
    this.text = "";
    // Folder entries carry nothing: zip tools add them, and they are neither applied nor refused.
    const folder = name.charAt(name.length - 1) === "/" && e.size <= 0;
    if (!this.man) {
      if (folder) return false;
      if (name !== "manifest.json") this.fail("manifest.json must be the first entry of the archive");
      else if (e.method !== 0 || e.encrypted) this.fail("manifest.json is compressed or encrypted");
      else if (e.size > JSON_MAX) this.fail("manifest.json is too large");
      else this.kind = K_MANIFEST;
      return this.kind === K_MANIFEST;
    }
    if (folder) return false;
    this.sort(e);
    if (this.kind === K_SKIP) return false;
    if (e.method !== 0 || e.encrypted) {
      this.skip("compressed or encrypted (only stored entries are read)");
    } else if (this.kind !== K_FILE) {
      // A configuration entry of e.size bytes (-1: not known yet) goes into a Storage file of its own.
      if (e.size > JSON_MAX) {
        this.skip("larger than " + JSON_MAX + " bytes");
      } else {
        this.file = this.st.stash + this.n;
        this.cap = e.size >= 0 ? e.size : JSON_MAX;
        this.got = 0;
      }
    } else if (isTextFolder(this.dir) && e.size > TEXT_MAX) {
      this.skip("content does not suit " + this.dir);
    } else if (e.size > 0 && 2 * (e.size + FILE_OVERHEAD) > room()) {
      // Its segments and the file itself are in Storage together for a moment.
      this.full();
    } else {
      this.inc = new Incoming(e.size > 0 ? e.size : 0);
      this.head = "";
      this.sure = false;
    }
    return this.kind !== K_SKIP;
  }

  /** Sets `kind` (and for a file its folder and name), or skips the entry with the reason. */
  sort(e: ZipEntry): void {
    const name = e.name;
    if (e.clipped) return this.skip("the name is too long");
    const bad = pathProblem(name);
    if (bad) return this.skip(bad);
    const known = entryNames().split(" ").indexOf(name);
    if (known === K_MANIFEST) return this.skip("a second manifest.json");
    if (known > K_MANIFEST) {
      this.kind = known;
      return;
    }
    const slash = name.indexOf("/");
    const top = slash < 0 ? "" : name.substr(0, slash);
    if (top === "SCRIPTS") return this.skip("this firmware runs no scripts");
    const f = fileFolders().split(" ").indexOf(top);
    if (f < 0) return this.skip("not an entry of a pixloop backup");
    const file = name.substr(slash + 1);
    if (file.indexOf("/") >= 0) return this.skip("folders inside " + top + " are not allowed");
    const dir = "/" + top;
    // As POST /api/v1/files refuses the name, before a byte is stored.
    const refused = loadModule<typeof NameCheck>("files/name-check")(dir, file);
    if (refused) return this.skip(refused.message);
    this.kind = K_FILE;
    this.fold = f;
    this.dir = dir;
    this.base = file;
  }

  bytes(data: string): void {
    const kind = this.kind;
    if (kind === K_SKIP) return;
    if (kind === K_MANIFEST) {
      if (this.text.length + data.length <= JSON_MAX) {
        this.text += data;
        return;
      }
      this.text = "";
      return this.fail("manifest.json is too large");
    }
    if (kind !== K_FILE) {
      if (this.got + data.length > this.cap) return this.skip("larger than " + JSON_MAX + " bytes");
      // Appended to the configuration entry's file.
      const at = this.got;
      this.got += data.length;
      let written = false;
      try {
        written = require("Storage").write(this.file, data, at, this.cap);
      } catch (e) {
        // Espruino throws when it cannot create the file (no room) rather than answering false.
      }
      if (!written) this.full();
      return;
    }
    if (!this.sure) {
      this.head += data;
      if (this.head.length < SNIFF_BYTES) return;
      data = this.head;
      this.head = "";
      if (!this.judge(data)) return;
    }
    this.take(data);
  }

  close(problem: string): void {
    const kind = this.kind;
    if (kind === K_SKIP) return;
    if (problem) {
      if (kind === K_MANIFEST) return this.fail("manifest.json: " + problem);
      return this.skip(problem);
    }
    if (kind === K_FILE) return this.pub();
    if (kind === K_MANIFEST) {
      const why = loadModule<typeof CheckManifest>("backup/manifest")(this.text);
      this.text = "";
      if (why) return this.fail(why);
      this.man = true;
      return;
    }
    // Applied once the archive has been read; the warnings before it say where its own goes.
    this.st.queue += kind + "," + this.got + "," + warned(this.st) + "," + this.n + ";";
    this.n++;
    this.file = "";
    this.kind = K_SKIP;
  }

  // -- files

  /** The verdict on the file's first bytes; false (and the entry skipped) when they do not suit. */
  judge(head: string): boolean {
    this.sure = true;
    if (startSuits(this.dir, head)) return true;
    this.skip("content does not suit " + this.dir);
    return false;
  }

  /** Appends to the file's segments. */
  take(data: string): void {
    const f = this.inc as Incoming;
    if (!f.add(data)) return this.full();
    if (isTextFolder(this.dir) && f.size > TEXT_MAX) this.skip("content does not suit " + this.dir);
  }

  /** The file checked out: published under its name. */
  pub(): void {
    // A file shorter than the bytes the verdict looks at is judged now.
    if (!this.sure) {
      const head = this.head;
      this.head = "";
      if (!this.judge(head)) return;
      this.take(head);
      if (this.kind !== K_FILE) return;
    }
    const f = this.inc as Incoming;
    // A text is one segment (TEXT_MAX bytes at most), read in place.
    if (isTextFolder(this.dir) && (f.span(0) < f.size || !loadModule<typeof TextCheck>("backup/text-check")(this.dir, f.read(0, f.size)))) {
      return this.skip("content does not suit " + this.dir);
    }
    const refused = loadModule<typeof Publish>("files/publish")(this.dir, this.base, f);
    if (refused) return this.full();
    this.drop();
    this.kind = K_SKIP;
    this.st.applied[A_FILES + this.fold]++;
  }

  /** Erases what the current entry has in Storage, if anything. */
  drop(): void {
    if (this.inc) this.inc.discard();
    this.inc = null;
    if (this.file) require("Storage").erase(this.file);
    this.file = "";
  }
}

/** The sink while the archive is read: its reader, and whether the current part is the archive. */
interface ReadingSink extends RestoreSink {
  rd: RestoreStream | null;
  on: boolean;
}

// The sink's methods while the archive is read (called as its methods: `this` is the sink). The
// first part named `file` is the archive; other parts before it are ignored.

function begin(this: ReadingSink, field: string): Failure | null {
  this.on = field === "file";
  return null;
}

function data(this: ReadingSink, chunk: string): Failure | null {
  if (this.on) (this.rd as RestoreStream).zip.feed(chunk);
  return null;
}

/** The archive's part ended: its reader is done, and the applying code takes the sink over. */
function end(this: ReadingSink): Failure | null {
  if (!this.on) return null;
  this.on = false;
  const r = this.rd as RestoreStream;
  this.rd = null;
  const zip = r.zip;
  zip.end();
  if (!this.st.rejected) {
    if (!r.man) r.fail(zip.error || "the archive holds no manifest.json");
    else if (zip.error) warn(this.st, "archive: " + zip.error);
  }
  loadModule<typeof TakeOver>("backup/restore-apply")(this);
  return null;
}

function finish(this: ReadingSink): Reply | Failure {
  if (!this.on) return failure(400, "badRequest", "no backup file received");
  this.end();
  return this.finish();
}

function abort(this: ReadingSink): void {
  const r = this.rd;
  this.rd = null;
  if (r) {
    r.zip.stop();
    r.drop();
  }
  // An archive cut short changes no configuration: what it stored is dropped unapplied (files
  // already published stay, as the files route's do).
  dropQueue(this.st);
}

const makeRestore: MakeUpload = (req, app) => {
  // Refused before anything is applied, rather than running out halfway through the archive. With
  // a collection first (once a restore): modules just dropped are cycles only a collection frees.
  if (process.memory().free < RESERVE_VARS) return failure(507, "insufficientStorage", "not enough free memory for a restore");
  const st = newState();
  const sink: ReadingSink = { begin, data, end, finish, abort, st, app, rd: null, on: false };
  sink.rd = new RestoreStream(st);
  return sink;
};
export default makeRestore;
