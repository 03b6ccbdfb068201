// Store-only ZIP archives as streams: the reader takes an archive in pieces of any size and hands
// on each entry's bytes as they arrive, checking every entry's CRC-32 and size; the writer's
// helpers make the headers of an archive that is sent in pieces. Neither ever holds an entry.
//
// Reading needs no central directory: each entry is found by its local header. An entry whose
// header leaves its sizes to a data descriptor after the data (flag bit 3, what streaming writers
// make) has its end found by looking for a descriptor that fits what came before it exactly:
// sizes equal to the bytes so far, the CRC-32 of those bytes (stored entries), and a signature
// right after it (or the end of the input). The last DESCRIPTOR_MAX + 4 bytes are held back until
// they can be told apart from data.
import { crcSeed } from "../core/crc32";

/** What the reader tells of an entry when its header has been read. */
export interface ZipEntry {
  /** As stored: bytes, UTF-8 or not. */
  name: string;
  /** The stored name was longer than NAME_MAX and `name` holds only its beginning. */
  clipped: boolean;
  /** 0: stored. */
  method: number;
  encrypted: boolean;
  /** Bytes of data as the local header declares them; -1 when a data descriptor gives them. */
  size: number;
}

/** Where the reader sends what it finds. */
export interface ZipConsumer {
  /** An entry begins; true to receive its bytes (only stored, unencrypted entries can be taken). */
  open(entry: ZipEntry): boolean;
  /** The next bytes of the entry taken. */
  bytes(data: string): void;
  /** The entry ended (each open has its close): "" when its size and CRC-32 check out, else why not. */
  close(problem: string): void;
}

/** The longest entry name kept. */
export const NAME_MAX = 255;
/** A data descriptor with its signature and 64-bit sizes. */
const DESCRIPTOR_MAX = 24;
const HOLD = DESCRIPTOR_MAX + 4;
const HEADER = 26;
/** The most of an extra field kept: it is read only for ZIP64 sizes. */
const EXTRA_MAX = 256;
const FLAG_ENCRYPTED = 1;
const FLAG_DESCRIPTOR = 8;
const FLAG_UTF8 = 0x800;
const UNKNOWN = 0xFFFFFFFF;

const S_SIG = 0;
const S_HEAD = 1;
const S_NAME = 2;
const S_EXTRA = 3;
const S_DATA = 4;
const S_SCAN = 5;
/** States from here on take no more input. */
const S_DONE = 6;
const S_FAIL = 7;

/** The CRC-32 of data whose CRC-32 is `crc`, followed by `more`. */
export function crcAdd(crc: number, more: string): number {
  return more.length ? E.CRC32(crcSeed(crc) + more) >>> 0 : crc;
}

export function u16(s: string, at: number): number {
  return s.charCodeAt(at) | (s.charCodeAt(at + 1) << 8);
}

export function u32(s: string, at: number): number {
  return (u16(s, at) | (u16(s, at + 2) << 16)) >>> 0;
}

/** Two signature bytes after "PK" that may follow an entry: another entry, the central directory, an end record. */
function isHeaderSig(a: number, b: number): boolean {
  return (a === 3 && b === 4) || (a === 1 && b === 2) || (a === 5 && b === 6) || (a === 6 && b === 6);
}

// Names of more than four characters cost the interpreter a variable more each (on the instance
// and on the prototype): hence the short private names.
export class ZipReader {
  /** Why reading stopped before the central directory; "" while all is well. */
  error: string;
  /** The central directory was reached: every entry has been read. */
  done: boolean;
  /** Entries whose header was read. */
  entries: number;
  private to: ZipConsumer;
  private st: number;
  private fin: boolean;
  /** The step needs more input than there is. */
  private more: boolean;
  private buf: string;
  /** Header fields of the entry being read (after its signature), then its name and ZIP64 extra. */
  private head: string;
  private name: string;
  private ext: string;
  /** Name or extra bytes, or (stored sizes) data bytes, still to come. */
  private left: number;
  private ent: ZipEntry | null;
  private tk: boolean;
  /** Data bytes of the entry so far, and their CRC-32. */
  private cnt: number;
  private crc: number;
  /** Where the descriptor find() found ends. */
  private hit: number;

  constructor(to: ZipConsumer) {
    this.to = to;
    this.error = "";
    this.done = false;
    this.entries = 0;
    this.st = S_SIG;
    this.fin = false;
    this.more = false;
    this.buf = "";
    this.head = "";
    this.name = "";
    this.ext = "";
    this.left = 0;
    this.ent = null;
    this.tk = false;
    this.cnt = 0;
    this.crc = 0;
    this.hit = 0;
  }

