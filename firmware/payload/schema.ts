// The keys of the app and notification payload: one row per key, of space-separated words:
//
//   <name> <kind> [default] [arguments]
//
//   text                       a string, or an array of {text, color} fragments
//   word    <default> <a,b,c>  one of the words, matched case-insensitively
//   color   [RRGGBB]           a colour (no default: the page decides)
//   pcolor  [RRGGBB]           a colour or the word "palette"
//   int     <default> <lo> <hi>  a number, rounded and clamped to lo..hi
//   float   <default> <lo> <hi>  a number, clamped to lo..hi
//   percent <default>          0-100, clamped above; below 0 means off
//   bool    <default>
//   string                     any string, kept as sent
//   any                        any value, kept as sent without a check
//   scroll | draw | chart | palette | effect | overlay   checked by their own rules
//
// Rows after the "#" (a last word of the row before them) are read on notifications only; on a
// pushed app those keys are unknown.
//
// A stored payload names its keys by one-letter codes, the row's position in CODES, which makes
// the JSON a pushed app keeps about half as long. Payloads live only in memory, so a code need
// not outlast the build that gave it.
//
// The table is one text returned by a function: in a module its code stays in flash, so it costs
// memory only while a row is being read. It is imported by the payload modules and by modules
// that read a stored payload's keys (payloadFields), not by the resident core.
import { findText } from "../core/text";

function table(): string {
  return "|text text" +
    "|textCase word inherit inherit,upper,asTyped" +
    "|font word small small,large" +
    "|textColor pcolor" +
    "|textBlinkMs int 0 0 2147483647" +
    "|textFadeMs int 0 0 2147483647" +
    "|textCenter bool true" +
    "|scroll scroll" +
    "|textOffsetX int 0 -32768 32767" +
    "|textInFront bool false" +
    "|icon string" +
    "|iconMode word fixed fixed,pushOnce,push" +
    "|iconOffsetX int 0 -32768 32767" +
    "|backgroundColor color" +
    "|barChart chart" +
    "|lineChart chart" +
    "|chartAutoscale bool true" +
    "|chartColor pcolor" +
    "|progress percent -1" +
    "|progressColor pcolor 00FF00" +
    "|progressTrackColor color FFFFFF" +
    "|draw draw" +
    "|effect effect" +
    "|effectSpeed float 1 0.1 10" +
    "|palette palette" +
    "|paletteBlend bool true" +
    "|paletteSpan int 0 0 32767" +
    "|paletteSpeed float 0 0 10" +
    "|overlay overlay" +
    // Zero or less means forever (lifetime) and the global appDurationMs (duration).
    "|lifetimeMs int 0 0 2147483647" +
    "|lifetimeExpiry word remove remove,mark" +
    "|durationMs int 0 0 2147483647" +
    "|repeat int 0 0 2147483647 #" +
    "|hold bool false" +
    "|stack bool true" +
    "|wakeup bool false" +
    "|name string" +
    "|sound any" +
    "|soundRtttl string" +
    "|soundLoop bool false" +
    "|";
}

const CODES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export type KeyKind = "text" | "word" | "color" | "pcolor" | "int" | "float" | "percent" | "bool" | "string" | "any" |
  "scroll" | "draw" | "chart" | "palette" | "effect" | "overlay";

/** One row, split. */
export interface KeySpec {
  name: string;
  /** How a stored payload names the key. */
  code: string;
  kind: KeyKind;
  /** The default word, unparsed ("" when the row has none). */
  def: string;
  /** Range of int and float. */
  lo: number;
  hi: number;
  /** The words of a word key, comma-separated. */
  words: string;
}

/** The row of `name`, or null when the payload has no such key (notification-only keys count only when `notification`). */
export function findKey(name: string, notification: boolean): KeySpec | null {
  const rows = table();
  const at = findText(rows, "|" + name + " ");
  if (at < 0 || (!notification && at > rows.indexOf("#"))) return null;
  const t = rows.substring(at + 1, rows.indexOf("|", at + 1)).split(" ");
  // A name holding a space or "|" could match across rows.
  if (t[0] !== name) return null;
  const kind = t[1] as KeyKind;
  const ranged = kind === "int" || kind === "float";
  let row = 0;
  for (let i = rows.indexOf("|"); i >= 0 && i < at; i = rows.indexOf("|", i + 1)) row++;
  return {
    name: name,
    code: CODES.charAt(row),
    kind: kind,
    def: t[2] || "",
    lo: ranged ? parseFloat(t[3]) : 0,
    hi: ranged ? parseFloat(t[4]) : 0,
    words: kind === "word" ? t[3] : "",
  };
}

/** The name of the key a stored payload calls `code`; "" when there is none. */
export function keyName(code: string): string {
  const row = code.length === 1 ? CODES.indexOf(code) : -1;
  if (row < 0) return "";
  const rows = table();
  // Row n starts at the n-th "|" (the closing "|" starts none).
  let at = rows.indexOf("|");
  for (let i = 0; i < row && at >= 0; i++) at = rows.indexOf("|", at + 1);
  const end = at < 0 ? -1 : rows.indexOf(" ", at);
  return end < 0 ? "" : rows.substring(at + 1, end);
}

/** The default colour of a colour key with one in the table (progressColor, progressTrackColor). */
export function defaultColor(name: string): number {
  const spec = findKey(name, false);
  return spec && spec.def ? parseInt(spec.def, 16) : -1;
}
