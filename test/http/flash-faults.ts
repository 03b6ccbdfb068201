// Flash faults on the simulator: a power cut in the middle of a write (the newest of a record's
// two stored copies cut short, the device started again on that flash), and a full flash.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startTarget, type Target } from "./target";
import type { SimStorage } from "../harness/storage";

/** Fills what is left of the simulated flash, so that the next record copy cannot be written. */
export function fillFlash(storage: SimStorage): void {
  let i = 0;
  while (storage.getFree() > 64) {
    const size = Math.max(1, Math.min(60000, storage.getFree() - 40));
    if (!storage.write("filler" + i++, "\xff".repeat(size))) break;
  }
}

/**
 * Runs `write` on a fresh device, tears the newest copy of record `base` (its files are
 * `<base>.0` and `<base>.1`), restarts on the same flash and hands the restarted device to
 * `check`. Only on the simulator (the test needs its flash); elsewhere it does nothing.
 */
export async function afterTornWrite(base: string, write: (t: Target) => Promise<void>,
  check: (t: Target) => Promise<void>): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-torn-"));
  try {
    const first = await startTarget({ dataDir });
    const sim = first.sim;
    if (!sim) {
      await first.stop();
      return;
    }
    await write(first);
    const storage = sim.device.storage;
    const copies = storage.list(new RegExp("^" + base + "\\.")).map((n) => ({ n, seq: parseInt(storage.read(n)!.split(" ")[0], 10) }));
    copies.sort((a, b) => b.seq - a.seq);
    if (copies.length !== 2) throw new Error("expected two copies of " + base + ", found " + copies.length);
    const newest = storage.read(copies[0].n)!;
    storage.write(copies[0].n, newest.slice(0, newest.length - 5));
    await sim.device.stop();
    const second = await startTarget({ dataDir });
    try {
      await check(second);
    } finally {
      await second.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