  /** The next bytes of the archive. */
  feed(piece: string): void {
    if (this.st >= S_DONE) return;
    let s = piece;
    if (this.buf) {
      const held = this.buf;
      this.buf = "";
      // Data held back for a descriptor that might start in it: settled against the start of this
      // piece without joining the two (a copy of the piece), unless a descriptor does start there.
      if (this.st === S_SCAN && piece.length >= HOLD && this.find(held + piece.substr(0, HOLD), 0, held.length) < 0) {
        if (this.tk) this.pass(held);
        this.cnt += held.length;
      } else {
        s = held + piece;
      }
    }
    let at = 0;
    this.more = false;
    while (!this.more && this.st < S_DONE && (at < s.length || this.fin)) at = this.step(s, at);
    if (this.st < S_DONE && at < s.length) this.buf = s.substr(at);
  }

  /** The archive ended: an entry still open is cut short, and an archive without its directory is truncated. */
  end(): void {
    if (this.st >= S_DONE) return;
    this.fin = true;
    this.feed("");
    if (this.st >= S_DONE) return;
    if (this.st === S_DATA || this.st === S_SCAN) this.to.close("the archive ends inside it");
    this.fail(this.st !== S_SIG ? "the archive is cut short" :
      this.entries > 0 ? "the archive ends before its central directory" : "not a ZIP archive");
  }

  /** Reads no further: what is still to come is ignored. */
  stop(): void {
    this.st = S_FAIL;
    this.buf = "";
  }

  private fail(why: string): void {
    this.error = why;
    this.st = S_FAIL;
    this.buf = "";
  }

  /** Runs the current state on `s` from `at`; returns where the next one starts. */
  private step(s: string, at: number): number {
    const avail = s.length - at;
    const st = this.st;
    if (st === S_SIG || st === S_HEAD) {
      const need = st === S_SIG ? 4 : HEADER;
      if (avail < need) {
        this.more = true;
        return at;
      }
      if (st === S_HEAD) {
        this.head = s.substr(at, HEADER);
        this.name = "";
        this.left = u16(this.head, 22);
        this.st = S_NAME;
      } else if (s.substr(at, 4) === "PK\x03\x04") {
        this.st = S_HEAD;
      } else if (s.charCodeAt(at) === 0x50 && s.charCodeAt(at + 1) === 0x4B &&
        isHeaderSig(s.charCodeAt(at + 2), s.charCodeAt(at + 3))) {
        this.done = true;
        this.st = S_DONE;
        this.buf = "";
        return s.length;
      } else {
        this.fail(this.entries ? "no entry header after entry " + this.entries : "not a ZIP archive");
      }
      return at + need;
    }
    if (st === S_NAME || st === S_EXTRA) {
      const n = Math.min(this.left, avail);
      if (st === S_NAME && this.name.length < NAME_MAX) this.name += s.substr(at, Math.min(n, NAME_MAX - this.name.length));
      if (st === S_EXTRA && this.ext.length < EXTRA_MAX) this.ext += s.substr(at, Math.min(n, EXTRA_MAX - this.ext.length));
      this.left -= n;
      if (this.left > 0) {
        this.more = true;
      } else if (st === S_NAME) {
        this.st = S_EXTRA;
        this.ext = "";
        this.left = u16(this.head, 24);
      } else {
        this.beg();
      }
      return at + n;
    }
    if (st === S_DATA) {
      const n = Math.min(this.left, avail);
      // The whole piece as it came when it is all data: no copy.
      if (n > 0 && this.tk) this.pass(at === 0 && n === s.length ? s : s.substr(at, n));
      this.left -= n;
      this.cnt += n;
      if (this.left > 0) this.more = true;
      else this.over(!this.tk || this.crc === u32(this.head, 10) ? "" : "its CRC-32 does not match");
      return at + n;
    }
    return this.scan(s, at);
  }

  /** The entry's header is complete: tell the consumer, and find out how its end will be known. */
  private beg(): void {
    const h = this.head;
    const flags = u16(h, 2);
    const method = u16(h, 4);
    const described = (flags & FLAG_DESCRIPTOR) !== 0;
    let size = described ? -1 : u32(h, 14);
    this.entries++;
    if (size === UNKNOWN) {
      // The data size of a ZIP64 local header's extra field: uncompressed then compressed size,
      // 8 bytes each; too large when absent or beyond 32 bits.
      const x = this.ext;
      size = -1;
      for (let at = 0; at + 4 <= x.length; at += 4 + u16(x, at + 2)) {
        if (u16(x, at) === 1 && u16(x, at + 2) >= 16) {
          size = u32(x, at + 16) === 0 && u32(x, at + 20) === 0 ? u32(x, at + 12) : -1;
          break;
        }
      }
      if (size < 0) return this.fail("entry " + this.entries + " is too large");
    }
    const clipped = u16(h, 22) > NAME_MAX;
    this.ent = { name: this.name, clipped, method, encrypted: (flags & FLAG_ENCRYPTED) !== 0, size };
    this.ext = "";
    this.cnt = 0;
    this.crc = 0;
    const readable = method === 0 && !this.ent.encrypted;
    this.tk = this.to.open(this.ent) && readable;
    // The consumer may have stopped the reading.
    if (this.st >= S_DONE) return;
    this.st = described ? S_SCAN : S_DATA;
    this.left = size;
    if (!described && size === 0) this.over(this.crc === u32(h, 10) || !this.tk ? "" : "its CRC-32 does not match");
  }

