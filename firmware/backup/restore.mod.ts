// POST /api/v1/restore: a backup archive (a store-only ZIP in the upload's `file` field) applied
// entry by entry as it streams in. manifest.json must come first and name this product and
// layout, or nothing is applied. Each configuration entry goes through the handler of the route
// that writes it (PUT /api/v1/system, PATCH /api/v1/settings, PUT /api/v1/apps/order), so it is
// checked as a request would be and takes effect the same way (credentials included: the next
// request must use the restored ones). A file is checked as POST /api/v1/files checks it (its
// name, its first bytes, a text folder's whole text), goes into the files API's temporary segments
// as it arrives, and is published under its name only once its CRC-32 has checked out, so no
// damaged or half-received file is ever seen. What cannot be applied is skipped with a warning;
// the answer counts what was.
import type { MakeUpload, UploadSink } from "../http/upload";
import type { ApiRequest, Handler, Reply } from "../http/types";
import { json } from "../http/types";
import type { App } from "../app";
import { failure, isFailure } from "../core/failure";
import type { Failure } from "../core/failure";
import { parseJson } from "../core/json";
import { loadModule } from "../platform/modules";
import { checkName, nameClash } from "../files/names";
import { SNIFF_BYTES, TEXT_MAX, isTextFolder, startSuits } from "../files/content";
import type TextCheck from "./text-check.mod";
import { Incoming, publish, sweep } from "../files/store";
import { ZipReader } from "./zip";
import type { ZipConsumer, ZipEntry } from "./zip";
import { BACKUP_APP, BACKUP_FORMAT, FILE_FOLDERS, MANIFEST, ORDER_ENTRY, SETTINGS_ENTRY, SYSTEM_ENTRY, WIFI_ENTRY,
  WIFI_FIELDS, isWordOf } from "./layout";

/** The largest configuration entry read (the JSON body cap of the routes that apply them). */
const JSON_MAX = 8192;
/** Warnings listed; past this many they are only counted. */
const WARNINGS_MAX = 20;
/** Storage's per-file overhead, counted when a declared size is checked against free space. */
const FILE_OVERHEAD = 64;
/**
 * Free interpreter variables a restore needs once its module is in: a configuration entry applied
 * through its route (the system configuration the largest) peaks at about 1,000 above that.
 */
const RESERVE_VARS = 1200;

const K_SKIP = 0;
const K_MANIFEST = 1;
const K_WIFI = 2;
const K_SYSTEM = 3;
const K_FILE = 6;
/**
 * By kind (settings 4, app order 5): the entry's name, the route handler that applies it, and its
 * count in `applied`.
 */
const JSON_ENTRIES = "- " + MANIFEST + " " + WIFI_ENTRY + " " + SYSTEM_ENTRY + " " + SETTINGS_ENTRY + " " + ORDER_ENTRY;
const HANDLERS = "- - system/put system/put settings/patch apps/order";
const COUNTS = "- - wifi system settings appLoop";
/** `applied` counts of the file folders, in FILE_FOLDERS order. */
const FILE_COUNTS = "icons melodies palettes mp3";

/** Longest part of an entry name a warning shows. */
const NAME_SHOWN = 64;

type Bag = { [key: string]: unknown };

/** A value from the archive as a message shows it: JSON, cut short. */
function shown(v: unknown): string {
  const t = JSON.stringify(v);
  if (t === undefined) return "none";
  return t.length > NAME_SHOWN ? t.substr(0, NAME_SHOWN) + "..." : t;
}

