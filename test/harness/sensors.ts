// Host stand-ins for the hardware the firmware reads: the I2C bus with simulated environment
// sensors, and the ADC. They follow Espruino's behaviour on the ESP32 (read from its source):
//
// - `new I2C()` is Espruino's software I2C. It never checks the ACK bit: writes to an address
//   nobody answers vanish, and reads return 0xFF bytes (SDA floats high through the pull-ups).
//   The hardware ports (I2C1/I2C2) throw instead: "jshI2CWrite: slave doesn't ACK the transfer"
//   (jshI2CRead for reads). Choose with `SimI2C.mode`.
// - `analogRead(pin)` returns the 12-bit reading divided by 4096 (so 4095 reads as 0.99976).
//
// The simulated sensors compute their raw readings with the integer compensation variants of the
// datasheets, searching the raw value that reproduces the environment they were given; the
// firmware uses the floating-point variants, so the two are independent of each other.

/** One device on the bus. */
export interface SimI2CDevice {
  /** The bytes of one write transaction (after the address byte). */
  write(data: number[]): void;
  /** The bytes of one read transaction, or null when the device does not acknowledge it. */
  read(n: number): number[] | null;
}

interface Wiring {
  sda: number;
  scl: number;
  addr: number;
  dev: SimI2CDevice;
}

export type I2cMode = "software" | "hardware";

/** Stands in for Espruino's `I2C` class: the harness installs it as the global `I2C`. */
export class SimI2C {
  /** Devices on the (simulated) board, by the pins they are wired to. */
  static wiring: Wiring[] = [];
  /** "software" (what `new I2C()` is on Espruino) or "hardware" (I2C1: throws on NACK). */
  static mode: I2cMode = "software";
  /** Every transaction, for tests: "w 76 d0" / "r 76 1". */
  static log: string[] = [];

  /** Wires `dev` at 7-bit `addr` to the bus on pins sda/scl. */
  static attach(dev: SimI2CDevice, addr: number, sda: number, scl: number): void {
    SimI2C.wiring.push({ sda, scl, addr, dev });
  }

  /** Removes every device, restores software mode and clears the log. */
  static reset(): void {
    SimI2C.wiring = [];
    SimI2C.mode = "software";
    SimI2C.log = [];
  }

  private sda = -1;
  private scl = -1;

  setup(opts: { sda: number; scl: number; bitrate?: number }): void {
    if (opts.bitrate !== undefined && opts.bitrate < 100) throw new Error("Invalid I2C bitrate");
    this.sda = opts.sda;
    this.scl = opts.scl;
  }

  /** Like Espruino: any mix of numbers, arrays, typed arrays and strings. */
  writeTo(addr: number, ...data: unknown[]): void {
    const bytes = flatten(data);
    SimI2C.log.push("w " + hex(addr) + (bytes.length ? " " + bytes.map(hex).join(" ") : ""));
    if (!bytes.length) return; // Espruino sends nothing for an empty write
    const dev = this.find(addr);
    if (!dev) {
      if (SimI2C.mode === "hardware") throw new Error("jshI2CWrite: slave doesn't ACK the transfer");
      return;
    }
    dev.write(bytes);
  }

  readFrom(addr: number, quantity: number): Uint8Array {
    SimI2C.log.push("r " + hex(addr) + " " + quantity);
    const n = quantity > 0 ? quantity : 0;
    const dev = this.find(addr);
    const got = dev ? dev.read(n) : null;
    if (!got) {
      if (SimI2C.mode === "hardware") throw new Error("jshI2CRead: slave doesn't ACK the transfer");
      return new Uint8Array(n).fill(0xff);
    }
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = got[i] === undefined ? 0xff : got[i] & 0xff;
    return out;
  }

  private find(addr: number): SimI2CDevice | null {
    if (this.sda < 0 || this.scl < 0) return null;
    for (const w of SimI2C.wiring) {
      if (w.addr === addr && w.sda === this.sda && w.scl === this.scl) return w.dev;
    }
    return null;
  }
}

function hex(v: number): string {
  return (v & 0xff).toString(16).padStart(2, "0");
}

