// The shape of an environment-sensor driver and of the sampler that holds its readings.

/** Where a driver keeps its state and puts its results (the sampler, no allocation per read). */
export interface EnvSlot {
  /** Driver state returned by probe (calibration words, a phase counter). */
  st: unknown;
  /** Degrees C, as measured (no offset). */
  t: number;
  /** % RH, as measured (no offset); meaningful only when the sensor measures humidity. */
  h: number;
  /** hPa; meaningful only when the sensor measures pressure. */
  p: number;
}

/** One supported chip: plain data, so the detected entry can stay with the sampler. */
export interface SensorEntry {
  name: string;
  /** 7-bit addresses tried in order. */
  addrs: number[];
  humidity: boolean;
  pressure: boolean;
  /** Id of the module that drives the chip (loaded for each reading, see sensors/index.ts). */
  driver: string;
}

/** What a driver module ("device/sensors/<chip>") gives back. */
export interface SensorDriver {
  /**
   * Whether the chip at `addr` is `sensor`: its driver state (never null) when it is, null when
   * not. A positive probe also configures the chip and starts its first conversion.
   */
  probe(bus: I2C, addr: number, sensor: SensorEntry): unknown;
  /**
   * Collects the latest conversion into `slot` (and starts the next one where the chip needs it).
   * True when slot holds a complete, plausible set of values.
   */
  read(bus: I2C, addr: number, slot: EnvSlot): boolean;
}

/** The detected sensor and its latest values (as measured, before the configured offsets). */
export interface EnvSampler extends EnvSlot {
  sensor: SensorEntry;
  addr: number;
  bus: I2C;
  /** A complete reading has arrived; until then device state leaves the keys out. */
  valid: boolean;
}

/** Sets the register pointer, then reads `n` bytes from it. */
export function readRegs(bus: I2C, addr: number, reg: number, n: number): Uint8Array {
  bus.writeTo(addr, reg);
  return bus.readFrom(addr, n);
}

/** CRC-8 with polynomial x^8 + x^5 + x^4 + 1 (0x31), MSB first, over d[from..from+len). */
export function crc8(d: Uint8Array, from: number, len: number, init: number): number {
  let crc = init;
  for (let i = from; i < from + len; i++) {
    crc ^= d[i];
    for (let b = 0; b < 8; b++) crc = crc & 0x80 ? ((crc << 1) ^ 0x31) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}