  private pass(data: string): void {
    this.crc = crcAdd(this.crc, data);
    this.to.bytes(data);
  }

  private over(problem: string): void {
    this.ent = null;
    this.tk = false;
    // Before the consumer hears of it, which may stop the reading.
    this.st = S_SIG;
    this.to.close(problem);
  }

  /**
   * Data of an entry with a descriptor: the earliest descriptor that fits ends it; the data before
   * it (or all but what could still be the start of one) is passed on.
   */
  private scan(s: string, at: number): number {
    const best = this.find(s, at, s.length);
    if (best >= 0) {
      if (best > at && this.tk) this.to.bytes(s.substring(at, best));
      this.cnt += best - at;
      const end = this.hit;
      this.over("");
      return end;
    }
    if (this.fin) {
      this.to.close("the archive ends inside it");
      this.fail("the archive is cut short");
      return s.length;
    }
    const upto = s.length - HOLD;
    if (upto > at) {
      if (this.tk) this.pass(s.substring(at, upto));
      this.cnt += upto - at;
      at = upto;
    }
    this.more = true;
    return at;
  }

  /**
   * Where the earliest descriptor that fits the data from `at` starts, if it starts before
   * `limit` (its end then in `found`); -1 when there is none.
   */
  private find(s: string, at: number, limit: number): number {
    let best = -1;
    for (let p = s.indexOf("PK", at); p >= 0 && p + 4 <= s.length; p = s.indexOf("PK", p + 1)) {
      const a = s.charCodeAt(p + 2);
      const b = s.charCodeAt(p + 3);
      let end = 0;
      let start = p;
      if (a === 7 && b === 8) {
        end = this.fits(s, at, p, p + 4, false);
        if (end <= 0) end = this.fits(s, at, p, p + 4, true);
      } else if (isHeaderSig(a, b) && p - 12 >= at) {
        start = p - 12;
        end = this.fits(s, at, start, start, false);
      }
      if (end > 0 && start < limit && (best < 0 || start < best)) {
        best = start;
        this.hit = end;
      }
    }
    return best;
  }

  /**
   * Whether a descriptor starting at `start` (its fields at `fields`; 64-bit sizes when `wide`)
   * fits the data from `at` up to `start`: the end of the descriptor, or 0.
   */
  private fits(s: string, at: number, start: number, fields: number, wide: boolean): number {
    const end = fields + (wide ? 20 : 12);
    // Not decidable yet; the bytes are held back until it is.
    if (end + 4 > s.length && !(this.fin && end <= s.length)) return 0;
    const e = this.ent as ZipEntry;
    const n = this.cnt + start - at;
    if (u32(s, fields + 4) !== n || (wide && u32(s, fields + 8) !== 0)) return 0;
    const full = u32(s, fields + (wide ? 12 : 8));
    if (e.method === 0 && (full !== n || (wide && u32(s, fields + 16) !== 0))) return 0;
    if (end < s.length && !(s.charCodeAt(end) === 0x50 && s.charCodeAt(end + 1) === 0x4B &&
      isHeaderSig(s.charCodeAt(end + 2), s.charCodeAt(end + 3)))) return 0;
    if (e.method === 0 && crcAdd(this.crc, s.substring(at, start)) !== u32(s, fields)) return 0;
    return end;
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

export function le16(n: number): string {
  return String.fromCharCode(n & 255, (n >> 8) & 255);
}

export function le32(n: number): string {
  return le16(n & 0xFFFF) + le16((n >>> 16) & 0xFFFF);
}

/** MS-DOS time (low half) and date (high half) of `ms` since 1970; 1980-01-01 for earlier clocks. */
export function dosTime(ms: number): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  if (y < 1980) return 0x210000;
  return ((d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1)) +
    ((((y - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate()) * 0x10000);
}

/** Version needed, flags (UTF-8 names), method (stored), time and date, CRC, both sizes, name length. */
function common(name: string, crc: number, size: number, time: number): string {
  return le16(10) + le16(FLAG_UTF8) + le16(0) + le32(time) + le32(crc) + le32(size) + le32(size) + le16(name.length);
}

/** The local header of a stored entry, its sizes and CRC-32 given up front. */
export function localHeader(name: string, crc: number, size: number, time: number): string {
  return "PK\x03\x04" + common(name, crc, size, time) + le16(0) + name;
}

/** The central directory record of a stored entry whose local header is at `offset`. */
export function centralHeader(name: string, crc: number, size: number, time: number, offset: number): string {
  // Made by version 2.0 of MS-DOS: no Unix permissions for unzip to apply.
  return "PK\x01\x02" + le16(20) + common(name, crc, size, time) + le16(0) + le16(0) + le16(0) + le16(0) +
    le32(0) + le32(offset) + name;
}

/** The end of central directory record. */
export function endRecord(entries: number, dirSize: number, dirOffset: number): string {
  return "PK\x05\x06" + le16(0) + le16(0) + le16(entries) + le16(entries) + le32(dirSize) + le32(dirOffset) + le16(0);
}
