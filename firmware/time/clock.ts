// The device's local time: the wall clock seen through the TZ setting.
import type { LocalTime } from "./local";
import type { Tz } from "./tz";
import { localTime, utcOffsetMs } from "./tz";

export class LocalClock {
  /** The zone in force, UTC to begin with; compiled again when the TZ string changes or its year runs out. */
  readonly tz: Tz = { src: "UTC0", std: 0, dst: 0, from: -Infinity, to: Infinity, on: 0, off: 0 };
  /** The whole second `filled` holds; the civil date is worked out once a second, not per frame. */
  private second = NaN;
  private filled: LocalTime | null = null;

  /** `now` gives UTC milliseconds since 1970 (the platform's wall clock). */
  constructor(private readonly now: () => number) {}

  /**
   * The zone to show, read every frame: the same string costs a comparison, a new one is compiled
   * at once (see time/tz.ts).
   */
  setZone(tzString: string): void {
    const tz = this.tz;
    if (tzString === tz.src) {
      // The same text, but maybe another string: a saved system configuration brings a copy of
      // every value, and the clock holding on to the one it was compiled from would keep a
      // second copy of the zone for good (3 variables). It takes the one in force instead.
      tz.src = tzString;
      return;
    }
    tz.src = tzString;
    tz.from = NaN;
    utcOffsetMs(tz, this.now());
    this.second = NaN;
  }

  fill(out: LocalTime): void {
    const ms = this.now();
    const second = Math.floor(ms / 1000);
    if (second === this.second && out === this.filled) {
      out.ms = ms - second * 1000;
      return;
    }
    localTime(this.tz, ms, out);
    this.second = second;
    this.filled = out;
  }
}
