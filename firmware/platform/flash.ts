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
  list: () => Storage.list(),
  free: () => Storage.getFree(),
};
