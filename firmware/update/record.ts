// The slot record: which set of firmware files runs and which one last proved itself
// (firmware/update/README.md). Two copies, ".slots.0" and ".slots.1", in the layout of every other
// record (core/persist.ts), because the boot stage (update/boot-stage.js) reads and writes it
// too: it counts the starts of a release on trial there and puts the proven one back.
import { AtomicRecord } from "../core/persist";
import { findText } from "../core/text";
import { flash } from "../platform/flash";

export const RECORD_BASE = ".slots";

/** The bundle's name in a slot. */
export const BUNDLE = "main.js";
/** The list of a slot's files, one name a line: what erasing the slot erases. */
export const MANIFEST = "manifest";

/** How long a release on trial runs before it may confirm itself, unless its package says. */
export const WAIT_MS = 60000;

export interface SlotState {
  /** The slot the boot stage starts: "a" or "b". */
  run: string;
  /** The slot of the last release that proved itself; run differs from it while a release is on trial. */
  good: string;
  /** Starts of the release on trial so far. */
  tries: number;
  /** How the last update ended: idle (none yet), confirmed or failed. */
  last: string;
  /** Version of the release the last update brought. */
  release: string;
  /** Why the last update failed, or "". */
  error: string;
  /** How long the release on trial must run before it confirms itself, ms (0: WAIT_MS). */
  wait: number;
}

function isSlot(s: unknown): boolean {
  return s === "a" || s === "b";
}

/** The record as stored, or the state of a clock flashed over USB and never updated since. */
export function openRecord(): { record: AtomicRecord; state: SlotState } {
  const record = new AtomicRecord(flash, RECORD_BASE);
  const v = record.load() as SlotState | undefined;
  const state: SlotState = v && typeof v === "object" && isSlot(v.run) && isSlot(v.good) ? v
    : { run: "a", good: "a", tries: 0, last: "idle", release: "", error: "", wait: 0 };
  return { record, state };
}

/** The other slot's letter. */
export function otherSlot(slot: string): string {
  return slot === "a" ? "b" : "a";
}

/** Whether `name` is a line of `list` (names, each ended by a newline). */
export function listed(list: string, name: string): boolean {
  return list.substr(0, name.length + 1) === name + "\n" || findText(list, "\n" + name + "\n") >= 0;
}

/** Storage names hold 28 characters, the slot prefix two of them. */
const NAME_MAX = 26;

/** Whether `name` can be a firmware file: 1 to 26 of [A-Za-z0-9._-], not starting with a dot. */
export function isFileName(name: string): boolean {
  return name.length <= NAME_MAX && /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name);
}

/** Calls `fn` with each name of `list` but the list's own (anything that is no file name is passed over). */
export function eachListed(list: string, fn: (name: string) => void): void {
  for (let at = 0; at < list.length;) {
    let nl = list.indexOf("\n", at);
    if (nl < 0) nl = list.length;
    const name = list.substr(at, nl - at);
    if (name !== MANIFEST && isFileName(name)) fn(name);
    at = nl + 1;
  }
}

/** How many lines `list` has, and whether each is a file name. */
export function countListed(list: string): number {
  let n = 0;
  for (let at = 0; at < list.length;) {
    let nl = list.indexOf("\n", at);
    if (nl < 0) return -1;
    if (!isFileName(list.substr(at, nl - at))) return -1;
    n++;
    at = nl + 1;
  }
  return n;
}

/**
 * Erases the files of the slot behind `prefix`, as its manifest names them, the manifest last (a
 * string mapped onto an erased file breaks, and an erase cut short must leave the list behind).
 */
export function eraseSlot(S: StorageModule, prefix: string): void {
  const list = S.read(prefix + MANIFEST);
  if (list !== undefined) eachListed(list, (name) => S.erase(prefix + name));
  S.erase(prefix + MANIFEST);
}
