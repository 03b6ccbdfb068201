// ZIP archives for the backup suites, made here byte by byte in every layout a writer may choose
// (sizes up front, data descriptors with and without their signature, ZIP64 descriptors, damaged
// ones), and Info-ZIP's own tools when the machine has them. Nothing of the firmware: the HTTP
// suite uses these too.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { crc32 } from "../harness/crc32";

// ---- archives ---------------------------------------------------------------------------------

export interface TestEntry {
  name: string;
  data: Buffer | string;
  /** How the sizes and CRC are given: in the local header (default), or after the data. */
  descriptor?: "signed" | "bare" | "zip64";
  /** Sizes and CRC written into the local header even though a descriptor follows. */
  headerSizes?: boolean;
  /** A CRC-32 other than the data's (a damaged entry). */
  crc?: number;
  /** Declared sizes other than the data's length. */
  size?: number;
  method?: number;
  flags?: number;
  extra?: Buffer;
}

export function bytes(data: Buffer | string): Buffer {
  return typeof data === "string" ? Buffer.from(data, "latin1") : data;
}

export function crcOf(data: Buffer | string): number {
  return crc32(bytes(data));
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n & 0xffff);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

/** An archive of `entries`; `central: false` leaves out the central directory and end record. */
export function makeZip(entries: TestEntry[], opts: { central?: boolean } = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const push = (b: Buffer) => {
    parts.push(b);
    offset += b.length;
  };
  for (const e of entries) {
    const data = bytes(e.data);
    const name = Buffer.from(e.name, "latin1");
    const crc = e.crc === undefined ? crc32(data) : e.crc;
    const size = e.size === undefined ? data.length : e.size;
    const described = e.descriptor !== undefined;
    const flags = (e.flags || 0) | (described ? 8 : 0);
    const method = e.method || 0;
    const inHeader = !described || e.headerSizes;
    const extra = e.extra || Buffer.alloc(0);
    const at = offset;
    const fixed = Buffer.concat([u16(20), u16(flags), u16(method), u16(0), u16(0x21),
      u32(inHeader ? crc : 0), u32(inHeader ? size : 0), u32(inHeader ? size : 0)]);
    push(Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), fixed, u16(name.length), u16(extra.length), name, extra]));
    push(data);
    if (e.descriptor === "signed") push(Buffer.concat([Buffer.from("PK\x07\x08", "latin1"), u32(crc), u32(size), u32(size)]));
    if (e.descriptor === "bare") push(Buffer.concat([u32(crc), u32(size), u32(size)]));
    if (e.descriptor === "zip64") {
      push(Buffer.concat([Buffer.from("PK\x07\x08", "latin1"), u32(crc), u32(size), u32(0), u32(size), u32(0)]));
    }
    central.push(Buffer.concat([Buffer.from("PK\x01\x02", "latin1"), u16(20), u16(20), u16(flags), u16(method), u16(0),
      u16(0x21), u32(crc), u32(size), u32(size), u16(name.length), u16(0), u16(0), u16(0), u16(0), u32(0), u32(at), name]));
  }
  if (opts.central !== false) {
    const dir = Buffer.concat(central);
    const start = offset;
    push(dir);
    push(Buffer.concat([Buffer.from("PK\x05\x06", "latin1"), u16(0), u16(0), u16(entries.length), u16(entries.length),
      u32(dir.length), u32(start), u16(0)]));
  }
  return Buffer.concat(parts);
}

/** The archive cut into pieces of the given sizes, cycling through them. */
export function pieces(archive: Buffer | string, sizes: number[]): string[] {
  const s = typeof archive === "string" ? archive : archive.toString("latin1");
  const out: string[] = [];
  for (let at = 0, i = 0; at < s.length; i++) {
    const n = Math.max(1, sizes[i % sizes.length]);
    out.push(s.substr(at, n));
    at += n;
  }
  return out;
}

/** Bytes that look like nothing in particular, the same for the same seed. */
export function noise(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 255;
  }
  return b;
}

/** Info-ZIP's command, when the machine has it. */
export function tool(name: "zip" | "unzip"): string | null {
  const r = spawnSync(name, ["-v"], { encoding: "utf8" });
  return r.status === 0 ? name : null;
}

/** unzip's test of an archive: null when every entry checks out, else its report. */
export function unzipTest(archive: Buffer): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-zip-"));
  try {
    fs.writeFileSync(path.join(dir, "a.zip"), archive);
    const r = spawnSync("unzip", ["-t", "a.zip"], { cwd: dir, encoding: "utf8" });
    return r.status === 0 ? null : r.stdout + r.stderr;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The entries of an archive as unzip extracts them, by name. */
export function unzipAll(archive: Buffer): { [name: string]: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-zip-"));
  try {
    fs.writeFileSync(path.join(dir, "a.zip"), archive);
    const out = path.join(dir, "out");
    const r = spawnSync("unzip", ["-q", "a.zip", "-d", out], { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error("unzip failed: " + r.stdout + r.stderr);
    const files: { [name: string]: Buffer } = {};
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else files[path.relative(out, p).split(path.sep).join("/")] = fs.readFileSync(p);
      }
    };
    walk(out);
    return files;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An archive made by Info-ZIP's zip writing to a pipe, which it cannot seek back into: every entry
 * then has its sizes in a data descriptor after the data. `files` are written into a folder first.
 */
export function zipStreamed(files: { [name: string]: Buffer | string }): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-zip-"));
  try {
    for (const name of Object.keys(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), bytes(files[name]));
    }
    const r = spawnSync("sh", ["-c", "zip -0 -q -X - " + Object.keys(files).map((n) => "'" + n + "'").join(" ") + " | cat"],
      { cwd: dir, maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error("zip failed: " + r.stderr);
    return r.stdout as Buffer;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
