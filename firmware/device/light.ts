// Ambient light from a light-dependent resistor divider on an ADC1 pin.
//
// lightLevel is relative (0-100 %), not lux, and rises linearly with the reading: ldrFactor says
// what counts as full light (a reading of 4095 / ldrFactor and above is 100 %; 0 means 1.0), and
// ldrOnGround flips a sensor wired to ground (bright then pulls the tap low). ldrRaw stays the
// unprocessed pin reading behind it, the number to calibrate ldrFactor against.
import { Median5 } from "./median";

const ADC_MAX = 4095;

/** Relative light level in %, one decimal. */
export function lightLevel(raw: number, factor: number, onGround: boolean): number {
  let r = raw < 0 ? 0 : raw > ADC_MAX ? ADC_MAX : raw;
  if (onGround) r = ADC_MAX - r;
  const f = factor > 0 ? factor : 1;
  const pct = ((r * f) / ADC_MAX) * 100;
  if (!(pct > 0)) return 0;
  if (pct >= 100) return 100;
  return Math.round(pct * 10) / 10;
}

/** The last five readings of the light tap; median-filtered like the battery. */
export class LightSampler {
  readonly pin: number;
  private readings: Median5;

  constructor(pin: number) {
    this.pin = pin;
    this.readings = new Median5();
  }

  /** One raw 12-bit reading. */
  push(raw: number): void {
    this.readings.push(raw < 0 ? 0 : raw > ADC_MAX ? ADC_MAX : Math.round(raw));
  }

  /** Median raw reading, 0-4095 (0 before the first reading). */
  raw(): number {
    return this.readings.median();
  }
}