function flatten(items: unknown[]): number[] {
  const out: number[] = [];
  const add = (v: unknown): void => {
    if (typeof v === "number") out.push(v & 0xff);
    else if (typeof v === "string") for (let i = 0; i < v.length; i++) out.push(v.charCodeAt(i) & 0xff);
    else if (v && typeof v === "object" && "length" in (v as ArrayLike<unknown>)) {
      const a = v as ArrayLike<unknown>;
      for (let i = 0; i < a.length; i++) add(a[i]);
    }
  };
  items.forEach(add);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Environment

export interface Environment {
  /** deg C */
  temperature: number;
  /** % RH */
  humidity: number;
  pressureHpa: number;
}

const ROOM: Environment = { temperature: 22.5, humidity: 45, pressureHpa: 1013.25 };

/** What every simulated environment sensor shares: the true conditions it measures. */
abstract class SimEnvironmentSensor implements SimI2CDevice {
  env: Environment;

  constructor(env?: Environment) {
    this.env = Object.assign({}, env || ROOM);
  }

  setEnvironment(env: Partial<Environment>): void {
    this.env = Object.assign({}, this.env, env);
  }

  abstract write(data: number[]): void;
  abstract read(n: number): number[] | null;
}

/** Smallest x in [lo, hi] with f(x) >= target, for a non-decreasing f (hi when none). */
function searchUp(lo: number, hi: number, f: (x: number) => number, target: number): number {
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (f(mid) >= target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The x in [lo, hi] whose f(x) is closest to target, for a monotonic f. */
function invert(lo: number, hi: number, f: (x: number) => number, target: number): number {
  const rising = f(hi) >= f(lo);
  const g = rising ? f : (x: number) => -f(x);
  const t = rising ? target : -target;
  const x = searchUp(lo, hi, g, t);
  if (x > lo && Math.abs(f(x - 1) - target) <= Math.abs(f(x) - target)) return x - 1;
  return x;
}

// ---------------------------------------------------------------------------------------------
// Bosch BME280 / BMP280

/** Trimming words as the chip stores them. */
export interface BoschTrim {
  T1: number; T2: number; T3: number;
  P1: number; P2: number; P3: number; P4: number; P5: number; P6: number; P7: number; P8: number; P9: number;
  H1: number; H2: number; H3: number; H4: number; H5: number; H6: number;
}

/** The example trimming of the BMP280 datasheet, and humidity words typical of a BME280. */
export const DEFAULT_TRIM: BoschTrim = {
  T1: 27504, T2: 26435, T3: -1000,
  P1: 36477, P2: -10685, P3: 3024, P4: 2855, P5: 140, P6: -7, P7: 15500, P8: -14600, P9: 6000,
  H1: 75, H2: 362, H3: 0, H4: 313, H5: 50, H6: 30,
};

/** Datasheet integer temperature: [t_fine, centi-degrees C]. */
export function boschTempInt(t: BoschTrim, adcT: number): [number, number] {
  const a = BigInt(adcT);
  const T1 = BigInt(t.T1), T2 = BigInt(t.T2), T3 = BigInt(t.T3);
  const var1 = (((a >> 3n) - (T1 << 1n)) * T2) >> 11n;
  const d = (a >> 4n) - T1;
  const var2 = (((d * d) >> 12n) * T3) >> 14n;
  const tFine = var1 + var2;
  return [Number(tFine), Number((tFine * 5n + 128n) >> 8n)];
}

/** Datasheet 64-bit integer pressure: Pa in Q24.8 (Pa x 256). */
export function boschPressInt(t: BoschTrim, adcP: number, tFine: number): number {
  let var1 = BigInt(tFine) - 128000n;
  let var2 = var1 * var1 * BigInt(t.P6);
  var2 = var2 + ((var1 * BigInt(t.P5)) << 17n);
  var2 = var2 + (BigInt(t.P4) << 35n);
  var1 = ((var1 * var1 * BigInt(t.P3)) >> 8n) + ((var1 * BigInt(t.P2)) << 12n);
  var1 = (((1n << 47n) + var1) * BigInt(t.P1)) >> 33n;
  if (var1 === 0n) return 0;
  let p = 1048576n - BigInt(adcP);
  p = (((p << 31n) - var2) * 3125n) / var1;
  var1 = (BigInt(t.P9) * (p >> 13n) * (p >> 13n)) >> 25n;
  var2 = (BigInt(t.P8) * p) >> 19n;
  p = ((p + var1 + var2) >> 8n) + (BigInt(t.P7) << 4n);
  return Number(p);
}

/** Datasheet 32-bit integer humidity: % RH in Q22.10 (% x 1024). */
export function boschHumInt(t: BoschTrim, adcH: number, tFine: number): number {
  let v = BigInt(tFine) - 76800n;
  v = ((((BigInt(adcH) << 14n) - (BigInt(t.H4) << 20n) - BigInt(t.H5) * v) + 16384n) >> 15n) *
    (((((((v * BigInt(t.H6)) >> 10n) * (((v * BigInt(t.H3)) >> 11n) + 32768n)) >> 10n) + 2097152n) *
      BigInt(t.H2) + 8192n) >> 14n);
  v = v - (((((v >> 15n) * (v >> 15n)) >> 7n) * BigInt(t.H1)) >> 4n);
  if (v < 0n) v = 0n;
  if (v > 419430400n) v = 419430400n;
  return Number(v >> 12n);
}

/** Raw ADC words that the integer compensation turns back into `env`. */
export function boschRaw(trim: BoschTrim, env: Environment): { adcT: number; adcP: number; adcH: number } {
  const adcT = invert(0, 0xfffff, (x) => boschTempInt(trim, x)[1], Math.round(env.temperature * 100));
  const tFine = boschTempInt(trim, adcT)[0];
  const adcP = invert(0, 0xfffff, (x) => boschPressInt(trim, x, tFine), env.pressureHpa * 100 * 256);
  const adcH = invert(0, 0xffff, (x) => boschHumInt(trim, x, tFine), env.humidity * 1024);
  return { adcT, adcP, adcH };
}

/**
 * A BME280 (chip id 0x60) or, with chipId 0x58, a BMP280 (no humidity). Registers: chip id 0xD0,
 * reset 0xE0 (0xB6), calibration 0x88..0xA1 and 0xE1..0xE7, ctrl_hum 0xF2, status 0xF3,
 * ctrl_meas 0xF4, config 0xF5, data 0xF7..0xFE. A write of one byte sets the register pointer;
 * longer writes are (register, value) pairs; reads auto-increment from the pointer.
 */
export class SimBme280 extends SimEnvironmentSensor {
  readonly chipId: number;
  readonly trim: BoschTrim;
  private regs = new Uint8Array(256);
  private pointer = 0;
  /** ctrl_hum as latched by the last ctrl_meas write. */
  private humOsr = 0;

  constructor(opts?: { chipId?: number; trim?: Partial<BoschTrim>; env?: Environment }) {
    super(opts && opts.env);
    this.chipId = opts && opts.chipId !== undefined ? opts.chipId : 0x60;
    this.trim = Object.assign({}, DEFAULT_TRIM, opts && opts.trim);
    this.powerOn();
  }

  get hasHumidity(): boolean {
    return this.chipId === 0x60;
  }

  write(data: number[]): void {
    this.pointer = data[0];
    for (let i = 0; i + 1 < data.length; i += 2) this.writeReg(data[i], data[i + 1]);
  }

  read(n: number): number[] {
    if (this.mode() === 3) this.measure(); // normal mode: a fresh conversion is always there
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(this.regs[(this.pointer + i) & 0xff]);
    return out;
  }

  private powerOn(): void {
    const r = this.regs;
    r.fill(0);
    r[0xd0] = this.chipId;
    const t = this.trim;
    const words = [t.T1, t.T2, t.T3, t.P1, t.P2, t.P3, t.P4, t.P5, t.P6, t.P7, t.P8, t.P9];
    words.forEach((w, i) => {
      r[0x88 + 2 * i] = w & 0xff;
      r[0x89 + 2 * i] = (w >> 8) & 0xff;
    });
    if (this.hasHumidity) {
      r[0xa1] = t.H1 & 0xff;
      r[0xe1] = t.H2 & 0xff;
      r[0xe2] = (t.H2 >> 8) & 0xff;
      r[0xe3] = t.H3 & 0xff;
      r[0xe4] = (t.H4 >> 4) & 0xff;
      r[0xe5] = (t.H4 & 0x0f) | ((t.H5 & 0x0f) << 4);
      r[0xe6] = (t.H5 >> 4) & 0xff;
      r[0xe7] = t.H6 & 0xff;
    }
    // Data registers hold the "skipped" value until a conversion ran.
    r[0xf7] = 0x80; r[0xf8] = 0; r[0xf9] = 0;
    r[0xfa] = 0x80; r[0xfb] = 0; r[0xfc] = 0;
    if (this.hasHumidity) { r[0xfd] = 0x80; r[0xfe] = 0; }
    this.humOsr = 0;
  }

  private mode(): number {
    return this.regs[0xf4] & 3;
  }

  private writeReg(reg: number, v: number): void {
    if (reg === 0xe0) {
      if (v === 0xb6) this.powerOn();
      return;
    }
    if (reg === 0xf2 && this.hasHumidity) this.regs[0xf2] = v & 0x07;
    else if (reg === 0xf5) this.regs[0xf5] = v & 0xfd;
    else if (reg === 0xf4) {
      this.regs[0xf4] = v;
      this.humOsr = this.regs[0xf2] & 0x07;
      const m = v & 3;
      if (m === 1 || m === 2) {
        this.measure(); // forced: one conversion, then back to sleep
        this.regs[0xf4] = v & 0xfc;
      }
    }
  }

  private measure(): void {
    const raw = boschRaw(this.trim, this.env);
    const r = this.regs;
    const ctrl = r[0xf4];
    if (((ctrl >> 2) & 7) !== 0) {
      r[0xf7] = (raw.adcP >> 12) & 0xff; r[0xf8] = (raw.adcP >> 4) & 0xff; r[0xf9] = (raw.adcP & 0x0f) << 4;
    }
    if (((ctrl >> 5) & 7) !== 0) {
      r[0xfa] = (raw.adcT >> 12) & 0xff; r[0xfb] = (raw.adcT >> 4) & 0xff; r[0xfc] = (raw.adcT & 0x0f) << 4;
    }
    if (this.hasHumidity && this.humOsr !== 0) {
      r[0xfd] = (raw.adcH >> 8) & 0xff; r[0xfe] = raw.adcH & 0xff;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Sensirion SHT31 and TE HTU21D(F)

/** CRC-8, polynomial 0x31, MSB first. */
export function simCrc8(bytes: number[], init: number): number {
  let crc = init;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x31) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

function word(v: number, init: number): number[] {
  const b = [(v >> 8) & 0xff, v & 0xff];
  return [b[0], b[1], simCrc8(b, init)];
}

/** SHT31: status 0xF32D, single shot 0x2400 (and the other repeatabilities), soft reset 0x30A2. */
export class SimSht31 extends SimEnvironmentSensor {
  private pending: number[] | null = null;
  private measured: number[] | null = null;

  write(data: number[]): void {
    if (data.length < 2) return;
    const cmd = (data[0] << 8) | data[1];
    if (cmd === 0xf32d) this.pending = word(0x8010, 0xff);
    else if (cmd === 0x30a2) this.measured = this.pending = null;
    else if (data[0] === 0x24 || data[0] === 0x2c) {
      const t = Math.round(((this.env.temperature + 45) * 65535) / 175);
      const h = Math.round((this.env.humidity * 65535) / 100);
      this.measured = word(clamp16(t), 0xff).concat(word(clamp16(h), 0xff));
      this.pending = null;
    }
  }

  read(n: number): number[] | null {
    if (this.pending) {
      const out = this.pending;
      this.pending = null;
      return out.slice(0, n);
    }
    if (this.measured) {
      const out = this.measured;
      this.measured = null;
      return out.slice(0, n);
    }
    return null; // no conversion pending: NACK
  }
}

/** HTU21D(F): user register 0xE7 (0x02), no-hold conversions 0xF3 / 0xF5, soft reset 0xFE. */
export class SimHtu21df extends SimEnvironmentSensor {
  private pointerReg = -1;
  private result: number[] | null = null;

  write(data: number[]): void {
    const cmd = data[0];
    this.pointerReg = -1;
    if (cmd === 0xe7) this.pointerReg = 0xe7;
    else if (cmd === 0xfe) this.result = null;
    else if (cmd === 0xf3) {
      const s = Math.round(((this.env.temperature + 46.85) * 65536) / 175.72) & 0xfffc;
      this.result = word(clamp16(s), 0);
    } else if (cmd === 0xf5) {
      // The chip's raw humidity drifts with temperature (-0.15 %RH per deg C from 25, which the
      // datasheet tells the reader to compensate): report the uncompensated value.
      const rh = this.env.humidity - (25 - this.env.temperature) * -0.15;
      const s = (Math.round(((rh + 6) * 65536) / 125) & 0xfffc) | 0x02;
      this.result = word(clamp16(s), 0);
    }
  }

  read(n: number): number[] | null {
    if (this.pointerReg === 0xe7) {
      this.pointerReg = -1;
      return [0x02].slice(0, n);
    }
    if (this.result) {
      const out = this.result;
      this.result = null;
      return out.slice(0, n);
    }
    return null;
  }
}

function clamp16(v: number): number {
  return v < 0 ? 0 : v > 0xffff ? 0xffff : v;
}

// ---------------------------------------------------------------------------------------------
// ADC

/** Raw 12-bit levels per pin; the harness installs `(pin) => adc.read(pin)` as `analogRead`. */
export class SimAdc {
  /** Espruino's ESP32 port divides the 12-bit reading by 4096. */
  static readonly DIVISOR = 4096;
  private levels: { [pin: number]: number } = {};

  /** Sets the reading of `pin` (0-4095). */
  set(pin: number, raw: number): void {
    this.levels[pin] = raw < 0 ? 0 : raw > 4095 ? 4095 : Math.round(raw);
  }

  clear(): void {
    this.levels = {};
  }

  /** What `analogRead(pin)` returns: 0 for a pin nobody set. */
  read(pin: number): number {
    const raw = this.levels[pin];
    return (raw === undefined ? 0 : raw) / SimAdc.DIVISOR;
  }
}
