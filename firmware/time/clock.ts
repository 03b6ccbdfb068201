// The device's local time: the wall clock seen through the TZ setting.
import type { LocalTime } from "./local";
import { localTime, parseTz, Tz } from "./tz";

export class LocalClock {
  /** The zone in force; replaced only when the TZ string changes. */
  tz: Tz = parseTz("UTC0");
  private zone = "UTC0";

  /** `now` gives UTC milliseconds since 1970 (the platform's wall clock). */
  constructor(private readonly now: () => number) {}

  setZone(tzString: string): void {
    if (tzString === this.zone) return;
    this.zone = tzString;
    this.tz = parseTz(tzString);
  }

  fill(out: LocalTime): void {
    localTime(this.tz, this.now(), out);
  }
}
