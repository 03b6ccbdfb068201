// The log ring itself (resident core only; see ./log.ts): its fixed buffer and what log() does
// with a line. How a line is stamped and stored is the module logs/keep (./keep.ts).
import type { LogRing } from "./log";
import { nowMs } from "../platform/system";
import { loadModule } from "../platform/modules";
import type KeepStamped from "./keep.mod";

/**
 * Bytes of text the ring holds: about 15 lines of the usual length. Allocated once as one typed
 * array, it costs the interpreter about 75 variables for good, and nothing more as lines come.
 */
export const LOG_BYTES = 1024;

// Set while a line is being kept: a line that loading the module logs itself (it is broken) is
// printed only, instead of loading the module again and again.
let keeping = false;

/** What log() does once the ring is open: the text printed as before, the line kept with its time. */
export function logLine(ring: LogRing, text: string): void {
  print(text);
  if (keeping) return;
  keeping = true;
  try {
    loadModule<typeof KeepStamped>("logs/keep")(ring, text);
  } catch (e) {
    // Without the module the line is printed, not kept.
  }
  keeping = false;
}

/** The log every log() call from now on writes to; `bytes` only for tests. */
export function openLog(bytes?: number): LogRing {
  const ring: LogRing = {
    text: new Uint8Array(bytes || LOG_BYTES),
    used: 0,
    held: 0,
    seq: 0,
    bootMs: nowMs(),
    zone: null,
    log: logLine,
  };
  // From now on every log() writes to it (./log.ts).
  (globalThis as unknown as { [name: string]: LogRing | undefined })["PIXLOOP_LOG"] = ring;
  return ring;
}
