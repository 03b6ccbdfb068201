// Local time from a POSIX TZ string such as "CET-1CEST,M3.5.0,M10.5.0/3", worked out with
// calendar arithmetic: the interpreter's Date knows no time zones.
import type { LocalTime } from "./local";

const MS_PER_DAY = 86400000;

/** When in the year a switch between standard and daylight time happens. */
interface TzRule {
  /** "M" month.week.weekday, "J" day 1-365 that never counts Feb 29, "n" day 0-365 that does. */
  kind: string;
  month: number;
  /** 1-5; 5 is the last such weekday of the month. */
  week: number;
  /** 0 = Sunday. */
  weekday: number;
  /** The day number of the "J" and "n" forms. */
  day: number;
  /** Local wall time of the switch, seconds after midnight; may be negative or past 24 h. */
  timeSec: number;
}

/** A parsed zone. Built once per TZ setting; its cache of one year's switches is refreshed in place. */
export interface Tz {
  /** Added to UTC to get standard time. */
  stdOffsetMs: number;
  /** Added to UTC to get daylight time. */
  dstOffsetMs: number;
  /** null when the zone has no daylight time. */
  start: TzRule | null;
  end: TzRule | null;
  /** The span of UTC the cached switches belong to (one local standard-time year). */
  yearStartMs: number;
  yearEndMs: number;
  dstStartMs: number;
  dstEndMs: number;
}

// A daylight name without rules follows the US rules, as the C library does.
const DEFAULT_RULES = ",M3.2.0,M11.1.0";

// Parser cursor over the string being read (parsing is rare and never re-entered).
let src = "";
let at = 0;

function peek(): string {
  return src.charAt(at);
}

function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

function isLetter(c: string): boolean {
  return (c >= "A" && c <= "Z") || (c >= "a" && c <= "z");
}

function skip(c: string): boolean {
  if (peek() !== c) return false;
  at++;
  return true;
}

/** Up to maxDigits decimal digits; -1 when there are none. */
function readUint(maxDigits: number): number {
  const from = at;
  let n = 0;
  while (at - from < maxDigits && isDigit(peek())) n = n * 10 + src.charCodeAt(at++) - 48;
  return at === from ? -1 : n;
}

/** [+-]hh[:mm[:ss]] in seconds; NaN when malformed. */
function readHms(maxHours: number): number {
  const sign = skip("-") ? -1 : 1;
  if (sign > 0) skip("+");
  const hours = readUint(3);
  if (hours < 0 || hours > maxHours) return NaN;
  let total = hours * 3600;
  let unit = 3600;
  while (unit > 1 && skip(":")) {
    unit /= 60;
    const v = readUint(2);
    if (v < 0 || v > 59) return NaN;
    total += v * unit;
  }
  return sign * total;
}

/** A zone abbreviation: three or more letters, or <...> holding letters, digits, + and -. */
function readName(): boolean {
  const quoted = skip("<");
  const from = at;
  for (let c = peek(); isLetter(c) || (quoted && (isDigit(c) || c === "+" || c === "-")); c = peek()) at++;
  const length = at - from;
  return (!quoted || skip(">")) && length >= 3;
}

function readRule(): TzRule | null {
  const c = peek();
  const kind = c === "M" || c === "J" ? c : "n";
  if (kind !== "n") at++;
  const rule: TzRule = { kind, month: 0, week: 0, weekday: 0, day: 0, timeSec: 7200 };
  if (kind === "M") {
    rule.month = readUint(2);
    rule.week = skip(".") ? readUint(1) : -1;
    rule.weekday = skip(".") ? readUint(1) : -1;
    if (rule.month < 1 || rule.month > 12 || rule.week < 1 || rule.week > 5 || rule.weekday < 0 || rule.weekday > 6) return null;
  } else {
    rule.day = readUint(3);
    if (rule.day < (kind === "J" ? 1 : 0) || rule.day > 365) return null;
  }
  if (skip("/")) {
    rule.timeSec = readHms(167);
    if (rule.timeSec !== rule.timeSec) return null;
  }
  return rule;
}

