// The settings table every other part of the settings reads: type, range and default per key.
//
// Each row describes one key as space-separated words:
//
//   <name> <kind> [arguments]
//
//   bool       <default>
//   int        <default> <lo> [hi]      integer in lo..hi (no upper bound when hi is left out)
//   positive   <default>                any number above 0
//   enum       <default> <a,b,c>        one of the names, matched case-insensitively
//   transition <default>                one of TRANSITIONS, matched case-insensitively
//   color      <RRGGBB>                 a colour; null refused
//   ncolor                              a colour or null (inherit or off); defaults to null
//   days       <d,d>                    weekday numbers 0 (Sunday) .. 6; weekday names on the wire
//   scroll                              the scroll object (text/scroll-spec.ts)
//   group                               an object whose fields are the rows named "<name>.<field>"
//
// The rows are one text returned by a function rather than an array or objects: on the device the
// function's code stays in flash, so the table costs RAM only while a request or the boot load
// reads it, one row at a time. GET lists the keys in this order, which is also the order of the
// Settings interface.
import type { Settings } from "./types";
import { DEFAULT_SCROLL } from "../text/scroll-spec";
import { formatColor } from "../color/color";
import { findText } from "../core/text";

/** Every row, each preceded by "|", and a closing "|". */
function table(): string {
  return "|autoBrightness bool false" +
    "|brightness int 120 0 255" +
    "|saturation int 100 0 100" +
    "|gamma positive 1.9" +
    "|colorCorrection ncolor" +
    "|colorTint ncolor" +
    "|textColor color FFFFFF" +
    "|uppercase bool true" +
    "|scroll scroll" +
    "|autoTransition bool true" +
    "|appDurationMs int 7000 0" +
    "|transitionEffect transition Rain" +
    "|transitionDirection enum normal normal,reverse" +
    "|transitionDurationMs int 1000 0 2147483647" +
    "|timeMode int 1 0 6" +
    "|timeColor ncolor" +
    "|calendarHeaderColor color FF0000" +
    "|calendarTextColor color 000000" +
    "|calendarBodyColor color FFFFFF" +
    "|time24h bool true" +
    "|timeLeadingZero bool true" +
    "|timeShowSeconds bool false" +
    "|timeShowAmPm bool false" +
    "|timeSeparatorMode enum pulse steady,blink,pulse" +
    "|dateOrder enum dayMonthYear dayMonthYear,monthDayYear,yearMonthDay" +
    "|dateSeparator enum dot dot,slash,dash" +
    "|dateYearMode enum twoDigit none,twoDigit,fourDigit" +
    "|dateShowWeekday bool false" +
    "|dateMonthNames bool false" +
    "|dateColor ncolor" +
    "|weekdayBar group" +
    "|weekdayBar.show bool true" +
    "|weekdayBar.startOnMonday bool true" +
    "|weekdayBar.weekendDays days 0,6" +
    "|weekdayBar.activeColor color FFFFFF" +
    "|weekdayBar.inactiveColor color 666666" +
    // The weekend colours start out as the workday ones, so the bar looks uniform until set.
    "|weekdayBar.weekendActiveColor color FFFFFF" +
    "|weekdayBar.weekendInactiveColor color 666666" +
    "|useCelsius bool true" +
    "|temperatureColor ncolor" +
    "|humidityColor ncolor" +
    "|batteryColor ncolor" +
    "|soundEnabled bool true" +
    "|buzzerVolume int 80 0 100" +
    "|dfplayerVolume int 80 0 100" +
    "|mp3Volume int 70 0 100" +
    "|radioVolume int 60 0 100" +
    "|radioMeta bool true" +
    "|blockNavigation bool false" +
    "|";
}

/** Weekday names as the API spells them, index = calendar day number (0 = Sunday). */
export const WEEKDAYS: string[] = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

