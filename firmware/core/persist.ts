// Records that survive a power cut at any moment. Espruino's Storage.write over an existing file
// erases it before writing, so each record alternates between two files, "<base>.0" and
// "<base>.1"; each copy carries a sequence number and a checksum, and a load takes the newest copy
// that checks out.

export interface RecordFlash {
  read(name: string): string | undefined;
  write(name: string, data: string): boolean;
  erase(name: string): void;
  crc(data: string): number;
  /**
   * Optional, with readAt: writes `data` at byte `offset` of file `name`; the write at offset 0
   * makes the file `size` bytes long (Storage.write's four-argument form). A record is then
   * written as its header and its text, without a copy of the text joined to the header.
   */
  writeAt?(name: string, data: string, offset: number, size: number): boolean;
  /** `length` bytes of file `name` from `offset` (Storage.read's three-argument form). */
  readAt?(name: string, offset: number, length: number): string | undefined;
}

interface Loaded { value: unknown; seq: number; slot: number }

/**
 * Copy `slot` of record `base` when its checksum checks out (null when it does not): its sequence
 * number and, with `parse`, its value (null when its text is not JSON).
 */
function readSlot(flash: RecordFlash, base: string, slot: number, parse: boolean): Loaded | null {
  const raw = flash.read(base + "." + slot);
  if (!raw) return null;
  // Layout: "<seq> <crc> <json>"
  const a = raw.indexOf(" ");
  const b = a < 0 ? -1 : raw.indexOf(" ", a + 1);
  if (b < 0) return null;
  const seq = parseInt(raw.substr(0, a), 10);
  const crc = parseInt(raw.substr(a + 1, b - a - 1), 10);
  const body = raw.substr(b + 1);
  if (isNaN(seq) || flash.crc(body) !== crc) return null;
  if (!parse) return { value: undefined, seq, slot };
  try {
    return { value: JSON.parse(body), seq, slot };
  } catch (e) {
    return null;
  }
}

export class AtomicRecord {
  /** Sequence number and slot of the newest copy (read and reset by eraseRecord too). */
  seq = 0;
  slot = 1;

  constructor(readonly flash: RecordFlash, readonly base: string) {}

  /** The newest intact copy, or undefined when neither copy checks out. */
  load(): unknown {
    // The copies are checked first and only the newer intact one is parsed (one whose text is not
    // JSON gives way to the other): two values of a large record are never in memory at once.
    const a = readSlot(this.flash, this.base, 0, false);
    const b = readSlot(this.flash, this.base, 1, false);
    const best = a && b ? (a.seq >= b.seq ? a : b) : a || b;
    if (!best) return undefined;
    const other = best === a ? b : a;
    let got = readSlot(this.flash, this.base, best.slot, true);
    if (!got && other) got = readSlot(this.flash, this.base, other.slot, true);
    if (!got) return undefined;
    this.seq = got.seq;
    this.slot = got.slot;
    return got.value;
  }

  /** Writes into the slot that does not hold the newest copy; false when the flash refused. */
  save(value: unknown): boolean {
    const flash = this.flash;
    const body = JSON.stringify(value);
    const next = this.slot ? 0 : 1;
    const name = this.base + "." + next;
    const head = (this.seq + 1) + " " + flash.crc(body) + " ";
    let written = false;
    try {
      if (flash.writeAt && flash.readAt) {
        // In two pieces, each read back in place: the text is never joined to its header.
        const size = head.length + body.length;
        written = flash.writeAt(name, head, 0, size) && flash.writeAt(name, body, head.length, size) &&
          (flash.read(name) || "").length === size && flash.readAt(name, 0, head.length) === head &&
          flash.readAt(name, head.length, body.length) === body;
      } else {
        const data = head + body;
        written = flash.write(name, data) && flash.read(name) === data;
      }
    } catch (e) {
      written = false;
    }
    if (!written) {
      // A torn or refused copy must not outrank the good one at the next boot.
      try { this.flash.erase(name); } catch (e) { /* already gone */ }
      return false;
    }
    this.seq++;
    this.slot = next;
    return true;
  }
}

/**
 * Erases both copies of `record`. A function rather than a method: only a request's module erases
 * a record, and a method would stay in memory with the class.
 */
export function eraseRecord(record: AtomicRecord): void {
  record.flash.erase(record.base + ".0");
  record.flash.erase(record.base + ".1");
  record.seq = 0;
  record.slot = 1;
}
