// Sensirion SHT31 (temperature, humidity) at 0x44 or 0x45. Single-shot conversions without clock
// stretching: each read collects the conversion started by the previous one (2 s earlier) and
// starts the next. Every word carries a CRC-8 (poly 0x31, init 0xFF), which also tells an empty
// bus (all 0xFF) from a chip. Loaded as the module device/sensors/sht31.
import type { EnvSlot } from "./types";
import { crc8 } from "./types";

const CMD_STATUS = [0xf3, 0x2d];
const CMD_MEASURE = [0x24, 0x00]; // single shot, high repeatability, no clock stretching

export function probeSht31(bus: I2C, addr: number): unknown {
  bus.writeTo(addr, CMD_STATUS);
  const r = bus.readFrom(addr, 3);
  if (crc8(r, 0, 2, 0xff) !== r[2]) return null;
  bus.writeTo(addr, CMD_MEASURE);
  return 0;
}

export function readSht31(bus: I2C, addr: number, slot: EnvSlot): boolean {
  let r: Uint8Array | null = null;
  try {
    r = bus.readFrom(addr, 6);
  } catch (e) {
    r = null; // no conversion pending (a lost command): start one below
  }
  bus.writeTo(addr, CMD_MEASURE);
  if (!r || crc8(r, 0, 2, 0xff) !== r[2] || crc8(r, 3, 2, 0xff) !== r[5]) return false;
  slot.t = -45 + (175 * ((r[0] << 8) | r[1])) / 65535;
  slot.h = (100 * ((r[3] << 8) | r[4])) / 65535;
  return true;
}
