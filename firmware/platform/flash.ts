// Storage, the device's flat flash filesystem.
import type { RecordFlash } from "../core/persist";

const Storage = require("Storage");

export const flash: RecordFlash & {
  list(): string[];
  free(): number;
} = {
  read: (name) => Storage.read(name),
  write: (name, data) => Storage.write(name, data),
  erase: (name) => Storage.erase(name),
  crc: (data) => E.CRC32(data),
  // A record is then written as its header and its text, never the two joined (core/persist.ts):
  // the settings or system configuration saved is not copied once more for the write.
  writeAt: (name, data, offset, size) => Storage.write(name, data, offset, size),
  readAt: (name, offset, length) => Storage.read(name, offset, length),
  list: () => Storage.list(),
  free: () => Storage.getFree(),
};
