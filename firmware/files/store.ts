// The files API's side of Storage: listing, the temporary copy an upload is written to as it
// arrives, publishing it under its name, removing, and the figures of the whole Storage.
//
// An upload cannot be written straight under its name: Storage files are created at their final
// size, which a multipart part does not tell, and writing over a file erases it first. So a file
// arrives into temporary segments ("~" + 8 hex digits of the start time in seconds + 2 random hex
// digits + "." + the segment's number, SEGMENT bytes each or what is left of the request body at
// most), and once whole it is copied under its Storage name (paths.ts) and the segments erased.
// Segments older than STALE_S (or dated in the future: the clock moved) and long-scheme files the
// index does not name are leftovers of uploads or publications cut short by a restart; each
// upload erases them first.
import type { Failure } from "../core/failure";
import { failure } from "../core/failure";
import { findLong, folderPrefix, isShort, longIndex, openLongIndex } from "./paths";

/** Bytes of a temporary segment. */
const SEGMENT = 4096;
/** Bytes read and written at once when a file is copied. */
const COPY_PIECE = 2048;
/** Age in seconds past which a temporary segment belongs to no running upload. */
const STALE_S = 3600;
/** Bytes of a Storage file's header, which every file costs besides its (4-aligned) bytes. */
const FILE_HEADER = 32;
/** Record of icon origins (core/persist.ts: "iorg.0" and "iorg.1"): icon id to origin. */
export const ORIGINS = "iorg";

export function storageFull(): Failure {
  return failure(507, "insufficientStorage", "write failed: storage is full");
}

/** What a file of `bytes` bytes takes in Storage. */
function footprint(bytes: number): number {
  return FILE_HEADER + Math.ceil(bytes / 4) * 4;
}

interface Stats { totalBytes: number; freeBytes: number; trashBytes?: number }

function stats(): Stats {
  const s = require("Storage") as unknown as { getStats?: () => Stats; getFree(): number };
  return s.getStats ? s.getStats() : { totalBytes: 0, freeBytes: s.getFree() };
}

/** usedBytes and totalBytes of the whole Storage (erased files waiting for a compaction are free). */
export function usage(): { usedBytes: number; totalBytes: number } {
  const st = stats();
  return { usedBytes: st.totalBytes - st.freeBytes - (st.trashBytes || 0), totalBytes: st.totalBytes };
}

/** Bytes a new file can take now (Storage compacts by itself to find them). */
function room(): number {
  const st = stats();
  return st.freeBytes + (st.trashBytes || 0);
}

function write(name: string, data: string, offset: number, size: number): boolean {
  try {
    return require("Storage").write(name, data, offset, size);
  } catch (e) {
    // Espruino throws when it cannot create the file (no room) rather than answering false.
    return false;
  }
}

/**
 * The files of folder `dir` (a folder of the API) sorted by name, each as its name, a NUL and its
 * Storage name: one string a file, however many there are.
 */
export function listFiles(dir: string): string[] {
  const s = require("Storage");
  const prefix = folderPrefix(dir);
  const out: string[] = [];
  const names = s.list(new RegExp("^" + prefix));
  for (let i = 0; i < names.length; i++) {
    const n = names[i];
    if (n.substr(0, 2) === prefix) out.push(n.substr(2) + "\u0000" + n);
  }
  const index = longIndex();
  for (const stored in index) {
    if (stored.charAt(0) === prefix.charAt(0) && s.read(stored, 0, 1) !== undefined) out.push(index[stored] + "\u0000" + stored);
  }
  // NUL sorts before every byte, so "a" comes before "a.b" as names do.
  out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return out;
}

/** A Storage name of the long scheme for `name` of `dir` that nothing uses yet. */
function freshLong(index: { [stored: string]: string }, dir: string, name: string): string {
  const letter = folderPrefix(dir).charAt(0);
  const base = letter + "~" + (E.CRC32(letter + name) >>> 0).toString(16).padStart(8, "0");
  const s = require("Storage");
  for (let k = 0; k < 10; k++) {
    const stored = k ? base + k : base;
    if (index[stored] === undefined && s.read(stored, 0, 1) === undefined) return stored;
  }
  return "";
}

/** Bytes of a file that can be read piece by piece and copied. */
export interface Source {
  size: number;
  /** `len` bytes from `offset`; never across a piece boundary the source does not allow. */
  read(offset: number, len: number): string;
  /** How many bytes from `offset` one read can give. */
  span(offset: number): number;
}

/** Storage file `stored` as a Source. */
export function storedSource(stored: string): Source | null {
  const s = require("Storage");
  const data = s.read(stored);
  if (data === undefined) return null;
  return {
    size: data.length,
    read: (offset, len) => s.read(stored, offset, len) as string,
    span: (offset) => data.length - offset,
  };
}

/** Copies `src` into a new Storage file `dest` of its size; false (nothing left) when refused. */
function copyInto(src: Source, dest: string): boolean {
  const size = src.size;
  let at = 0;
  while (at < size) {
    let n = src.span(at);
    if (n > COPY_PIECE) n = COPY_PIECE;
    if (n <= 0 || !write(dest, src.read(at, n), at, size)) {
      require("Storage").erase(dest);
      return false;
    }
    at += n;
  }
  return true;
}

