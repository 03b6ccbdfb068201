// A broken-down local time, filled in place so the frame path allocates nothing.

export interface LocalTime {
  year: number;
  /** 1-12 */
  month: number;
  /** 1-31 */
  day: number;
  hours: number;
  minutes: number;
  seconds: number;
  ms: number;
  /** 0 = Sunday ... 6 = Saturday */
  weekday: number;
}

export function newLocalTime(): LocalTime {
  return { year: 1970, month: 1, day: 1, hours: 0, minutes: 0, seconds: 0, ms: 0, weekday: 4 };
}