export type Kind = "bool" | "int" | "positive" | "enum" | "transition" | "color" | "ncolor" | "days" | "scroll" | "group";

/** One parsed row of the table. */
export interface FieldSpec {
  /** Full name; "weekdayBar.show" for a field of a group. */
  name: string;
  kind: Kind;
  /** Inclusive range of int. */
  lo: number;
  hi: number;
  /** Canonical spellings of an enum. */
  values: string[];
  /** The default word(s) of the row, unparsed. */
  def: string;
}

/** A settings object (or group) viewed as a plain record, for table-driven access. */
export type Bag = { [name: string]: unknown };

function parseField(row: string): FieldSpec {
  const t = row.split(" ");
  const spec: FieldSpec = { name: t[0], kind: t[1] as Kind, lo: 0, hi: 0, values: [], def: t[2] || "" };
  if (spec.kind === "int") {
    spec.lo = parseFloat(t[3]);
    spec.hi = t.length > 4 ? parseFloat(t[4]) : Infinity;
  } else if (spec.kind === "enum") {
    spec.values = t[3].split(",");
  }
  return spec;
}

/** The spec of a row by full name ("brightness", "weekdayBar.show"), or null when there is none. */
export function findField(name: string): FieldSpec | null {
  const rows = table();
  const at = findText(rows, "|" + name + " ");
  if (at < 0) return null;
  const spec = parseField(rows.substring(at + 1, rows.indexOf("|", at + 1)));
  // A name with a space or "|" in it could match across rows.
  return spec.name === name ? spec : null;
}

/** Calls `fn` with every row in table order. */
export function eachField(fn: (spec: FieldSpec) => void): void {
  const rows = table();
  let at = 0;
  let next = rows.indexOf("|", 1);
  while (next > 0) {
    fn(parseField(rows.substring(at + 1, next)));
    at = next;
    next = rows.indexOf("|", at + 1);
  }
}

/** The last part of a row name: "show" of "weekdayBar.show". */
export function leafName(name: string): string {
  const dot = name.indexOf(".");
  return dot < 0 ? name : name.substr(dot + 1);
}

/** Where the value of a row lives: the settings object itself, or its group's object. */
export function holderOf(settings: Bag, name: string): Bag {
  const dot = name.indexOf(".");
  return dot < 0 ? settings : settings[name.substr(0, dot)] as Bag;
}

/** The default of one row, in the form the firmware holds it. */
function defaultOf(spec: FieldSpec): unknown {
  switch (spec.kind) {
    case "bool": return spec.def === "true";
    case "int":
    case "positive": return parseFloat(spec.def);
    case "color": return parseInt(spec.def, 16);
    case "ncolor": return null;
    case "days": return spec.def.split(",").map((d) => parseInt(d, 10));
    case "scroll": return Object.assign({}, DEFAULT_SCROLL);
    case "group": return {};
    default: return spec.def;
  }
}

/** A fresh factory-default settings object. */
export function defaultSettings(): Settings {
  const out: Bag = {};
  eachField((spec) => {
    holderOf(out, spec.name)[leafName(spec.name)] = defaultOf(spec);
  });
  return out as unknown as Settings;
}

/** One value as the API writes it. */
function publicValue(spec: FieldSpec, v: unknown): unknown {
  if (spec.kind === "color" || (spec.kind === "ncolor" && v !== null)) return formatColor(v as number);
  if (spec.kind === "days") return (v as number[]).map((d) => WEEKDAYS[d]);
  if (spec.kind === "group") return {};
  return v;
}

/** The GET representation: every key in table order, colours "#RRGGBB", weekdays by name. */
export function publicSettings(settings: Settings): Bag {
  const src = settings as unknown as Bag;
  const out: Bag = {};
  eachField((spec) => {
    const leaf = leafName(spec.name);
    holderOf(out, spec.name)[leaf] = publicValue(spec, holderOf(src, spec.name)[leaf]);
  });
  return out;
}
