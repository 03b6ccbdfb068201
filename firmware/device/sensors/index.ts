// Environment sensor on the I2C bus: detected once at boot, sampled on the 2 s runtime tick.
//
// Espruino's software I2C (what `new I2C()` gives) does not check the ACK bit: an address nobody
// answers reads as 0xFF bytes, and only a stuck bus throws (a timeout). The hardware ports throw
// on a missing ACK. So every probe both catches errors and checks an identity it reads back
// (chip id, a register default, a CRC), never the mere absence of an exception.
import type { EnvSlot, SensorEntry } from "./types";
import { probeBme280, probeBmp280, readBosch } from "./bosch";
import { probeHtu21df, readHtu21df } from "./htu21df";
import { probeSht31, readSht31 } from "./sht31";

export type { EnvSlot, SensorEntry } from "./types";

/** Probe order: BME280, BMP280, HTU21DF, SHT31; the first chip that identifies itself wins. */
export const SENSORS: SensorEntry[] = [
  { name: "BME280", addrs: [0x76, 0x77], humidity: true, pressure: true, probe: probeBme280, read: readBosch },
  { name: "BMP280", addrs: [0x76, 0x77], humidity: false, pressure: true, probe: probeBmp280, read: readBosch },
  { name: "HTU21DF", addrs: [0x40], humidity: true, pressure: false, probe: probeHtu21df, read: readHtu21df },
  { name: "SHT31", addrs: [0x44, 0x45], humidity: true, pressure: false, probe: probeSht31, read: readSht31 },
];

/** The detected sensor and its latest values (as measured, before the configured offsets). */
export class EnvSampler implements EnvSlot {
  sensor: SensorEntry;
  addr: number;
  bus: I2C;
  st: unknown;
  t: number;
  h: number;
  p: number;
  /** A complete reading has arrived; until then device state leaves the keys out. */
  valid: boolean;

  constructor(sensor: SensorEntry, addr: number, bus: I2C, st: unknown) {
    this.sensor = sensor;
    this.addr = addr;
    this.bus = bus;
    this.st = st;
    this.t = 0;
    this.h = 0;
    this.p = 0;
    this.valid = false;
  }

  /** One read; a bus error keeps the previous values. */
  sample(): void {
    try {
      if (this.sensor.read(this.bus, this.addr, this)) this.valid = true;
    } catch (e) {
      // keep the last good values
    }
  }
}

/** Tries every table entry at each of its addresses; null when nothing identifies itself. */
export function detectSensor(bus: I2C): EnvSampler | null {
  for (let i = 0; i < SENSORS.length; i++) {
    const s = SENSORS[i];
    for (let j = 0; j < s.addrs.length; j++) {
      const addr = s.addrs[j];
      let st: unknown = null;
      try {
        st = s.probe(bus, addr);
      } catch (e) {
        st = null;
      }
      if (st !== null && st !== undefined) return new EnvSampler(s, addr, bus, st);
    }
  }
  return null;
}
