// The strings the Time and Date apps show, from a local time and the settings that shape them.
// Called only when the shown text changes, so they may allocate.
import type { LocalTime } from "../../time/local";
import type { Settings } from "../../settings/types";

// Three letters per entry, indexed by weekday 0 = Sunday and by month - 1: one string each
// costs far fewer variables than an array of twelve.
const WEEKDAYS = "SunMonTueWedThuFriSat";
const MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

export function twoDigits(n: number): string {
  return n < 10 ? "0" + n : "" + n;
}

/** Seconds only on the plain clock (mode 0); the narrow and graphic modes never show them. */
export function showsSeconds(s: Settings): boolean {
  return s.timeMode === 0 && s.timeShowSeconds;
}

/**
 * The clock's texts: hours, minutes, then the seconds and " AM" or " PM", each null when not
 * shown. 12-hour time shows 12 at midnight and noon; AM/PM only on the plain 12-hour clock, and
 * never next to the seconds. One function, so that the Time page's module holds one.
 */
export function clockTexts(t: LocalTime, s: Settings): (string | null)[] {
  const h = s.time24h ? t.hours : t.hours % 12 || 12;
  return [s.timeLeadingZero ? twoDigits(h) : "" + h, twoDigits(t.minutes), showsSeconds(s) ? twoDigits(t.seconds) : null,
    s.timeMode === 0 && !s.time24h && s.timeShowAmPm && !s.timeShowSeconds ? (t.hours < 12 ? " AM" : " PM") : null];
}

/** The Date app's text, e.g. "10.03.26", "Tue 10 Mar 2026", "2026-03-10", "10.03." */
export function dateText(t: LocalTime, s: Settings): string {
  const names = s.dateMonthNames;
  const day = twoDigits(t.day);
  const month = names ? MONTHS.substr((t.month - 1) * 3, 3) : twoDigits(t.month);
  const year = s.dateYearMode === "fourDigit" ? "" + t.year : s.dateYearMode === "twoDigit" ? twoDigits(t.year % 100) : "";
  // The separators' table is made here, once a day, rather than held by the loaded page.
  const sep = names ? " " : ({ dot: ".", slash: "/", dash: "-" } as { [k: string]: string })[s.dateSeparator];
  let text: string;
  if (s.dateOrder === "yearMonthDay") text = (year ? year + sep : "") + month + sep + day;
  else {
    text = s.dateOrder === "monthDayYear" ? month + sep + day : day + sep + month;
    if (year) text += sep + year;
    // The German short form "31.12." ends with its separator.
    else if (s.dateOrder === "dayMonthYear" && sep === ".") text += ".";
  }
  return s.dateShowWeekday ? WEEKDAYS.substr(t.weekday * 3, 3) + " " + text : text;
}
