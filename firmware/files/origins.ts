// Icon origins: where each icon came from (an address or a catalogue id, as the client says), kept
// per icon id in an AtomicRecord "iorg" (two copies with a sequence number and a checksum,
// core/persist.ts). Set and cleared by PUT and DELETE /api/v1/icons/origins, moved by a rename,
// dropped with the icon's last file, and shown in the icon folder's listing.
import { AtomicRecord } from "../core/persist";
import { recordFlash } from "./paths";

const RECORD = "iorg";

export interface Origins {
  map: { [id: string]: string };
  /** Both copies are there and neither checks out: the record cannot be read. */
  broken: boolean;
  save(): boolean;
}

export function openOrigins(): Origins {
  const rec = new AtomicRecord(recordFlash(), RECORD);
  const v = rec.load();
  const s = require("Storage");
  const stored = s.read(RECORD + ".0", 0, 1) !== undefined || s.read(RECORD + ".1", 0, 1) !== undefined;
  const map = v && typeof v === "object" ? v as { [id: string]: string } : {};
  return { map: map, broken: v === undefined && stored, save: () => rec.save(map) };
}

/** The icon id of an icon file name: without its .gif or .jpg. */
export function iconId(name: string): string {
  const ext = name.substr(name.length - 4);
  return ext === ".gif" || ext === ".jpg" ? name.substr(0, name.length - 4) : name;
}