function isObject(v: unknown): v is Bag {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

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

class Restore implements UploadSink, ZipConsumer {
  private app: App;
  private reader: ZipReader | null;
  /** The current part is the archive. */
  private reading: boolean;
  /** manifest.json was read and names this product and layout. */
  private manifest: boolean;
  /** Why the whole archive was refused, or "". */
  private rejected: string;
  /** Entries that could not be stored for want of room. */
  private unsaved: number;
  private applied: { [category: string]: number };
  private warnings: string[];
  private unlisted: number;
  // The entry being read.
  private kind: number;
  private name: string;
  /** A configuration entry's text. */
  private text: string;
  /** A file's folder (its index in FILE_FOLDERS and as the API names it) and name in it. */
  private folder: number;
  private dir: string;
  private file: string;
  /** A file's bytes so far, and its first bytes until they have been judged ("" once they have). */
  private incoming: Incoming | null;
  private head: string;
  private judged: boolean;

  constructor(app: App) {
    this.app = app;
    this.reader = null;
    this.reading = false;
    this.manifest = false;
    this.rejected = "";
    this.unsaved = 0;
    this.applied = { wifi: 0, system: 0, settings: 0, appLoop: 0, icons: 0, melodies: 0, palettes: 0, mp3: 0, skipped: 0 };
    this.warnings = [];
    this.unlisted = 0;
    this.kind = K_SKIP;
    this.name = "";
    this.text = "";
    this.folder = 0;
    this.dir = "";
    this.file = "";
    this.incoming = null;
    this.head = "";
    this.judged = false;
    // What uploads and restores cut short by a restart left behind.
    sweep();
  }

  // -- the upload

  begin(field: string): Failure | null {
    this.reading = false;
    if (field !== "file") return null;
    if (this.reader) {
      this.warn("the upload holds more than one file; only the first was read");
      return null;
    }
    this.reader = new ZipReader(this);
    this.reading = true;
    return null;
  }

  data(chunk: string): Failure | null {
    if (this.reading) (this.reader as ZipReader).feed(chunk);
    return null;
  }

  end(): Failure | null {
    if (this.reading) this.conclude();
    return null;
  }

  finish(): Reply | Failure {
    if (!this.reader) return failure(400, "badRequest", "no backup file received");
    if (this.reading) this.conclude();
    const body: Bag = { ok: !this.rejected };
    if (this.rejected) body.error = this.rejected;
    body.applied = this.applied;
    if (this.unlisted) this.warnings.push("and " + this.unlisted + " more");
    body.warnings = this.warnings;
    if (this.rejected) return json(body, 400);
    if (this.unsaved) {
      return failure(507, "insufficientStorage", "restored, but " + this.unsaved + " of its entries could not be " +
        "stored: free storage and restore again before rebooting");
    }
    return json(body);
  }

  abort(): void {
    if (this.reader) this.reader.stop();
    this.drop();
  }

  /** The archive's part ended. */
  private conclude(): void {
    this.reading = false;
    const r = this.reader as ZipReader;
    r.end();
    if (this.rejected) return;
    if (!this.manifest) this.reject(r.error || "the archive holds no manifest.json");
    else if (r.error) this.warn("archive: " + r.error);
  }

  private reject(why: string): void {
    this.rejected = why;
    this.kind = K_SKIP;
    (this.reader as ZipReader).stop();
    this.drop();
  }

  private warn(text: string): void {
    if (this.warnings.length < WARNINGS_MAX) this.warnings.push(text);
    else this.unlisted++;
  }

  /** The current entry is left out, for `why`. */
  private skip(why: string): void {
    this.warn(this.shownName() + ": " + why + "; skipped");
    this.applied.skipped++;
    this.kind = K_SKIP;
    this.drop();
  }

  /** The entry does not fit: left out, and the answer will be 507. */
  private noRoom(): void {
    this.unsaved++;
    this.warn(this.shownName() + ": not stored, storage is full");
    this.kind = K_SKIP;
    this.drop();
  }

  /** The entry's name as warnings show it. */
  private shownName(): string {
    return this.name.length > NAME_SHOWN ? this.name.substr(0, NAME_SHOWN) + "..." : this.name;
  }

  // -- the archive

  open(e: ZipEntry): boolean {
    const name = e.name;
    this.name = name;
    this.kind = K_SKIP;
    this.text = "";
    // Folder entries carry nothing: zip tools add them, and they are neither applied nor refused.
    const folder = name.charAt(name.length - 1) === "/" && e.size <= 0;
    if (!this.manifest) {
      if (folder) return false;
      if (name !== MANIFEST) this.reject(MANIFEST + " must be the first entry of the archive");
      else if (e.method !== 0 || e.encrypted) this.reject(MANIFEST + " is compressed or encrypted");
      else if (e.size > JSON_MAX) this.reject(MANIFEST + " is too large");
      else this.kind = K_MANIFEST;
      return this.kind === K_MANIFEST;
    }
    if (folder) return false;
    this.classify(e);
    if (this.kind === K_SKIP) return false;
    if (e.method !== 0 || e.encrypted) {
      this.skip("compressed or encrypted (only stored entries are read)");
    } else if (this.kind !== K_FILE) {
      if (e.size > JSON_MAX) this.skip("larger than " + JSON_MAX + " bytes");
    } else if (isTextFolder(this.dir) && e.size > TEXT_MAX) {
      this.skip("content does not suit " + this.dir);
    } else if (e.size > 0 && 2 * (e.size + FILE_OVERHEAD) > room()) {
      // Its segments and the file itself are in Storage together for a moment.
      this.noRoom();
    } else {
      this.incoming = new Incoming(e.size > 0 ? e.size : 0);
      this.head = "";
      this.judged = false;
    }
    return this.kind !== K_SKIP;
  }

  /** Sets `kind` (and for a file its folder and name), or skips the entry with the reason. */
  private classify(e: ZipEntry): void {
    const name = e.name;
    if (e.clipped) return this.skip("the name is too long");
    const bad = pathProblem(name);
    if (bad) return this.skip(bad);
    const known = JSON_ENTRIES.split(" ").indexOf(name);
    if (known === K_MANIFEST) return this.skip("a second " + MANIFEST);
    if (known > K_MANIFEST) {
      this.kind = known;
      return;
    }
    const slash = name.indexOf("/");
    const top = slash < 0 ? "" : name.substr(0, slash);
    if (top === "SCRIPTS") return this.skip("this firmware runs no scripts");
    const f = FILE_FOLDERS.split(" ").indexOf(top);
    if (f < 0) return this.skip("not an entry of a pixloop backup");
    const file = name.substr(slash + 1);
    if (file.indexOf("/") >= 0) return this.skip("folders inside " + top + " are not allowed");
    const dir = "/" + top;
    // As POST /api/v1/files refuses the name, before a byte is stored.
    const refused = checkName(dir, file) || nameClash(dir, file);
    if (refused) return this.skip(refused.message);
    this.kind = K_FILE;
    this.folder = f;
    this.dir = dir;
    this.file = file;
  }

  bytes(data: string): void {
    const kind = this.kind;
    if (kind === K_SKIP) return;
    if (kind !== K_FILE) {
      if (this.text.length + data.length <= JSON_MAX) {
        this.text += data;
        return;
      }
      this.text = "";
      if (kind === K_MANIFEST) this.reject(MANIFEST + " is too large");
      else this.skip("larger than " + JSON_MAX + " bytes");
      return;
    }
    if (!this.judged) {
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
      if (kind === K_MANIFEST) return this.reject(MANIFEST + ": " + problem);
      return this.skip(problem);
    }
    if (kind === K_FILE) return this.publish();
    const parsed = parseJson(this.text);
    this.text = "";
    if (kind === K_MANIFEST) return this.checkManifest(parsed ? parsed.value : undefined);
    if (!parsed) return this.skip("not valid JSON");
    this.apply(kind, parsed.value);
  }

  private checkManifest(m: unknown): void {
    if (!isObject(m)) return this.reject(MANIFEST + " is not a JSON object");
    if (m.app !== BACKUP_APP) return this.reject("not a " + BACKUP_APP + " backup: its manifest names app " + shown(m.app));
    if (m.backupFormat !== BACKUP_FORMAT) {
      return this.reject("backupFormat " + shown(m.backupFormat) + " is not supported (this firmware reads " + BACKUP_FORMAT + ")");
    }
    this.manifest = true;
  }

  /** A configuration entry through its route's handler, as the body of a request. */
  private apply(kind: number, value: unknown): void {
    let body = value;
    if (kind === K_WIFI || kind === K_SYSTEM) {
      if (!isObject(value)) return this.skip("not a JSON object");
      // Each entry carries its own part of the configuration: the Wi-Fi fields or the rest.
      const part: Bag = {};
      let n = 0;
      for (const key in value) {
        if (isWordOf(WIFI_FIELDS, key) === (kind === K_WIFI)) {
          part[key] = value[key];
          n++;
        }
      }
      if (kind === K_WIFI && !n) return this.skip("holds neither wifiSsid nor wifiPass");
      body = part;
    }
    const req: ApiRequest = { method: "PUT", path: "", query: {}, header: () => "", body, raw: "", params: {} };
    let out: Reply | Failure;
    try {
      out = loadModule<Handler>(HANDLERS.split(" ")[kind])(req, this.app);
    } catch (e) {
      out = failure(500, "internalError", "command failed");
    }
    if (!isFailure(out)) {
      this.applied[COUNTS.split(" ")[kind]]++;
      return;
    }
    if (out.status === 507) return this.noRoom();
    this.skip((out.field ? out.field + ": " : "") + out.message);
  }

  // -- files

  /** The verdict on the file's first bytes; false (and the entry skipped) when they do not suit. */
  private judge(head: string): boolean {
    this.judged = true;
    if (startSuits(this.dir, head)) return true;
    this.skip("content does not suit " + this.dir);
    return false;
  }

  /** Appends to the file's segments. */
  private take(data: string): void {
    const f = this.incoming as Incoming;
    if (!f.add(data)) return this.noRoom();
    if (isTextFolder(this.dir) && f.size > TEXT_MAX) this.skip("content does not suit " + this.dir);
  }

  /** The file checked out: published under its name. */
  private publish(): void {
    // A file shorter than the bytes the verdict looks at is judged now.
    if (!this.judged) {
      const head = this.head;
      this.head = "";
      if (!this.judge(head)) return;
      this.take(head);
      if (this.kind !== K_FILE) return;
    }
    const f = this.incoming as Incoming;
    // A text is one segment (TEXT_MAX bytes at most), read in place.
    if (isTextFolder(this.dir) && (f.span(0) < f.size || !loadModule<typeof TextCheck>("backup/text-check")(this.dir, f.read(0, f.size)))) {
      return this.skip("content does not suit " + this.dir);
    }
    const refused = publish(this.dir, this.file, f);
    if (refused) return this.noRoom();
    this.drop();
    this.applied[FILE_COUNTS.split(" ")[this.folder]]++;
  }

  /** Erases the current file's segments, if any. */
  private drop(): void {
    if (this.incoming) this.incoming.discard();
    this.incoming = null;
  }
}

const makeRestore: MakeUpload = (req, app) => {
  // Refused before anything is applied, rather than running out halfway through the archive. With
  // a collection first (once a restore): modules just dropped are cycles only a collection frees.
  if (process.memory().free < RESERVE_VARS) return failure(507, "insufficientStorage", "not enough free memory for a restore");
  return new Restore(app);
};
export default makeRestore;