/** Never throws: a string it cannot read in full gives UTC. */
export function parseTz(s: string): Tz {
  const tz: Tz = { stdOffsetMs: 0, dstOffsetMs: 0, start: null, end: null, yearStartMs: 0, yearEndMs: 0, dstStartMs: 0, dstEndMs: 0 };
  if (typeof s !== "string") return tz;
  src = s;
  at = 0;
  if (!readName()) return tz;
  // POSIX offsets count hours west of Greenwich: the sign is the opposite of "UTC+x".
  const std = readHms(24);
  if (std !== std) return tz;
  if (at === src.length) {
    tz.stdOffsetMs = -std * 1000;
    return tz;
  }
  if (!readName()) return tz;
  let dst = std - 3600;
  if (at < src.length && peek() !== ",") {
    dst = readHms(24);
    if (dst !== dst) return tz;
  }
  if (at === src.length) {
    src = DEFAULT_RULES;
    at = 0;
  }
  const start = skip(",") ? readRule() : null;
  const end = start && skip(",") ? readRule() : null;
  if (!end || at !== src.length) return tz;
  tz.stdOffsetMs = -std * 1000;
  tz.dstOffsetMs = -dst * 1000;
  tz.start = start;
  tz.end = end;
  return tz;
}

/** Days since 1970-01-01 of a proleptic Gregorian date. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

function weekdayOfDays(days: number): number {
  return ((days + 4) % 7 + 7) % 7;
}

/** Days since 1970 of the date a rule names in a year. */
function ruleDays(rule: TzRule, year: number): number {
  const jan1 = daysFromCivil(year, 1, 1);
  if (rule.kind === "n") return jan1 + rule.day;
  if (rule.kind === "J") {
    const leap = daysFromCivil(year, 3, 1) - daysFromCivil(year, 2, 1) === 29;
    return jan1 + rule.day - 1 + (leap && rule.day >= 60 ? 1 : 0);
  }
  const first = daysFromCivil(year, rule.month, 1);
  const monthDays = daysFromCivil(year, rule.month + 1, 1) - first;
  let d = first + (rule.weekday - weekdayOfDays(first) + 7) % 7 + (rule.week - 1) * 7;
  while (d - first >= monthDays) d -= 7;
  return d;
}

/** Caches the switches of the local standard-time year that holds utcMs. */
function cacheYear(tz: Tz, utcMs: number, start: TzRule, end: TzRule): void {
  const days = Math.floor((utcMs + tz.stdOffsetMs) / MS_PER_DAY);
  let year = Math.floor(days / 365.2425) + 1970;
  if (daysFromCivil(year, 1, 1) > days) year--;
  else if (daysFromCivil(year + 1, 1, 1) <= days) year++;
  tz.yearStartMs = daysFromCivil(year, 1, 1) * MS_PER_DAY - tz.stdOffsetMs;
  tz.yearEndMs = daysFromCivil(year + 1, 1, 1) * MS_PER_DAY - tz.stdOffsetMs;
  // Each switch is given in the wall time in force just before it.
  tz.dstStartMs = ruleDays(start, year) * MS_PER_DAY + start.timeSec * 1000 - tz.stdOffsetMs;
  tz.dstEndMs = ruleDays(end, year) * MS_PER_DAY + end.timeSec * 1000 - tz.dstOffsetMs;
}

/** Milliseconds to add to UTC for local time at that instant. */
export function utcOffsetMs(tz: Tz, utcMs: number): number {
  const start = tz.start;
  const end = tz.end;
  if (!start || !end) return tz.stdOffsetMs;
  if (utcMs < tz.yearStartMs || utcMs >= tz.yearEndMs) cacheYear(tz, utcMs, start, end);
  // Southern zones start daylight time late in the year and end it early in the next.
  const inDst = tz.dstStartMs < tz.dstEndMs
    ? utcMs >= tz.dstStartMs && utcMs < tz.dstEndMs
    : utcMs >= tz.dstStartMs || utcMs < tz.dstEndMs;
  return inDst ? tz.dstOffsetMs : tz.stdOffsetMs;
}

/** Fills `out` with the local civil time of a UTC instant; allocates nothing. */
export function localTime(tz: Tz, utcMs: number, out: LocalTime): void {
  const local = utcMs + utcOffsetMs(tz, utcMs);
  const days = Math.floor(local / MS_PER_DAY);
  let rest = local - days * MS_PER_DAY;
  out.weekday = weekdayOfDays(days);
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
