// The device log: every event is printed, as it always was, and its line is also kept in a ring of
// the newest lines that GET /api/v1/logs reads. The ring is one global object, made by the core at
// boot (./ring.ts): a module carries its own copy of this file, so a module-level variable here
// would be a second, empty log; through the global every copy writes to the one the core reads.
// What a copy holds is kept to log() itself: the ring brings the code that stamps and stores.

// The ring is the global PIXLOOP_LOG. The name is spelt out where it is used: a top-level string
// would be a variable for good in the core and in every module that logs.

export interface LogRing {
  /**
   * The lines, oldest first, each ended by a newline byte, from index 0 to `used`; what lies
   * beyond is stale. A typed array of fixed size: its cost never changes, however much is logged.
   */
  text: Uint8Array;
  used: number;
  /** Lines between 0 and `used`. */
  held: number;
  /** Number of the newest line, counted from 1 since boot; 0 before the first. */
  seq: number;
  /** When the log was opened (ms of the wall clock): the uptime of a line before the clock is set. */
  bootMs: number;
  /** The zone of the clock on screen (a time/tz Tz), once the display runs; lines before that are in UTC. */
  zone: unknown;
  /** Prints `text` and keeps it with the time (ring.ts logLine). */
  log: (ring: LogRing, text: string) => void;
}

/** The ring, or undefined when the core has not opened one (unit tests, tools). */
export function logRing(): LogRing | undefined {
  return (globalThis as unknown as { [name: string]: LogRing | undefined })["PIXLOOP_LOG"];
}

/** Prints an event and keeps it, with the time, among the newest lines. */
export function log(text: string): void {
  const ring = (globalThis as unknown as { [name: string]: LogRing | undefined })["PIXLOOP_LOG"];
  if (ring) ring.log(ring, text);
  else print(text);
}
