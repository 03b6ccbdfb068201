// TE HTU21D(F) (temperature, humidity) at 0x40. Conversions without hold-master (no clock
// stretching): each read collects one conversion and starts the other kind, so temperature and
// humidity alternate on the 2 s tick. Results carry a CRC-8 (poly 0x31, init 0x00). Loaded as the
// module device/sensors/htu21df.
import type { EnvSlot } from "./types";
import { crc8, readRegs } from "./types";

const CMD_TEMP = 0xf3;
const CMD_HUM = 0xf5;
const REG_USER_READ = 0xe7;

// Driver state bits.
const HUM_PENDING = 1;
const HAVE_T = 2;
const HAVE_H = 4;

export function probeHtu21df(bus: I2C, addr: number): unknown {
  const v = readRegs(bus, addr, REG_USER_READ, 1)[0];
  // Factory default 0x02 (OTP reload off); an empty bus reads 0xFF.
  if (v === 0xff || (v & 0x02) === 0) return null;
  bus.writeTo(addr, CMD_TEMP);
  return 0;
}

export function readHtu21df(bus: I2C, addr: number, slot: EnvSlot): boolean {
  let st = slot.st as number;
  const humPending = (st & HUM_PENDING) !== 0;
  let r: Uint8Array | null = null;
  try {
    r = bus.readFrom(addr, 3);
  } catch (e) {
    r = null; // not ready or lost: start the next conversion anyway
  }
  // Bit 1 of the second byte says which kind of conversion the result is.
  if (r && crc8(r, 0, 2, 0) === r[2] && ((r[1] & 0x02) !== 0) === humPending) {
    const raw = ((r[0] << 8) | r[1]) & 0xfffc;
    if (humPending) {
      let h = -6 + (125 * raw) / 65536;
      // Temperature coefficient compensation from the datasheet (-0.15 %RH per deg C from 25).
      if (st & HAVE_T) h += (25 - slot.t) * -0.15;
      slot.h = h > 100 ? 100 : h < 0 ? 0 : h;
      st |= HAVE_H;
    } else {
      slot.t = -46.85 + (175.72 * raw) / 65536;
      st |= HAVE_T;
    }
  }
  bus.writeTo(addr, humPending ? CMD_TEMP : CMD_HUM);
  slot.st = st ^ HUM_PENDING;
  return (st & (HAVE_T | HAVE_H)) === (HAVE_T | HAVE_H);
}
