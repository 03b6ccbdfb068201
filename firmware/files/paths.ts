// Where the API's files live in Storage, whose namespace is flat with names of at most 28
// characters. Two schemes, one per name length:
//
// - Short: one letter for the folder, a slash, then the file name ("/ICONS/mail.gif" is
//   "I/mail.gif"), for every name that fits (26 characters at most). Readers that know a file's
//   name find it without anything else (icons, palettes).
// - Long: the letter, a tilde, and 8 hex digits of E.CRC32 of the letter and the name, with one
//   more digit (1-9) when another long name already took those ("/MP3/<36 characters>" is
//   "3~0c1d2e3f"). The index, an AtomicRecord "fidx" (two copies with a sequence number and a
//   checksum, core/persist.ts), maps each such Storage name to its file name; a long name is
//   found, listed and removed through it, and a file under a long name is published by writing it
//   under a fresh Storage name and then saving the index, so replacing one is atomic. A Storage
//   file of this form that the index does not name is a leftover of a cut-short publication.
//
// Nothing else of the API's starts with a folder letter followed by "/" or "~".
import { AtomicRecord, type RecordFlash } from "../core/persist";

/** The folders of the files API and their letters in Storage names. */
const FOLDERS = "/ICONS I /MELODIES M /PALETTES P /MP3 3";

/** Storage's longest file name. */
export const STORAGE_NAME_MAX = 28;

/** The index of long names (core/persist.ts: "fidx.0" and "fidx.1"). */
export const LONG_INDEX = "fidx";

/** The folders, as the API spells them. */
export function folders(): string[] {
  const words = FOLDERS.split(" ");
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 2) out.push(words[i]);
  return out;
}

/** The Storage name prefix ("I/") of folder `dir` ("/ICONS"), or "" when it is not a folder of the API. */
export function folderPrefix(dir: string): string {
  const words = FOLDERS.split(" ");
  for (let i = 0; i < words.length; i += 2) if (words[i] === dir) return words[i + 1] + "/";
  return "";
}

/** The folder ("/ICONS") whose letter starts Storage name `stored`, or "". */
export function folderOfStored(stored: string): string {
  const words = FOLDERS.split(" ");
  for (let i = 1; i < words.length; i += 2) if (words[i] === stored.charAt(0)) return words[i - 1];
  return "";
}

/** Whether file `name` of folder `dir` is kept under the short scheme. */
export function isShort(dir: string, name: string): boolean {
  return folderPrefix(dir).length + name.length <= STORAGE_NAME_MAX;
}

/** Storage as the index record reads and writes it. */
export function recordFlash(): RecordFlash {
  const s = require("Storage");
  return {
    read: (n) => s.read(n),
    write: (n, d) => s.write(n, d),
    erase: (n) => s.erase(n),
    crc: (d) => E.CRC32(d),
    writeAt: (n, d, o, z) => s.write(n, d, o, z),
    readAt: (n, o, l) => s.read(n, o, l),
  };
}

/** The index of long names, read: Storage name to file name; `save` writes `map` back. */
export interface LongIndex {
  map: { [stored: string]: string };
  save(): boolean;
}

export function openLongIndex(): LongIndex {
  const rec = new AtomicRecord(recordFlash(), LONG_INDEX);
  const v = rec.load();
  const map = v && typeof v === "object" ? v as { [stored: string]: string } : {};
  return { map: map, save: () => rec.save(map) };
}

/** The index of long names: Storage name to file name. Empty when there is none yet. */
export function longIndex(): { [stored: string]: string } {
  return openLongIndex().map;
}

/** The Storage name the index gives file `name` of folder `dir`, or "". */
export function findLong(index: { [stored: string]: string }, dir: string, name: string): string {
  const letter = folderPrefix(dir).charAt(0);
  for (const stored in index) if (stored.charAt(0) === letter && stored.charAt(1) === "~" && index[stored] === name) return stored;
  return "";
}

/**
 * The Storage name of file `name` in folder `dir`: its short name when it fits (whether or not
 * the file exists), else the one the index of long names gives it; "" when the folder is unknown,
 * the name empty, or a long name not stored.
 */
export function storageName(dir: string, name: string): string {
  const prefix = folderPrefix(dir);
  if (!prefix || !name) return "";
  if (isShort(dir, name)) return prefix + name;
  return findLong(longIndex(), dir, name);
}
