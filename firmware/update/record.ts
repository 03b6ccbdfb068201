// The slot record and the slots' file lists (firmware/update/README.md). The record is two copies,
// ".slots.0" and ".slots.1", in the layout of every other record (core/persist.ts: "<seq> <crc>
// <json>"), because the boot stage (update/boot-stage.js) reads and writes it too: it counts the
// starts of a release on trial there and puts the proven one back. Plain functions, no class: the
// update's modules carry their own copy of what they use, and pay for it in variables while loaded.

export const RECORD_BASE = ".slots.";

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

/** The record as read: its state, and where the next copy goes. */
export interface SlotRecord { state: SlotState; seq: number; copy: number }

function readCopy(S: StorageModule, i: number): SlotRecord | null {
  const raw = S.read(RECORD_BASE + i);
  if (!raw) return null;
  const a = raw.indexOf(" ");
  const b = a < 0 ? -1 : raw.indexOf(" ", a + 1);
  if (b < 0) return null;
  const body = raw.substr(b + 1);
  if (E.CRC32(body) !== parseInt(raw.substr(a + 1, b - a - 1), 10)) return null;
  try {
    const v = JSON.parse(body) as SlotState;
    if ((v.run !== "a" && v.run !== "b") || (v.good !== "a" && v.good !== "b")) return null;
    return { state: v, seq: parseInt(raw.substr(0, a), 10), copy: i };
  } catch (e) {
    return null;
  }
}

/** The newest copy that checks out, or the state of a clock flashed over USB and never updated since. */
export function loadRecord(): SlotRecord {
  const S = require("Storage");
  const c0 = readCopy(S, 0);
  const c1 = readCopy(S, 1);
  return c0 && c1 ? (c0.seq >= c1.seq ? c0 : c1) : c0 || c1 ||
    { state: { run: "a", good: "a", tries: 0, last: "idle", release: "", error: "", wait: 0 }, seq: 0, copy: 1 };
}

/**
 * Writes `state` into the copy that is not the newest, and reads it back; a copy that did not come
 * out whole is erased, so that it cannot pass for the newest. False when Storage refused.
 */
export function saveRecord(r: SlotRecord, state: SlotState): boolean {
  const S = require("Storage");
  const body = JSON.stringify(state);
  const name = RECORD_BASE + (1 - r.copy);
  const data = (r.seq + 1) + " " + E.CRC32(body) + " " + body;
  let ok = false;
  try {
    ok = S.write(name, data) && S.read(name) === data;
  } catch (e) {
    ok = false;
  }
  if (!ok) S.erase(name);
  return ok;
}

/** The other slot's letter. */
export function otherSlot(slot: string): string {
  return slot === "a" ? "b" : "a";
}

/** Storage names hold 28 characters, the slot prefix two of them. */
const NAME_MAX = 26;

/** Whether `name` can be a firmware file: 1 to 26 of [A-Za-z0-9._-], not starting with a dot. */
export function isFileName(name: string): boolean {
  return name.length <= NAME_MAX && /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name);
}

/** Whether `name` is a line of `list` (names, each ended by a newline). */
export function listed(list: string, name: string): boolean {
  if (list.substr(0, name.length + 1) === name + "\n") return true;
  const at = list.indexOf("\n" + name + "\n");
  // Espruino's indexOf also reports a needle cut off by the end of the text (core/text.ts).
  return at >= 0 && at + name.length + 2 <= list.length;
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

/** How many lines `list` has, or -1 when one is no file name or the last is not ended. */
export function countListed(list: string): number {
  let n = 0;
  for (let at = 0; at < list.length;) {
    const nl = list.indexOf("\n", at);
    if (nl < 0 || !isFileName(list.substr(at, nl - at))) return -1;
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
