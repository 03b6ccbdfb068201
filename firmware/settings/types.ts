// The settings resource as the firmware holds it. Colours are packed 0xRRGGBB integers (null
// where the key is nullable); the API form ("#RRGGBB") exists only at the HTTP boundary.
import type { ScrollSpec } from "../text/scroll-spec";

export interface WeekdayBar {
  show: boolean;
  startOnMonday: boolean;
  /** Calendar days that are weekend, 0 = Sunday ... 6 = Saturday, ascending. */
  weekendDays: number[];
  activeColor: number;
  inactiveColor: number;
  weekendActiveColor: number;
  weekendInactiveColor: number;
}

export type TimeSeparatorMode = "steady" | "blink" | "pulse";
export type DateOrder = "dayMonthYear" | "monthDayYear" | "yearMonthDay";
export type DateSeparator = "dot" | "slash" | "dash";
export type DateYearMode = "none" | "twoDigit" | "fourDigit";

export interface Settings {
  autoBrightness: boolean;
  brightness: number;
  saturation: number;
  gamma: number;
  colorCorrection: number | null;
  colorTint: number | null;
  textColor: number;
  uppercase: boolean;
  scroll: ScrollSpec;
  autoTransition: boolean;
  appDurationMs: number;
  /** Spelled as in TRANSITIONS (firmware/device/names.ts). */
  transitionEffect: string;
  transitionDirection: "normal" | "reverse";
  transitionDurationMs: number;
  timeMode: number;
  timeColor: number | null;
  calendarHeaderColor: number;
  calendarTextColor: number;
  calendarBodyColor: number;
  time24h: boolean;
  timeLeadingZero: boolean;
  timeShowSeconds: boolean;
  timeShowAmPm: boolean;
  timeSeparatorMode: TimeSeparatorMode;
  dateOrder: DateOrder;
  dateSeparator: DateSeparator;
  dateYearMode: DateYearMode;
  dateShowWeekday: boolean;
  dateMonthNames: boolean;
  dateColor: number | null;
  weekdayBar: WeekdayBar;
  useCelsius: boolean;
  temperatureColor: number | null;
  humidityColor: number | null;
  batteryColor: number | null;
  soundEnabled: boolean;
  buzzerVolume: number;
  dfplayerVolume: number;
  mp3Volume: number;
  radioVolume: number;
  radioMeta: boolean;
  blockNavigation: boolean;
}
