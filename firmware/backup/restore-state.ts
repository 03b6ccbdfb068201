// What POST /api/v1/restore carries from reading the archive (restore.mod.ts) to applying its
// configuration entries and answering (restore-apply.mod.ts): plain data, so that the reader's
// code can be dropped once it is done.
import type { UploadSink } from "../http/upload";
import type { App } from "../app";

/** Warnings listed; past this many they are only counted. */
export const WARNINGS_MAX = 20;
/** The largest configuration entry read (the JSON body cap of the routes that apply them). */
export const JSON_MAX = 8192;
/** Longest part of an entry name a warning shows. */
export const NAME_SHOWN = 64;

// Entry kinds. By kind (settings 4, app order 5): the entry's name, the route handler that applies
// it, and its count in `applied` (restore-apply.mod.ts).
export const K_SKIP = 0;
export const K_MANIFEST = 1;
export const K_WIFI = 2;
export const K_SYSTEM = 3;
export const K_FILE = 6;

/**
 * The categories of `applied` as the answer names them, in its order (made when asked for): a configuration entry of
 * kind k counts at k - K_WIFI, a file of folder f (layout.ts, fileFolders) at A_FILES + f.
 */
export function appliedNames(): string {
  return "wifi system settings appLoop icons melodies palettes mp3 skipped";
}
export const A_FILES = 4;
export const A_SKIPPED = 8;

export interface RestoreState {
  /**
   * What was applied, by category, in the order of appliedNames() (an array of numbers costs a few
   * variables, an object of named counts a few per name): made an object for the answer only.
   */
  applied: Uint32Array;
  warnings: string[];
  /** Warnings past WARNINGS_MAX. */
  unlisted: number;
  /** Entries that could not be stored for want of room. */
  unsaved: number;
  /** Why the whole archive was refused, or "". */
  rejected: string;
  /**
   * Configuration entries read whole and waiting to be applied, in archive order: for each, its
   * kind, its length, the warnings given before it and its number, as "k,len,warned,n;". Its text
   * is in the Storage file `stash` + n.
   */
  queue: string;
  /** Prefix of the Storage files that hold configuration entries (files/store.ts sweeps "~" files). */
  stash: string;
}

/**
 * The restore's upload sink: a plain object whose methods are first those of the reader
 * (restore.mod.ts) and, once the archive's part has ended, those of the applying code
 * (restore-apply.mod.ts), so that nothing of the reader is held once its work is done. Its state
 * is plain data.
 */
export interface RestoreSink extends UploadSink {
  st: RestoreState;
  app: App;
}

/** Erases the Storage files of the configuration entries still queued: they will not be applied. */
export function dropQueue(st: RestoreState): void {
  const Storage = require("Storage");
  for (const rec of st.queue.split(";")) if (rec) Storage.erase(st.stash + rec.split(",")[3]);
  st.queue = "";
}

export function newState(): RestoreState {
  return {
    applied: new Uint32Array(9),
    warnings: [],
    unlisted: 0,
    unsaved: 0,
    rejected: "",
    queue: "",
    stash: "~" + (Math.floor(getTime()) >>> 0).toString(16).padStart(8, "0") +
      Math.floor(Math.random() * 256).toString(16).padStart(2, "0") + ".j",
  };
}

/** Warnings given so far, listed or not. */
export function warned(st: RestoreState): number {
  return st.warnings.length + st.unlisted;
}

/**
 * Adds a warning where it falls in archive order: after the first `before` warnings (all of them
 * when omitted). Only the first WARNINGS_MAX are listed.
 */
export function warn(st: RestoreState, text: string, before?: number): void {
  const w = st.warnings;
  const p = before === undefined ? warned(st) : before;
  if (p >= WARNINGS_MAX) {
    st.unlisted++;
    return;
  }
  w.splice(p, 0, text);
  if (w.length > WARNINGS_MAX) {
    w.pop();
    st.unlisted++;
  }
}

/** An entry's name as warnings show it. */
export function shownName(name: string): string {
  return name.length > NAME_SHOWN ? name.substr(0, NAME_SHOWN) + "..." : name;
}
