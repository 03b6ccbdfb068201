// Pin map rules. Everything chip-specific comes from the board's ChipRules, so the messages name
// the running chip's own ranges; the pin fields and their roles come from the schema table.
import type { Board, ChipRules, PinMap, PinRange } from "../../boards/board";
import { failure, invalid } from "../core/failure";
import type { Failure } from "../core/failure";
import { fieldRows, parseField } from "./schema";
import type { Bag } from "./schema";

/** The range of `ranges` holding `pin`, or null. */
function rangeOf(ranges: PinRange[], pin: number): PinRange | null {
  for (let i = 0; i < ranges.length; i++) {
    if (pin >= ranges[i][0] && pin <= ranges[i][1]) return ranges[i];
  }
  return null;
}

export function inRanges(ranges: PinRange[], pin: number): boolean {
  return rangeOf(ranges, pin) !== null;
}

/** "6-11", or "5" for a one-pin range. */
function rangeText(lo: number, hi: number): string {
  return lo === hi ? "" + lo : lo + "-" + hi;
}

/** "GPIO 6-11 are" / "GPIO 5 is". */
function gpioPhrase(lo: number, hi: number): string {
  return "GPIO " + rangeText(lo, hi) + (lo === hi ? " is" : " are");
}

function rangesText(ranges: PinRange[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ranges.length; i++) parts.push(rangeText(ranges[i][0], ranges[i][1]));
  return parts.join(", ");
}

/** Whether the RTC domain keeps this pin powered in deep sleep (wake-capable). */
export function isRtcPin(chip: ChipRules, pin: number): boolean {
  return pin >= 0 && inRanges(chip.rtc, pin);
}

/** Whether the pin is bonded out on this chip (-1 and anything out of range: false). */
export function pinExists(chip: ChipRules, pin: number): boolean {
  return pin >= 0 && pin <= chip.max && Math.floor(pin) === pin && !inRanges(chip.missing, pin);
}

export function isAdc1Pin(chip: ChipRules, pin: number): boolean {
  return pin >= 0 && inRanges(chip.adc1, pin);
}

function bad(message: string): Failure {
  return failure(400, "invalidPinConfig", message);
}

/** Rules 2-4 for one enabled pin: exists, not reserved, can drive when it has to. */
function checkPin(chip: ChipRules, field: string, pin: number, drives: boolean): Failure | null {
  if (!pinExists(chip, pin)) {
    const hole = chip.missing.length ? " except " + rangesText(chip.missing) : "";
    return bad(field + ": not a valid " + chip.label + " GPIO (0-" + chip.max + hole + ", or -1 = disabled)");
  }
  for (let i = 0; i < chip.reserved.length; i++) {
    const r = chip.reserved[i];
    if (pin >= r.lo && pin <= r.hi) return bad(field + ": " + gpioPhrase(r.lo, r.hi) + " reserved for " + r.why);
  }
  if (drives) {
    const r = rangeOf(chip.inputOnly, pin);
    if (r) return bad(field + ": " + gpioPhrase(r[0], r[1]) + " input-only");
  }
  return null;
}

/**
 * Validates a whole pin map against the chip; the first failure wins (400 invalidPinConfig, no
 * field). Order: (1) pinMatrix on the driver list; (2-4) pin by pin in table order: exists, not
 * reserved, not input-only when it must drive; (5) pinBattery and pinLdr on ADC1; (6) no GPIO
 * used twice. -1 (disabled) skips every rule except (1).
 */
export function validatePinMap(map: PinMap, chip: ChipRules): Failure | null {
  const pins = map as unknown as Bag;
  if (chip.matrix.indexOf(map.pinMatrix) < 0) {
    return bad("pinMatrix: unsupported pin (compiled drivers: " + chip.matrix.join(",") + ")");
  }
  const names: string[] = [];
  const values: number[] = [];
  const adc: string[] = [];
  const rows = fieldRows();
  for (let i = 0; i < rows.length; i++) {
    const spec = parseField(rows[i]);
    if (spec.kind !== "pin") continue;
    const pin = pins[spec.name] as number;
    if (pin === -1) continue;
    const f = checkPin(chip, spec.name, pin, spec.role === "matrix" || spec.role === "out");
    if (f) return f;
    if (spec.role === "adc") adc.push(spec.name);
    names.push(spec.name);
    values.push(pin);
  }
  for (let i = 0; i < adc.length; i++) {
    if (!isAdc1Pin(chip, pins[adc[i]] as number)) {
      return bad(adc[i] + ": must be an ADC1 pin (GPIO " + rangesText(chip.adc1) +
        ", usable while WiFi is on)");
    }
  }
  for (let i = 0; i < values.length; i++) {
    for (let j = i + 1; j < values.length; j++) {
      if (values[i] !== values[j]) continue;
      let msg = "duplicate pin " + values[i] + " (" + names[i] + ", " + names[j] + ")";
      if (names[i] === "pinMatrix") {
        msg += " - the matrix pin cannot be shared; move " + names[j] + " to another GPIO in the same request";
      }
      return bad(msg);
    }
  }
  return null;
}

/**
 * The I2S data pins are a set: all three assigned or all three -1 (422 on the first unset one);
 * the master clock and the amplifier enable each need the full set (422 on that field).
 */
export function checkI2sSet(map: PinMap): Failure | null {
  const pins = map as unknown as Bag;
  // Lists made here rather than constants of the file: a module's constants are held for as long
  // as it is loaded.
  const I2S_SET = ["pinI2sBclk", "pinI2sLrclk", "pinI2sDout"];
  const I2S_USERS = ["pinI2sMclk", "pinAmpEnable"];
  let set = 0;
  let firstUnset = "";
  for (let i = 0; i < I2S_SET.length; i++) {
    if ((pins[I2S_SET[i]] as number) >= 0) set++;
    else if (!firstUnset) firstUnset = I2S_SET[i];
  }
  if (set > 0 && set < I2S_SET.length) {
    return invalid(firstUnset, "the I2S pins work as a set: give all three, or -1 for all three");
  }
  if (set === 0) {
    for (let i = 0; i < I2S_USERS.length; i++) {
      if ((pins[I2S_USERS[i]] as number) >= 0) {
        return invalid(I2S_USERS[i], "needs the three I2S pins (pinI2sBclk, pinI2sLrclk, pinI2sDout) set");
      }
    }
  }
  return null;
}

/** The capabilities `gpio` object: the chip's rules and the board's factory pin map. */
export function gpioCapabilities(board: Board, c: ChipRules): object {
  return {
    soc: board.soc,
    label: c.label,
    max: c.max,
    missing: c.missing,
    inputOnly: c.inputOnly,
    reserved: c.reserved,
    adc1: c.adc1,
    strapping: c.strapping,
    rtc: c.rtc,
    matrix: c.matrix,
    defaults: c.defaults,
  };
}
