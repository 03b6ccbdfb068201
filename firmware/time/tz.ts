// Local time from a POSIX TZ string such as "CET-1CEST,M3.5.0,M10.5.0/3", worked out with
// calendar arithmetic: the interpreter's Date knows no time zones. What stays in memory is the
// zone compiled for one year (a few numbers) and the arithmetic every frame needs; reading the
// string and working out a year's switches is the module time/zone (time/zone.mod.ts), run when
// the TZ setting changes and when an instant falls outside the compiled year.
import type { LocalTime } from "./local";
import type CompileZone from "./zone.mod";
import { loadModule } from "../platform/modules";

const MS_PER_DAY = 86400000;

/**
 * A zone compiled for one span of time. The short property names are on purpose: every name is
 * kept in memory with the object, and names of up to four characters take the least.
 */
export interface Tz {
  /** The TZ string it is compiled from. */
  src: string;
  /** Added to UTC to get standard time, ms. */
  std: number;
  /** Added to UTC to get daylight time, ms (the same as std in a zone without daylight time). */
  dst: number;
  /** The span of UTC instants [from, to) the fields below hold for (one local standard-time year). */
  from: number;
  to: number;
  /** The UTC instants daylight time starts and ends in that span (on > off in southern zones). */
  on: number;
  off: number;
}

/** A zone for `src`, compiled when it is first used. */
export function newZone(src: string): Tz {
  return { src, std: 0, dst: 0, from: NaN, to: NaN, on: 0, off: 0 };
}

/** Milliseconds to add to UTC for local time at that instant. */
export function utcOffsetMs(tz: Tz, utcMs: number): number {
  if (!(utcMs >= tz.from && utcMs < tz.to)) {
    // Not compiled yet, or for another year: the module compiles the span that holds utcMs.
    try {
      loadModule<typeof CompileZone>("time/zone")(tz, utcMs);
    } catch (e) {
      // Without the module: UTC until the zone changes.
      tz.std = tz.dst = tz.on = tz.off = 0;
      tz.from = -Infinity;
      tz.to = Infinity;
    }
  }
  // Southern zones start daylight time late in the year and end it early in the next.
  const inDst = tz.on < tz.off ? utcMs >= tz.on && utcMs < tz.off : utcMs >= tz.on || utcMs < tz.off;
  return inDst ? tz.dst : tz.std;
}

/** Fills `out` with the local civil time of a UTC instant; allocates nothing. */
export function localTime(tz: Tz, utcMs: number, out: LocalTime): void {
  const local = utcMs + utcOffsetMs(tz, utcMs);
  const days = Math.floor(local / MS_PER_DAY);
  let rest = local - days * MS_PER_DAY;
  out.weekday = ((days + 4) % 7 + 7) % 7;
  out.hours = Math.floor(rest / 3600000);
  rest -= out.hours * 3600000;
  out.minutes = Math.floor(rest / 60000);
  rest -= out.minutes * 60000;
  out.seconds = Math.floor(rest / 1000);
  out.ms = rest - out.seconds * 1000;
  // Civil date from a day count (era-based, exact for any Gregorian date).
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  out.day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  out.month = mp < 10 ? mp + 3 : mp - 9;
  out.year = yoe + era * 400 + (out.month <= 2 ? 1 : 0);
}
