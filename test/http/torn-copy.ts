// A power cut in the middle of a write, on the simulator: the newest of a record's two stored
// copies is cut short, and the device is started again on that flash.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startTarget, type Target } from "./target";

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
