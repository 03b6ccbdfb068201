// Which paths and names the files API takes. A file sits directly in one of the four folders
// (paths.ts); anything with "..", a "/" or "\" in its name, an absolute upload name or another
// folder is refused as invalidPath before a byte is written. Names are at most NAME_MAX bytes of
// anything but control characters. MP3s and melodies are played by name, so theirs are stricter:
// an MP3 is `<1-32 of A-Za-z0-9_->.mp3`, a melody `<1-24 of A-Za-z0-9_->.txt` (the melody
// routes' names), and an MP3 and a melody may not share a name (409 nameTaken).
import type { Failure } from "../core/failure";
import { failure } from "../core/failure";
import { folderPrefix, folders, storageName } from "./paths";

/** Longest file name: an icon id is at most 64 characters, its file name 4 more. */
export const NAME_MAX = 68;
const MP3_MAX = 32;
const MELODY_MAX = 24;

export interface Target { dir: string; name: string }

export function invalidPath(): Failure {
  return failure(400, "invalidPath", "path must be a file directly in /ICONS, /MELODIES, /PALETTES or /MP3");
}

export function notFound(): Failure {
  return failure(404, "notFound", "file not found");
}

/** `name` is 1-`max` of A-Za-z0-9_- followed by `ext`. */
function plainWithExt(name: string, ext: string, max: number): boolean {
  const base = name.substr(0, name.length - ext.length);
  return name.endsWith(ext) && base.length >= 1 && base.length <= max && /^[A-Za-z0-9_-]+$/.test(base);
}

/**
 * Refusal of file name `name` in folder `dir` (a folder of the API), or null. `loose`: only what
 * makes a path unusable (a file stored under another name is still found and removed).
 */
export function checkName(dir: string, name: string, field?: string, loose?: boolean): Failure | null {
  // split, not indexOf: Espruino's indexOf finds ".." in a name that merely ends with ".".
  if (name.indexOf("/") >= 0 || name.indexOf("\\") >= 0 || name.split("..").length > 1) return invalidPath();
  if (name === "" || name === "." || name.length > NAME_MAX) {
    return failure(400, "invalidName", "file name must be 1-" + NAME_MAX + " characters", field);
  }
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 32 || c === 127) return failure(400, "invalidName", "file name holds a control character", field);
  }
  if (loose) return null;
  if (dir === "/MP3" && !plainWithExt(name, ".mp3", MP3_MAX)) {
    return failure(400, "invalidName", "an MP3 is named 1-32 characters of A-Za-z0-9_- and .mp3", field);
  }
  if (dir === "/MELODIES" && !plainWithExt(name, ".txt", MELODY_MAX)) {
    return failure(400, "invalidName", "a melody is named 1-24 characters of A-Za-z0-9_- and .txt", field);
  }
  return null;
}

/** A Storage name of the file, when it exists; "" otherwise. */
export function existing(dir: string, name: string): string {
  const stored = storageName(dir, name);
  return stored && require("Storage").read(stored, 0, 1) !== undefined ? stored : "";
}

/** 409 when file `name` of `dir` would give an MP3 and a melody the same name. */
export function nameClash(dir: string, name: string): Failure | null {
  let other = "";
  if (dir === "/MP3") other = existing("/MELODIES", name.substr(0, name.length - 4) + ".txt");
  else if (dir === "/MELODIES") other = existing("/MP3", name.substr(0, name.length - 4) + ".mp3");
  return other ? failure(409, "nameTaken", "an MP3 and a melody may not share a name") : null;
}

/**
 * The folder an upload goes to: `dir` from the query (default /ICONS; a missing leading "/" is
 * added and one trailing "/" dropped), or "" when that is no folder of the API.
 */
export function uploadFolder(dir: string | undefined): string {
  let d = dir === undefined || dir === "" ? "/ICONS" : dir;
  if (d.charAt(0) !== "/") d = "/" + d;
  if (d.length > 1 && d.charAt(d.length - 1) === "/") d = d.substr(0, d.length - 1);
  return folderPrefix(d) ? d : "";
}

/** The folder a listing reads: `dir` as given (default /ICONS, one trailing "/" dropped). */
export function listFolder(dir: string | undefined): string {
  let d = dir === undefined || dir === "" ? "/ICONS" : dir;
  if (d.length > 1 && d.charAt(d.length - 1) === "/") d = d.substr(0, d.length - 1);
  return folderPrefix(d) ? d : "";
}

/** The file a full path ("/ICONS/mail.gif") names, or a refusal. */
export function parsePath(path: string | undefined): Target | Failure {
  if (!path) return invalidPath();
  const all = folders();
  for (let i = 0; i < all.length; i++) {
    const dir = all[i];
    if (path.substr(0, dir.length + 1) === dir + "/") {
      const name = path.substr(dir.length + 1);
      // The folder itself is no file.
      if (name === "") return invalidPath();
      const bad = checkName(dir, name, undefined, true);
      return bad ? bad : { dir: dir, name: name };
    }
  }
  return invalidPath();
}
