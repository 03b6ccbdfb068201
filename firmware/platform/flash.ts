// Storage, the device's flat flash filesystem, as the records read and write it.
import type { RecordFlash } from "../core/persist";

const Storage = require("Storage");

export const flash: RecordFlash = {
  read: (name: string, offset?: number, length?: number) => Storage.read(name, offset, length),
  write: (name: string, data: string, offset?: number, size?: number) => Storage.write(name, data, offset, size),
  erase: (name) => Storage.erase(name),
  crc: (data) => E.CRC32(data),
};
// Storage.read and Storage.write take the whole-file and the in-place forms alike, so one function
// serves both. A record is then written as its header and its text, never the two joined
// (core/persist.ts): the settings or system configuration saved is not copied once more for the
// write.
flash.writeAt = flash.write;
flash.readAt = flash.read;
