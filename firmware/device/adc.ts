// The last five raw readings of one ADC tap (battery divider, light sensor) with a median over
// what it holds. One typed array per tap, its last slot counting the readings: no allocation per
// reading or per query, and no other field (the samplers live as long as the firmware).

export const MEDIAN_SLOTS = 5;
/** Full-scale reading of the 12-bit ADC. */
export const ADC_MAX = 4095;

export class AdcSampler {
  readonly pin: number;
  /**
   * The readings, then at MEDIAN_SLOTS the readings taken: 0-4, then kept between 5 and 9 (the
   * count is 5 from there on, and the slot to write next is always that number modulo 5).
   */
  private ring: Uint16Array;

  constructor(pin: number) {
    this.pin = pin;
    this.ring = new Uint16Array(MEDIAN_SLOTS + 1);
  }

  /** One raw 12-bit reading, clamped to 0-4095. */
  push(raw: number): void {
    const ring = this.ring;
    const taken = ring[MEDIAN_SLOTS];
    ring[taken % MEDIAN_SLOTS] = raw < 0 ? 0 : raw > ADC_MAX ? ADC_MAX : Math.round(raw);
    ring[MEDIAN_SLOTS] = taken + 1 < 2 * MEDIAN_SLOTS ? taken + 1 : MEDIAN_SLOTS;
  }

  /** Readings held so far (0-5). */
  size(): number {
    const taken = this.ring[MEDIAN_SLOTS];
    return taken < MEDIAN_SLOTS ? taken : MEDIAN_SLOTS;
  }

  /**
   * Median of the readings held; the upper middle one for an even count; 0 when empty. Without
   * sorting a copy: the reading that has exactly as many smaller-or-equal neighbours as needed.
   */
  median(): number {
    const v = this.ring;
    const n = this.size();
    if (n <= 0) return 0;
    const k = n >> 1; // index of the median in sorted order
    for (let i = 0; i < n; i++) {
      let below = 0;
      let equal = 0;
      for (let j = 0; j < n; j++) {
        if (v[j] < v[i]) below++;
        else if (v[j] === v[i]) equal++;
      }
      if (below <= k && k < below + equal) return v[i];
    }
    return v[0];
  }
}
