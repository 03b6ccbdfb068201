// Storage, the device's flat flash filesystem.
import type { RecordFlash } from "../core/persist";

const Storage = require("Storage");

// Storage's and E's functions taken as they are rather than wrapped: they are static (they need no
// `this`), so each entry costs the interpreter a reference to a built-in, while a wrapping
// function per entry held its code, its parameters and its name for as long as the firmware runs.
export const flash: RecordFlash & {
  list(): string[];
  free(): number;
} = {
  read: Storage.read,
  write: Storage.write,
  erase: Storage.erase,
  crc: E.CRC32,
  // A record is then written as its header and its text, never the two joined (core/persist.ts):
  // the settings or system configuration saved is not copied once more for the write.
  writeAt: Storage.write,
  readAt: Storage.read,
  list: Storage.list,
  free: Storage.getFree,
};
