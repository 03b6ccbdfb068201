// Espruino's Storage on a host directory: a flat namespace of named files with the device's
// size limit, per-file overhead and free-space accounting. One host file per stored file.
import * as fs from "node:fs";
import * as path from "node:path";

/** Storage area of the ESP32 and ESP32-S3 layouts. */
export const STORAGE_BYTES = 896 * 1024;
/** Per-file header in Espruino's flash format; sizes are rounded to 4 bytes. */
const FILE_OVERHEAD = 32;
const NAME_MAX = 28;

function encodeName(name: string): string {
  return Array.from(Buffer.from(name, "latin1"))
    .map((b) => (/[A-Za-z0-9._-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : "%" + b.toString(16).padStart(2, "0")))
    .join("");
}

function decodeName(file: string): string {
  return Buffer.from(file.replace(/%([0-9a-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("latin1");
}

function toBuffer(data: unknown): Buffer {
  if (typeof data === "string") return Buffer.from(data, "latin1");
  if (data instanceof Uint8Array) return Buffer.from(data);
  if (Array.isArray(data)) return Buffer.from(data as number[]);
  return Buffer.from(String(data), "latin1");
}

function footprint(bytes: number): number {
  return FILE_OVERHEAD + Math.ceil(bytes / 4) * 4;
}

export class SimStorage {
  constructor(readonly dir: string, readonly capacity = STORAGE_BYTES) {
    fs.mkdirSync(dir, { recursive: true });
    // Espruino's Storage functions are static: the firmware may call them apart from the object
    // (platform/flash.ts holds them as they are).
    this.read = this.read.bind(this);
    this.write = this.write.bind(this);
    this.erase = this.erase.bind(this);
    this.list = this.list.bind(this);
    this.getFree = this.getFree.bind(this);
  }

  private file(name: string): string {
    if (typeof name !== "string" || name.length === 0) throw new Error("Invalid Storage name");
    if (name.length > NAME_MAX) throw new Error("Name too long (max " + NAME_MAX + " chars)");
    return path.join(this.dir, encodeName(name));
  }

  private used(except?: string): number {
    let total = 0;
    for (const f of fs.readdirSync(this.dir)) {
      if (f === except) continue;
      total += footprint(fs.statSync(path.join(this.dir, f)).size);
    }
    return total;
  }

  read(name: string, offset?: number, length?: number): string | undefined {
    const f = this.file(name);
    if (!fs.existsSync(f)) return undefined;
    let buf = fs.readFileSync(f);
    if (offset !== undefined) buf = buf.subarray(offset, length === undefined ? undefined : offset + length);
    return buf.toString("latin1");
  }

  readJSON(name: string, noExceptions?: boolean): unknown {
    const s = this.read(name);
    if (s === undefined) return undefined;
    try {
      return JSON.parse(s);
    } catch (e) {
      if (noExceptions) return undefined;
      throw e;
    }
  }

  /**
   * Whole-file write, or (with offset/size) part of a file of `size` bytes that is created
   * filled with 0xFF and completed by later writes, as on the device.
   */
  write(name: string, data: unknown, offset?: number, size?: number): boolean {
    const f = this.file(name);
    const bytes = toBuffer(data);
    const base = path.basename(f);
    if (offset === undefined || (offset === 0 && size !== undefined)) {
      const total = size !== undefined ? size : bytes.length;
      if (total === 0) throw new Error("Can't create zero-length file");
      // The old copy is erased before the new one is written.
      if (fs.existsSync(f)) fs.unlinkSync(f);
      if (this.used(base) + footprint(total) > this.capacity) return false;
      const out = Buffer.alloc(total, 0xff);
      bytes.copy(out, 0, 0, Math.min(bytes.length, total));
      fs.writeFileSync(f, out);
      return true;
    }
    if (!fs.existsSync(f)) return false;
    const cur = fs.readFileSync(f);
    if (offset + bytes.length > cur.length) return false;
    bytes.copy(cur, offset);
    fs.writeFileSync(f, cur);
    return true;
  }

  writeJSON(name: string, value: unknown): boolean {
    return this.write(name, JSON.stringify(value));
  }

  erase(name: string): void {
    const f = this.file(name);
    if (fs.existsSync(f)) fs.unlinkSync(f);
  }

  eraseAll(): void {
    for (const f of fs.readdirSync(this.dir)) fs.unlinkSync(path.join(this.dir, f));
  }

  list(pattern?: RegExp | string): string[] {
    const names = fs.readdirSync(this.dir).map(decodeName);
    if (pattern === undefined) return names;
    const re = typeof pattern === "string" ? new RegExp(pattern) : pattern;
    return names.filter((n) => re.test(n));
  }

  getFree(): number {
    return Math.max(0, this.capacity - this.used());
  }

  getStats(): { totalBytes: number; freeBytes: number; fileCount: number } {
    return { totalBytes: this.capacity, freeBytes: this.getFree(), fileCount: fs.readdirSync(this.dir).length };
  }

  compact(): void {
    // Nothing to reclaim: erased files leave no holes on the host.
  }

}
