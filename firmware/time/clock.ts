// The device's local time: the wall clock seen through the TZ setting.
import type { LocalTime } from "./local";
import { localTime, parseTz, Tz } from "./tz";

export class LocalClock {
  /** The zone in force; replaced only when the TZ string changes. */
  tz: Tz = parseTz("UTC0");
  private zone = "UTC0";
  /** The whole second `filled` holds; the civil date is worked out once a second, not per frame. */
  private second = NaN;
  private filled: LocalTime | null = null;

  /** `now` gives UTC milliseconds since 1970 (the platform's wall clock). */
  constructor(private readonly now: () => number) {}

  setZone(tzString: string): void {
    if (tzString === this.zone) return;
    this.zone = tzString;
    this.tz = parseTz(tzString);
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
