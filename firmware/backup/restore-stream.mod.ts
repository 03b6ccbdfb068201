// The part of POST /api/v1/restore that runs while the archive arrives (restore.mod.ts has the
// whole story): the ZIP reader, the checks of each entry, files written into the files API's
// temporary segments and published once their CRC-32 has checked out, and the configuration
// entries written whole into Storage files of their own (RestoreState.queue), to be applied once
// this code has been dropped. Nothing it holds grows with an entry.
import { parseJson } from "../core/json";
import { loadModule } from "../platform/modules";
import type NameCheck from "../files/name-check.mod";
import type Publish from "../files/publish.mod";
import type Sweep from "../files/sweep.mod";
import { SNIFF_BYTES, TEXT_MAX, isTextFolder, startSuits } from "../files/content";
import type TextCheck from "./text-check.mod";
import { Incoming } from "../files/store";
import { ZipReader } from "./zip";
import type { ZipConsumer, ZipEntry } from "./zip";
import { BACKUP_APP, BACKUP_FORMAT, FILE_FOLDERS, MANIFEST, ORDER_ENTRY, SETTINGS_ENTRY, SYSTEM_ENTRY, WIFI_ENTRY } from "./layout";
import { JSON_MAX, K_FILE, K_MANIFEST, K_SKIP, NAME_SHOWN, shownName, warn, warned } from "./restore-state";
import type { ArchiveReader, RestoreState } from "./restore-state";

/** Storage's per-file overhead, counted when a declared size is checked against free space. */
const FILE_OVERHEAD = 64;

/** By kind: the configuration entries' names. */
const JSON_ENTRIES = "- " + MANIFEST + " " + WIFI_ENTRY + " " + SYSTEM_ENTRY + " " + SETTINGS_ENTRY + " " + ORDER_ENTRY;
/** `applied` counts of the file folders, in FILE_FOLDERS order. */
const FILE_COUNTS = "icons melodies palettes mp3";

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

/** Reads one archive into `st`: what restore.mod.ts hands the archive's bytes to. */
class RestoreStream implements ZipConsumer, ArchiveReader {
  private st: RestoreState;
  private reader: ZipReader;
  /** manifest.json was read and names this product and layout. */
  private manifest: boolean;
  /** Configuration entries stashed so far (the number of the next one's file). */
  private stashed: number;
  // The entry being read.
  private kind: number;
  private name: string;
  /** The manifest's text. */
  private text: string;
  /** A configuration entry's Storage file, its size there, and its bytes so far. */
  private file: string;
  private cap: number;
  private got: number;
  /** A file's folder (its index in FILE_FOLDERS and as the API names it) and name in it. */
  private folder: number;
  private dir: string;
  private base: string;
  /** A file's bytes so far, and its first bytes until they have been judged. */
  private incoming: Incoming | null;
  private head: string;
  private judged: boolean;

  constructor(st: RestoreState) {
    this.st = st;
    this.reader = new ZipReader(this);
    this.manifest = false;
    this.stashed = 0;
    this.kind = K_SKIP;
    this.name = "";
    this.text = "";
    this.file = "";
    this.cap = 0;
    this.got = 0;
    this.folder = 0;
    this.dir = "";
    this.base = "";
    this.incoming = null;
    this.head = "";
    this.judged = false;
    // What uploads and restores cut short by a restart left behind.
    loadModule<typeof Sweep>("files/sweep")();
  }

  /** The next bytes of the archive. */
  feed(chunk: string): void {
    this.reader.feed(chunk);
  }

  /** The archive's part ended. */
  end(): void {
    const r = this.reader;
    r.end();
    if (this.st.rejected) return;
    if (!this.manifest) this.reject(r.error || "the archive holds no manifest.json");
    else if (r.error) warn(this.st, "archive: " + r.error);
  }

  /** The upload was cut short: what was not published is undone. */
  abort(): void {
    this.reader.stop();
    this.drop();
  }

  private reject(why: string): void {
    this.st.rejected = why;
    this.kind = K_SKIP;
    this.reader.stop();
    this.drop();
  }

  /** The current entry is left out, for `why`. */
  private skip(why: string): void {
    warn(this.st, shownName(this.name) + ": " + why + "; skipped");
    this.st.applied.skipped++;
    this.kind = K_SKIP;
    this.drop();
  }

  /** The entry does not fit: left out, and the answer will be 507. */
  private noRoom(): void {
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
      else this.stash(this.kind, e.size);
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

  /** A configuration entry of `size` bytes (-1: not known yet) goes into a Storage file of its own. */
  private stash(kind: number, size: number): void {
    this.kind = kind;
    this.file = this.st.stash + this.stashed;
    this.cap = size >= 0 ? size : JSON_MAX;
    this.got = 0;
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
    const refused = loadModule<typeof NameCheck>("files/name-check")(dir, file);
    if (refused) return this.skip(refused.message);
    this.kind = K_FILE;
    this.folder = f;
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
      return this.reject(MANIFEST + " is too large");
    }
    if (kind !== K_FILE) {
      if (this.got + data.length > this.cap) {
        return this.skip("larger than " + JSON_MAX + " bytes");
      }
      if (!this.write(data)) this.noRoom();
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

  /** Appends to the configuration entry's file. */
  private write(data: string): boolean {
    const at = this.got;
    this.got += data.length;
    try {
      return require("Storage").write(this.file, data, at, this.cap);
    } catch (e) {
      // Espruino throws when it cannot create the file (no room) rather than answering false.
      return false;
    }
  }

  close(problem: string): void {
    const kind = this.kind;
    if (kind === K_SKIP) return;
    if (problem) {
      if (kind === K_MANIFEST) return this.reject(MANIFEST + ": " + problem);
      return this.skip(problem);
    }
    if (kind === K_FILE) return this.publish();
    if (kind === K_MANIFEST) {
      const parsed = parseJson(this.text);
      this.text = "";
      return this.checkManifest(parsed ? parsed.value : undefined);
    }
    // Applied once the archive has been read; the warnings before it say where its own goes.
    this.st.queue += kind + "," + this.got + "," + warned(this.st) + "," + this.stashed + ";";
    this.stashed++;
    this.file = "";
    this.kind = K_SKIP;
  }

  private checkManifest(m: unknown): void {
    if (!isObject(m)) return this.reject(MANIFEST + " is not a JSON object");
    if (m.app !== BACKUP_APP) return this.reject("not a " + BACKUP_APP + " backup: its manifest names app " + shown(m.app));
    if (m.backupFormat !== BACKUP_FORMAT) {
      return this.reject("backupFormat " + shown(m.backupFormat) + " is not supported (this firmware reads " + BACKUP_FORMAT + ")");
    }
    this.manifest = true;
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
    const refused = loadModule<typeof Publish>("files/publish")(this.dir, this.base, f);
    if (refused) return this.noRoom();
    this.drop();
    this.kind = K_SKIP;
    this.st.applied[FILE_COUNTS.split(" ")[this.folder]]++;
  }

  /** Erases what the current entry has in Storage, if anything. */
  private drop(): void {
    if (this.incoming) this.incoming.discard();
    this.incoming = null;
    if (this.file) require("Storage").erase(this.file);
    this.file = "";
  }
}

const makeStream = (st: RestoreState): ArchiveReader => new RestoreStream(st);
export default makeStream;
