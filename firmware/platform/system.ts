// The interpreter and the chip: memory, clock, restarts.

export interface HeapFigures { freeBytes: number; usedVars: number; freeVars: number; totalVars: number }

export function heap(): HeapFigures {
  // false: no garbage collection; this runs on every status read.
  const m = process.memory(false);
  return { freeBytes: m.free * m.blocksize, usedVars: m.usage, freeVars: m.free, totalVars: m.total };
}

/** Milliseconds since 1970, from the interpreter's clock. */
export function nowMs(): number {
  return Math.floor(getTime() * 1000);
}

export function restart(): void {
  E.reboot();
}

export function deepSleep(ms: number): void {
  require("ESP32").deepSleep(ms * 1000);
}
