// Bosch BME280 (temperature, humidity, pressure; chip id 0x60) and BMP280 (temperature, pressure;
// chip id 0x58, 0x56/0x57 on early samples) at 0x76 or 0x77. Both run in normal mode with x1
// oversampling and a 1 s standby, so a read just fetches the newest conversion. Compensation is the
// floating-point variant from the datasheets. The module device/sensors/bosch drives both.
import type { EnvSlot } from "./types";
import { readRegs } from "./types";

const REG_CHIP_ID = 0xd0;
const REG_CALIB_A = 0x88; // 0x88..0xA1: T1..T3, P1..P9, (0xA0 unused), H1
const REG_CALIB_B = 0xe1; // 0xE1..0xE7: H2..H6
const REG_CTRL_HUM = 0xf2;
const REG_CONFIG = 0xf5;
const REG_CTRL_MEAS = 0xf4;
const REG_DATA = 0xf7; // press[3], temp[3], hum[2]

// Calibration word indexes in the driver state.
const T1 = 0, T2 = 1, T3 = 2, P1 = 3, P2 = 4, P3 = 5, P4 = 6, P5 = 7, P6 = 8, P7 = 9, P8 = 10, P9 = 11;
const H1 = 12, H2 = 13, H3 = 14, H4 = 15, H5 = 16, H6 = 17;

function u16(d: Uint8Array, i: number): number {
  return d[i] | (d[i + 1] << 8);
}

function s16(d: Uint8Array, i: number): number {
  const v = u16(d, i);
  return v > 32767 ? v - 65536 : v;
}

function s8(v: number): number {
  return v > 127 ? v - 256 : v;
}

/** Calibration words from the two register blocks (b only for the BME280). */
export function parseCalibration(a: Uint8Array, b: Uint8Array | null): Int32Array {
  const c = new Int32Array(b ? 18 : 12);
  c[T1] = u16(a, 0);
  c[T2] = s16(a, 2);
  c[T3] = s16(a, 4);
  c[P1] = u16(a, 6);
  for (let k = 1; k < 9; k++) c[P1 + k] = s16(a, 6 + 2 * k);
  if (b) {
    c[H1] = a[25];
    c[H2] = s16(b, 0);
    c[H3] = b[2];
    c[H4] = (s8(b[3]) << 4) | (b[4] & 0x0f);
    c[H5] = (s8(b[5]) << 4) | (b[4] >> 4);
    c[H6] = s8(b[6]);
  }
  return c;
}

/** Fine temperature (the datasheet's t_fine) from the raw temperature reading. */
export function fineTemperature(c: Int32Array, adcT: number): number {
  const x1 = (adcT / 16384 - c[T1] / 1024) * c[T2];
  const d = adcT / 131072 - c[T1] / 8192;
  return x1 + d * d * c[T3];
}

/** Pressure in Pa; 0 when the calibration would divide by zero. */
export function compensatePressure(c: Int32Array, adcP: number, tFine: number): number {
  let v1 = tFine / 2 - 64000;
  let v2 = (v1 * v1 * c[P6]) / 32768;
  v2 = v2 + v1 * c[P5] * 2;
  v2 = v2 / 4 + c[P4] * 65536;
  v1 = ((c[P3] * v1 * v1) / 524288 + c[P2] * v1) / 524288;
  v1 = (1 + v1 / 32768) * c[P1];
  if (v1 === 0) return 0;
  let p = 1048576 - adcP;
  p = ((p - v2 / 4096) * 6250) / v1;
  v1 = (c[P9] * p * p) / 2147483648;
  v2 = (p * c[P8]) / 32768;
  return p + (v1 + v2 + c[P7]) / 16;
}

/** Relative humidity in %, clamped to 0-100. */
export function compensateHumidity(c: Int32Array, adcH: number, tFine: number): number {
  let h = tFine - 76800;
  h = (adcH - (c[H4] * 64 + (c[H5] / 16384) * h)) *
    ((c[H2] / 65536) * (1 + (c[H6] / 67108864) * h * (1 + (c[H3] / 67108864) * h)));
  h = h * (1 - (c[H1] * h) / 524288);
  return h > 100 ? 100 : h < 0 ? 0 : h;
}

/** The calibration when the chip at `addr` is a BME280 (`humidity`) or a BMP280; null when not. */
export function probeBosch(bus: I2C, addr: number, humidity: boolean): Int32Array | null {
  const id = readRegs(bus, addr, REG_CHIP_ID, 1)[0];
  if (humidity ? id !== 0x60 : id < 0x56 || id > 0x58) return null;
  const a = readRegs(bus, addr, REG_CALIB_A, 26);
  const cal = parseCalibration(a, humidity ? readRegs(bus, addr, REG_CALIB_B, 7) : null);
  // ctrl_hum only takes effect with the following ctrl_meas write; config is written while the
  // chip still sleeps (writes to it in normal mode may be ignored).
  if (humidity) bus.writeTo(addr, [REG_CTRL_HUM, 0x01]); // humidity x1
  bus.writeTo(addr, [REG_CONFIG, 0xa0]); // standby 1000 ms, filter off
  bus.writeTo(addr, [REG_CTRL_MEAS, 0x27]); // temperature x1, pressure x1, normal mode
  return cal;
}

/** Both chips: the calibration's length tells whether humidity is there. */
export function readBosch(bus: I2C, addr: number, slot: EnvSlot): boolean {
  const c = slot.st as Int32Array;
  const humidity = c.length > H1;
  const d = readRegs(bus, addr, REG_DATA, humidity ? 8 : 6);
  const adcP = (d[0] << 12) | (d[1] << 4) | (d[2] >> 4);
  const adcT = (d[3] << 12) | (d[4] << 4) | (d[5] >> 4);
  // 0x80000 is the reset value: no conversion finished yet.
  if (adcT === 0x80000 || adcP === 0x80000) return false;
  const tFine = fineTemperature(c, adcT);
  const t = tFine / 5120;
  const p = compensatePressure(c, adcP, tFine) / 100;
  // Outside the chips' operating range: a glitch on the bus, not a measurement.
  if (!(t >= -40 && t <= 85 && p >= 300 && p <= 1100)) return false;
  if (humidity) {
    const adcH = (d[6] << 8) | d[7];
    if (adcH === 0x8000) return false;
    slot.h = compensateHumidity(c, adcH, tFine);
  }
  slot.t = t;
  slot.p = p;
  return true;
}
