// What POST /api/v1/restore carries from reading the archive (restore-stream.mod.ts) to applying
// its configuration entries (restore-apply.mod.ts) and to its answer (restore.mod.ts): plain data,
// so that each part's code can be dropped once it is done.

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

export interface RestoreState {
  applied: { [category: string]: number };
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

/** What reads the archive as it arrives (restore-stream.mod.ts). */
export interface ArchiveReader {
  /** The next bytes of the archive. */
  feed(chunk: string): void;
  /** The archive's part ended. */
  end(): void;
  /** The upload was cut short: what was not published is undone. */
  abort(): void;
}

export function newState(): RestoreState {
  return {
    applied: { wifi: 0, system: 0, settings: 0, appLoop: 0, icons: 0, melodies: 0, palettes: 0, mp3: 0, skipped: 0 },
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
