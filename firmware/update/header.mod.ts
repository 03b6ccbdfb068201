// POST /update's refusals from the package's header (firmware/update/README.md), decided before
// anything is written: loaded for that moment and dropped again, so that the code streaming the
// package in does not hold it.
import type { App } from "../app";
import { failure, type Failure } from "../core/failure";
import { log } from "../logs/log";
import { eraseSlot } from "./record";

/** First line of every package: the format and its revision. */
const MAGIC = "pixloop-update 1";
const PRODUCT = "pixloop";
/** The largest package the specification allows. */
const PACKAGE_MAX = 8388608;
/** What Storage spends on a file besides its bytes: a 32-byte header, and padding to 4 bytes. */
const FILE_OVERHEAD = 35;
/** Storage left free for what the clock writes while it runs (settings, records, logs). */
const STORAGE_RESERVE = 16384;

interface CryptoModule { SHA256(data: string): ArrayBuffer }
interface StorageStats { freeBytes: number; trashBytes?: number }

/** What the header says of a package this clock takes. */
export interface Accepted {
  version: string;
  files: number;
  /** Bytes after the header. */
  length: number;
  sha256: string;
  /** How long the release must run before it confirms itself (ms, 0: the standard minute). */
  wait: number;
  /** The hash chain's start: SHA-256 of the header up to its digest line, 32 bytes. */
  digest: string;
}

function wrongChip(message: string): Failure {
  return failure(400, "wrongChip", message);
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

/**
 * The value of header line `key` in `text` (before `end`), or "": read in place, no lines split
 * off (this runs with the first pieces of the upload in hand, and holds what it makes meanwhile).
 */
function field(text: string, end: number, key: string): string {
  const at = text.indexOf("\n" + key + " ");
  if (at < 0 || at >= end) return "";
  const from = at + key.length + 2;
  const nl = text.indexOf("\n", from);
  return text.substr(from, (nl < 0 || nl > end ? end : nl) - from);
}

/**
 * The header (`text` up to `end`, the newline before its blank line) checked against this clock
 * and Storage. Accepted: the update is under way (device state `applying`) and the slot behind
 * `prefix` empty.
 */
function header(app: App, text: string, end: number, prefix: string): Accepted | Failure {
  if (text.substr(0, MAGIC.length + 1) !== MAGIC + "\n") {
    if (text.charCodeAt(0) === 0xe9) return wrongChip("this is an image for a first flash over USB (esptool), not an update");
    return wrongChip("not a pixloop firmware package");
  }
  const board = app.board;
  const product = field(text, end, "product");
  if (product !== PRODUCT) return wrongChip("a firmware package of another product (" + product + ")");
  const chip = field(text, end, "chip");
  if (chip !== board.soc) return wrongChip("built for the " + chip + " chip; this clock is an " + board.soc);
  const psram = field(text, end, "psram");
  if (psram !== board.fitted.psram) {
    return wrongChip("built for " + psram + " PSRAM; this clock has " + board.fitted.psram + " (its update file is " + board.updateImage + ")");
  }
  const id = field(text, end, "board");
  if (id !== board.id) return wrongChip("built for the " + id + " board; this clock takes " + board.updateImage);
  const count = field(text, end, "files");
  const size = field(text, end, "length");
  const files = /^[0-9]+$/.test(count) ? parseInt(count, 10) : 0;
  const length = /^[0-9]+$/.test(size) ? parseInt(size, 10) : -1;
  const sha = field(text, end, "sha256");
  const at = text.indexOf("\nsha256 ");
  if (files < 2 || length < 0 || sha.length !== 64 || !/^[0-9a-f]+$/.test(sha) || at < 0 || at >= end) {
    return wrongChip("the package's header is damaged");
  }
  const version = field(text, end, "version");
  const newer = isNewer(version, app.version);
  if (newer === null) return wrongChip("the package's version is not one (" + version + ")");
  // The header, its blank line, the files.
  if (end + 2 + length > PACKAGE_MAX) return failure(413, "payloadTooLarge", "a firmware package is at most " + PACKAGE_MAX + " bytes");
  if (!newer) return failure(409, "notNewer", "release " + version + " is not newer than the running " + app.version);
  // New files go where Storage has not been written since it was last compacted; what erased
  // files hold comes back only when the boot stage compacts, never while the firmware runs
  // (compacting moves the files its code runs from).
  const S = require("Storage") as StorageModule & { getStats(): StorageStats };
  const stats = S.getStats();
  const need = length + files * FILE_OVERHEAD + STORAGE_RESERVE;
  if (need > stats.freeBytes) {
    const reclaim = stats.trashBytes || 0;
    return failure(409, "insufficientStorage", "the package needs " + need + " bytes of free Storage and " + stats.freeBytes +
      " are free" + (stats.freeBytes + reclaim >= need ? "; " + reclaim + " more come back when the clock restarts" +
      " (POST /api/v1/device/reboot), then try again" : ""));
  }
  const asked = field(text, end, "wait");
  const wait = /^[0-9]+$/.test(asked) ? parseInt(asked, 10) : 0;
  app.update = { state: "applying", release: version, error: "" };
  log("update: taking release " + version + " into slot " + prefix.charAt(0));
  // Empty after every start (the boot stage sees to it); not if an update was cut off since.
  eraseSlot(S, prefix);
  const sha256 = (require as unknown as (name: string) => CryptoModule)("crypto").SHA256;
  return {
    version, files, length, sha256: sha,
    wait: wait === 0 ? 0 : wait < 1000 ? 1000 : wait > 600000 ? 600000 : wait,
    digest: E.toString(new Uint8Array(sha256(text.substr(0, at + 1)))),
  };
}

export default header;
