// Compiles a POSIX TZ string such as "CET-1CEST,M3.5.0,M10.5.0/3" into the zone time/tz.ts works
// with: its offsets and the instants daylight time starts and ends in the local standard-time
// year that holds a given instant. A module: it runs when the TZ setting changes and when the
// year runs out, not with every frame. A string it cannot read in full gives UTC.
import type { Tz } from "./tz";

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

/** What a TZ string says. */
interface Rules {
  /** Seconds west of Greenwich, as POSIX writes them (the sign is the opposite of "UTC+x"). */
  std: number;
  dst: number;
  /** null when the zone has no daylight time. */
  start: TzRule | null;
  end: TzRule | null;
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

/** The rules of a TZ string; null when it cannot be read in full. */
function parseRules(s: string): Rules | null {
  src = s;
  at = 0;
  if (!readName()) return null;
  const std = readHms(24);
  if (std !== std) return null;
  if (at === src.length) return { std, dst: std, start: null, end: null };
  if (!readName()) return null;
  let dst = std - 3600;
  if (at < src.length && peek() !== ",") {
    dst = readHms(24);
    if (dst !== dst) return null;
  }
  if (at === src.length) {
    src = DEFAULT_RULES;
    at = 0;
  }
  const start = skip(",") ? readRule() : null;
  const end = start && skip(",") ? readRule() : null;
  if (!end || at !== src.length) return null;
  return { std, dst, start, end };
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

/** Fills `tz` from its string for the local standard-time year that holds `utcMs`. */
function compileZone(tz: Tz, utcMs: number): void {
  const r = typeof tz.src === "string" ? parseRules(tz.src) : null;
  tz.std = r ? -r.std * 1000 : 0;
  tz.dst = r ? -r.dst * 1000 : 0;
  tz.on = tz.off = 0;
  if (!r || !r.start || !r.end) {
    // The same offset at every instant: never compiled again.
    tz.dst = tz.std;
    tz.from = -Infinity;
    tz.to = Infinity;
    return;
  }
  const days = Math.floor((utcMs + tz.std) / MS_PER_DAY);
  let year = Math.floor(days / 365.2425) + 1970;
  if (daysFromCivil(year, 1, 1) > days) year--;
  else if (daysFromCivil(year + 1, 1, 1) <= days) year++;
  tz.from = daysFromCivil(year, 1, 1) * MS_PER_DAY - tz.std;
  tz.to = daysFromCivil(year + 1, 1, 1) * MS_PER_DAY - tz.std;
  // Each switch is given in the wall time in force just before it.
  tz.on = ruleDays(r.start, year) * MS_PER_DAY + r.start.timeSec * 1000 - tz.std;
  tz.off = ruleDays(r.end, year) * MS_PER_DAY + r.end.timeSec * 1000 - tz.dst;
}

export default compileZone;
