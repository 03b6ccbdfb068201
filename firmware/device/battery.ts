// Battery measurement through a resistor divider on an ADC1 pin.
//
// ADC scale: Espruino configures every ESP32 ADC1 channel with 11 dB attenuation, which spreads
// roughly 0-3.3 V over the 12-bit range. We take 3300 mV as full scale over 0-4095 counts; the
// real curve is slightly non-linear near both ends, and batteryDividerRatio absorbs the rest
// (calibrate it against a full cell: ratio = 4.2 / (pinMillivolts / 1000)).

import { ADC_MAX } from "./adc";

export const ADC_FULL_SCALE_MV = 3300;
export const DEFAULT_DIVIDER_RATIO = 1.79;

// A resting Li-ion cell's discharge curve: cell voltage (centivolts, falling) against state of
// charge (%). Between two points the percentage is blended linearly; past either end it stops.
const CURVE_CV = new Uint16Array([420, 410, 400, 392, 387, 382, 379, 377, 374, 368, 345, 327]);
const CURVE_PCT = new Uint8Array([100, 90, 80, 70, 60, 50, 40, 30, 20, 10, 5, 0]);

/** Millivolts at the pin for a 12-bit reading (0-4095). */
export function adcToMillivolts(raw: number): number {
  if (raw <= 0) return 0;
  if (raw >= ADC_MAX) return ADC_FULL_SCALE_MV;
  return Math.round((raw * ADC_FULL_SCALE_MV) / ADC_MAX);
}

/** Cell volts, two decimals: pin mV / 1000 x ratio; a ratio <= 0 (or not a number) uses 1.79. */
export function cellVoltage(pinMillivolts: number, ratio: number): number {
  const r = ratio > 0 ? ratio : DEFAULT_DIVIDER_RATIO;
  return Math.round((pinMillivolts / 1000) * r * 100) / 100;
}

/** State of charge (integer %) from the cell voltage: 100 at >= 4.20 V, 0 at <= 3.27 V. */
export function batteryPercent(volts: number): number {
  const cv = volts * 100;
  const last = CURVE_CV.length - 1;
  if (!(cv > CURVE_CV[last])) return 0; // also NaN
  if (cv >= CURVE_CV[0]) return 100;
  let i = 1;
  while (cv < CURVE_CV[i]) i++;
  // CURVE_CV[i] <= cv < CURVE_CV[i - 1]
  const hiV = CURVE_CV[i - 1];
  const loV = CURVE_CV[i];
  const hiP = CURVE_PCT[i - 1];
  const loP = CURVE_PCT[i];
  return Math.round(loP + ((cv - loV) / (hiV - loV)) * (hiP - loP));
}

/** Below the threshold; a threshold of 0 switches the check off. */
export function isLowBattery(percent: number, threshold: number): boolean {
  return threshold > 0 && percent < threshold;
}