/**
 * Makes `src` file `name` of `dir`, replacing any file of that name: under a long name the old
 * one goes only once the new one is in; under a short name it is erased first, once Storage was
 * seen to have room for the new copy (so a refusal keeps it). 507 when there is no room.
 */
export function publish(dir: string, name: string, src: Source): Failure | null {
  const s = require("Storage");
  if (src.size <= 0) return storageFull();
  if (isShort(dir, name)) {
    const dest = folderPrefix(dir) + name;
    const old = s.read(dest);
    if (room() + (old === undefined ? 0 : footprint(old.length)) < footprint(src.size)) return storageFull();
    if (old !== undefined) s.erase(dest);
    return copyInto(src, dest) ? null : storageFull();
  }
  const index = openLongIndex();
  const dest = freshLong(index.map, dir, name);
  if (!dest || room() < footprint(src.size) || !copyInto(src, dest)) return storageFull();
  const old = findLong(index.map, dir, name);
  if (old) delete index.map[old];
  index.map[dest] = name;
  if (!index.save()) {
    s.erase(dest);
    return storageFull();
  }
  if (old) s.erase(old);
  return null;
}

/** Removes file `name` of `dir`, stored as `stored`. */
export function removeFile(dir: string, name: string, stored: string): boolean {
  const s = require("Storage");
  if (!isShort(dir, name)) {
    // The index first: it never names a file that is not there.
    const index = openLongIndex();
    delete index.map[stored];
    if (!index.save()) return false;
  }
  s.erase(stored);
  // The icon's decoded form (icons/icon.ts: "c/" and the CRC32 of its Storage name).
  if (dir === "/ICONS") s.erase("c/" + (E.CRC32(stored) >>> 0).toString(16).padStart(8, "0"));
  return true;
}

/** Erases what uploads and publications cut short by a restart left behind. */
export function sweep(): void {
  const s = require("Storage");
  const now = Math.floor(getTime());
  const temps = s.list(/^~/);
  for (let i = 0; i < temps.length; i++) {
    const t = parseInt(temps[i].substr(1, 8), 16);
    if (!(Math.abs(now - t) <= STALE_S)) s.erase(temps[i]);
  }
  const longs = s.list(/^[IMP3]~/);
  if (longs.length === 0) return;
  const index = longIndex();
  for (let i = 0; i < longs.length; i++) if (index[longs[i]] === undefined) s.erase(longs[i]);
}

/**
 * A file arriving: its bytes go into temporary segments as they come. `bound` is the most it can
 * hold (the request body's declared length), 0 when unknown.
 */
export class Incoming implements Source {
  size = 0;
  private tag: string;
  /**
   * Segments made so far. Every one but the last holds SEGMENT bytes (a segment is cut shorter
   * only where the body's declared end leaves less), so their number and the last one's size
   * are all that is kept: a list of sizes would grow with the file.
   */
  private count = 0;
  private lastCap = 0;
  private fill = 0;

  constructor(private bound: number) {
    this.tag = "~" + (Math.floor(getTime()) >>> 0).toString(16).padStart(8, "0") +
      Math.floor(Math.random() * 256).toString(16).padStart(2, "0") + ".";
  }

  /** Appends `chunk`; false when Storage refused it. */
  add(chunk: string): boolean {
    let at = 0;
    while (at < chunk.length) {
      if (this.count === 0 || this.fill === this.lastCap) {
        // Past a short segment the body has ended: more bytes would break the layout.
        if (this.count > 0 && this.lastCap !== SEGMENT) return false;
        const left = this.bound - this.size;
        this.lastCap = this.bound > 0 && left > 0 && left < SEGMENT ? left : SEGMENT;
        this.count++;
        this.fill = 0;
      }
      let n = this.lastCap - this.fill;
      if (n > chunk.length - at) n = chunk.length - at;
      if (!write(this.tag + (this.count - 1), at === 0 && n === chunk.length ? chunk : chunk.substr(at, n), this.fill, this.lastCap)) return false;
      this.fill += n;
      this.size += n;
      at += n;
    }
    return true;
  }

  /** The segment holding byte `offset` and where that segment starts: [segment, start]. */
  private find(offset: number): number[] {
    const seg = Math.min(Math.floor(offset / SEGMENT), this.count - 1);
    return [seg, seg * SEGMENT];
  }

  read(offset: number, len: number): string {
    const f = this.find(offset);
    return require("Storage").read(this.tag + f[0], offset - f[1], len) as string;
  }

  span(offset: number): number {
    const f = this.find(offset);
    return Math.min(this.size - offset, f[1] + (f[0] === this.count - 1 ? this.lastCap : SEGMENT) - offset);
  }

  /** Erases the segments. */
  discard(): void {
    const s = require("Storage");
    for (let i = 0; i < this.count; i++) s.erase(this.tag + i);
    this.count = 0;
    this.lastCap = 0;
    this.size = 0;
    this.fill = 0;
  }
}
