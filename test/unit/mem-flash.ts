// Flash for the record tests: files held in a map, writes that can be refused, files that can be
// planted or corrupted by hand.
import type { RecordFlash } from "../../firmware/core/persist";

export class MemFlash implements RecordFlash {
  files: { [name: string]: string } = {};
  refuse = false;
  read(name: string): string | undefined { return this.files[name]; }
  write(name: string, data: string): boolean {
    if (this.refuse) return false;
    this.files[name] = data;
    return true;
  }
  erase(name: string): void { delete this.files[name]; }
  crc(data: string): number {
    let h = 7;
    for (let i = 0; i < data.length; i++) h = (h * 31 + data.charCodeAt(i)) % 1000000007;
    return h;
  }

  /** Writes one stored copy of record `base` the way AtomicRecord lays it out. */
  plant(base: string, slot: number, seq: number, value: unknown): void {
    const body = JSON.stringify(value);
    this.files[base + "." + slot] = seq + " " + this.crc(body) + " " + body;
  }
}
