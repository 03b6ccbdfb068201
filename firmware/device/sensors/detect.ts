// Which environment sensor is fitted: asked once at boot, by the boot module.
//
// Espruino's software I2C (what `new I2C()` gives) does not check the ACK bit: an address nobody
// answers reads as 0xFF bytes, and only a stuck bus throws (a timeout). The hardware ports throw
// on a missing ACK. So every probe both catches errors and checks an identity it reads back
// (chip id, a register default, a CRC), never the mere absence of an exception.
import type { EnvSampler, SensorDriver, SensorEntry } from "./types";
import { loadModule } from "../../platform/modules";

/** Probe order: BME280, BMP280, HTU21DF, SHT31; the first chip that identifies itself wins. */
export const SENSORS: SensorEntry[] = [
  { name: "BME280", addrs: [0x76, 0x77], humidity: true, pressure: true, driver: "device/sensors/bosch" },
  { name: "BMP280", addrs: [0x76, 0x77], humidity: false, pressure: true, driver: "device/sensors/bosch" },
  { name: "HTU21DF", addrs: [0x40], humidity: true, pressure: false, driver: "device/sensors/htu21df" },
  { name: "SHT31", addrs: [0x44, 0x45], humidity: true, pressure: false, driver: "device/sensors/sht31" },
];

/**
 * Tries every table entry at each of its addresses, loading one driver at a time; null when
 * nothing identifies itself. The sampler is plain data, read by sensors/index.ts sampleEnv.
 */
export function detectSensor(bus: I2C): EnvSampler | null {
  for (let i = 0; i < SENSORS.length; i++) {
    const s = SENSORS[i];
    let driver: SensorDriver | null = null;
    try {
      driver = loadModule<SensorDriver>(s.driver);
    } catch (e) {
      continue;
    }
    for (let j = 0; j < s.addrs.length; j++) {
      const addr = s.addrs[j];
      let st: unknown = null;
      try {
        st = driver.probe(bus, addr, s);
      } catch (e) {
        st = null;
      }
      if (st !== null && st !== undefined) return { sensor: s, addr, bus, st, t: 0, h: 0, p: 0, valid: false };
    }
  }
  return null;
}
