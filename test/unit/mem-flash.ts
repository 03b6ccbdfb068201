// Flash for the record tests: files held in a map, writes that can be refused, files that can be
// planted or corrupted by hand.
import type { RecordFlash } from "../../firmware/core/persist";
import { chip as esp32Chip } from "../../boards/esp32";
import { chip as esp32s3Chip } from "../../boards/esp32s3";

export class MemFlash implements RecordFlash {
  files: { [name: string]: string } = {};
  refuse = false;
  read(name: string): string | undefined { return this.files[name]; }
  write(name: string, data: string): boolean {
    if (this.refuse) return false;
    this.files[name] = data;
    return true;
  }
  /** Storage.write's four-argument form: the write at offset 0 makes a blank file of `size` bytes. */
  writeAt(name: string, data: string, offset: number, size: number): boolean {
    if (this.refuse) return false;
    const old = offset === 0 ? "\xff".repeat(size) : this.files[name];
    if (old === undefined || offset + data.length > old.length) return false;
    this.files[name] = old.substr(0, offset) + data + old.substr(offset + data.length);
    return true;
  }
  readAt(name: string, offset: number, length: number): string | undefined {
    const f = this.files[name];
    return f === undefined ? undefined : f.substr(offset, length);
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

/** Flash holding what the build puts beside the bundle for the system store: the chip rules. */
export function boardFlash(): MemFlash {
  const f = new MemFlash();
  f.files["chip.esp32"] = JSON.stringify(esp32Chip);
  f.files["chip.esp32s3"] = JSON.stringify(esp32s3Chip);
  return f;
}
