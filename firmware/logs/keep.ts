// How a line is stored in the log ring (./ring.ts): the time it starts with, and the copy into the
// ring's fixed buffer. Run only by the module logs/keep, loaded for each line logged.
import type { LogRing } from "./log";
import type { Tz } from "../time/tz";
import { utcOffsetMs } from "../time/tz";
import { nowMs } from "../platform/system";

/** The longest line kept, in bytes, its time included; a longer one is cut. */
export const LINE_MAX = 120;
/** The most lines kept, however short. */
export const LINES_MAX = 34;

/** A wall clock before this (November 2023) has not been set by the time server yet. */
const CLOCK_SET_MS = 1.7e12;

function two(n: number): string {
  return n < 10 ? "0" + n : "" + n;
}

/** "HH:MM:SS " in the clock's zone once the clock is set; before that "[   123s] ", the uptime. */
export function stampLine(ring: LogRing): string {
  const now = nowMs();
  if (now < CLOCK_SET_MS) return "[" + ("" + Math.max(0, Math.floor((now - ring.bootMs) / 1000))).padStart(6) + "s] ";
  const local = now + (ring.zone ? utcOffsetMs(ring.zone as Tz, now) : 0);
  const s = Math.floor(local / 1000) % 86400;
  return two(Math.floor(s / 3600)) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60) + " ";
}

/**
 * Appends one line as it is (no time). The oldest lines make room: what stays moves to the front
 * in one copy, so the text is always in order and is read without wrapping around.
 */
export function keepLine(ring: LogRing, line: string): void {
  // One event, one line: a newline inside a message (a stack, a payload) would split it.
  line = line.replace(/[\r\n]+/g, " ");
  const buf = ring.text;
  if (line.length > LINE_MAX) {
    // The cut goes back to the first byte of a UTF-8 sequence, never through one.
    let end = LINE_MAX;
    while (end > 0 && (line.charCodeAt(end) & 0xC0) === 0x80) end--;
    line = line.substr(0, end);
  }
  let cut = 0;
  while (ring.held > 0 && (ring.used - cut + line.length + 1 > buf.length || ring.held >= LINES_MAX)) {
    ring.held--;
    cut = ring.held > 0 ? buf.indexOf(10, cut) + 1 : ring.used;
  }
  if (cut > 0) {
    buf.set(buf.subarray(cut, ring.used), 0);
    ring.used -= cut;
  }
  buf.set(new Uint8Array(E.toArrayBuffer(line)), ring.used);
  ring.used += line.length;
  buf[ring.used++] = 10;
  ring.held++;
  ring.seq++;
}
