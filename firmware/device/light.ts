// Ambient light from a light-dependent resistor divider on an ADC1 pin.
//
// lightLevel is relative (0-100 %), not lux, and rises linearly with the reading: ldrFactor says
// what counts as full light (a reading of 4095 / ldrFactor and above is 100 %; 0 means 1.0), and
// ldrOnGround flips a sensor wired to ground (bright then pulls the tap low). ldrRaw stays the
// unprocessed reading behind it (the median of the last five, see AdcSampler), the number to
// calibrate ldrFactor against.
import { ADC_MAX } from "./adc";

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
