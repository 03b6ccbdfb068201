// Why the device last started, across a restart the firmware causes itself. Espruino on the
// ESP32 does not report the chip's reset cause, so before restarting or sleeping the firmware
// leaves a small marker file; the next boot reads and erases it. No marker: a power-on (or a
// cause the firmware did not see coming, such as a crash or the watchdog).

const MARK_FILE = "pixloop.bootmark";

export type BootMark = "software" | "deepSleep";

/** Leaves the marker; call right before E.reboot() / deep sleep. */
export function markBoot(reason: BootMark): void {
  try {
    require("Storage").write(MARK_FILE, reason);
  } catch (e) {
    // flash full or failing: the next boot reports poweron
  }
}

/** Reads and erases the marker: "software", "deepSleep", or "poweron" when there was none. */
export function takeBootMark(): string {
  const Storage = require("Storage");
  let found = "poweron";
  try {
    const raw = Storage.read(MARK_FILE);
    if (raw !== undefined) {
      // Copy out as one of our own literals: erasing the file breaks a string mapped onto it.
      if (raw === "software") found = "software";
      else if (raw === "deepSleep") found = "deepSleep";
      Storage.erase(MARK_FILE);
    }
  } catch (e) {
    // unreadable flash: treat as a power-on
  }
  return found;
}
