// PUT /api/v1/system: a partial merge, validated completely before anything is applied.
//
// Order of checks (the first failure is the answer):
//   1. each known key of the body, in the body's key order: type, range or format (422 on it);
//      a blanked wifiSsid is refused here too; unknown keys are skipped, empty secrets ignored;
//   2. cross-field rules on the merged result: /prefix on ip together with a subnet, a static IP
//      without a mask, the MQTT and login gates, panel width, brightness range, the I2S set (422);
//   3. the merged pin map as a whole (400 invalidPinConfig).
import type { ChipRules } from "../../boards/board";
import { failure, invalid } from "../core/failure";
import type { Failure } from "../core/failure";
import { findField } from "./schema";
import type { Bag, FieldSpec, SystemConfig } from "./schema";
import { checkI2sSet, validatePinMap } from "./pins";
import { isInteger } from "../core/number";

// The messages are literals where they are given rather than constants of the file: a module's
// constants are held for as long as it is loaded.

/** "1".."255" or "0": decimal digits without a leading zero, at most `max`. */
function smallNumber(s: string, max: number): number {
  if (s.length < 1 || s.length > 3) return -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  if (s.length > 1 && s.charAt(0) === "0") return -1;
  const n = parseInt(s, 10);
  return n > max ? -1 : n;
}

/** Whether `s` is a dotted quad such as 192.168.1.50 (no leading zeros, each part 0-255). */
export function isDottedQuad(s: string): boolean {
  const parts = s.split(".");
  if (parts.length !== 4) return false;
  for (let i = 0; i < 4; i++) {
    if (smallNumber(parts[i], 255) < 0) return false;
  }
  return true;
}

/** The netmask of a prefix length: 24 gives 255.255.255.0. */
export function prefixToMask(bits: number): string {
  const out: number[] = [];
  for (let i = 0; i < 4; i++) {
    const n = Math.max(0, Math.min(8, bits - i * 8));
    out.push(256 - (1 << (8 - n)));
  }
  return out.join(".");
}

function cidrMessage(): string {
  return 'must be an IPv4 address like 192.168.1.50 or 192.168.1.50/24, or "" to leave it unset';
}

function isSha256Hex(s: string): boolean {
  if (s.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** A value that passed its field's check, in stored form; `mask` when ip carried a /prefix. */
export interface Checked { value: unknown; mask?: string }

/**
 * Type, range and format of one value against its field (no cross-field rules, no blanking or
 * secret rules). A string is the 422 message.
 */
export function checkField(spec: FieldSpec, v: unknown, chip: ChipRules): Checked | string {
  const k = spec.kind;
  if (k === "bool") return typeof v === "boolean" ? { value: v } : "must be a boolean";
  if (k === "int" || k === "long") {
    if (!isInteger(v)) return "must be an integer";
    return v < spec.lo || v > spec.hi ? "out of range" : { value: v };
  }
  if (k === "float") {
    if (typeof v !== "number" || !isFinite(v)) return "must be a number";
    return v < spec.lo || v > spec.hi ? "out of range" : { value: v };
  }
  if (k === "pin") {
    if (!isInteger(v)) return "must be an integer";
    return v < -1 || v > chip.max ? "must be -1 (disabled) or a GPIO in 0.." + chip.max : { value: v };
  }
  if (k === "enum") {
    if (typeof v === "string") {
      const low = v.toLowerCase();
      for (let i = 0; i < spec.values.length; i++) {
        if (spec.values[i].toLowerCase() === low) return { value: spec.values[i] };
      }
    }
    return "must be one of: " + spec.values.join(", ");
  }
  if (typeof v !== "string") return "must be a string";
  if (k === "ip") return v === "" || isDottedQuad(v) ? { value: v } : 'must be an IPv4 address like 192.168.1.50, or "" to leave it unset';
  if (k === "cidr") {
    const slash = v.indexOf("/");
    if (slash < 0) return v === "" || isDottedQuad(v) ? { value: v } : cidrMessage();
    const addr = v.substr(0, slash);
    const bits = smallNumber(v.substr(slash + 1), 32);
    if (bits < 0 || !isDottedQuad(addr)) return cidrMessage();
    return { value: addr, mask: prefixToMask(bits) };
  }
  if (k === "sha256") {
    return v === "" || isSha256Hex(v) ? { value: v } : 'must be 64 lowercase hex digits (the SHA-256 of the broker certificate), or "" for none';
  }
  return { value: v };
}

/**
 * Merges a PUT body onto `current` after validating all of it. Returns a fresh config, or the
 * first failure; `current` is never modified.
 */
export function applySystemPut(current: SystemConfig, body: unknown, chip: ChipRules): SystemConfig | Failure {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return failure(422, "validationFailed", "the body must be a JSON object of system fields");
  }
  const src = body as Bag;
  const next = Object.assign({}, current) as SystemConfig;
  const out = next as unknown as Bag;
  let prefixSent = false;
  let subnetSent = false;

  for (let key in src) {
    const spec = findField(key);
    if (!spec) continue;
    const r = checkField(spec, src[key], chip);
    if (typeof r === "string") return invalid(key, r);
    const v = r.value;
    if (key === "wifiSsid" && v === "") {
      return invalid(key, "an empty string is not a clear; use POST /api/v1/device/factory-reset instead");
    }
    if (spec.secret && v === "") continue;
    if (key === "subnet") {
      if (v !== "") subnetSent = true;
      // A /prefix on ip, wherever it stands in the body, names the mask.
      if (prefixSent) continue;
    }
    out[key] = v;
    if (r.mask !== undefined) {
      prefixSent = true;
      next.subnet = r.mask;
    }
  }

  if (prefixSent && subnetSent) {
    return invalid("subnet", 'the /prefix on "ip" already names the mask; send one or the other');
  }
  if (next.netStatic && next.ip !== "" && next.subnet === "") {
    return invalid("subnet", 'a static IP needs a mask; give it as /24 on "ip" or set "subnet"');
  }
  // Gates are checked when they are switched on; host and user may be blanked freely later.
  if (src.mqttEnabled === true && next.mqttHost === "") {
    return invalid("mqttHost", "set a broker host before enabling MQTT");
  }
  if (src.authEnabled === true && (next.authUser === "" || next.authPass === "")) {
    return invalid("authUser", "set a username and password before requiring login");
  }
  const width = next.panelWidth * next.panels;
  if (width < 32 || width > 128) {
    return invalid("panelWidth", "panelWidth x panels must come to between 32 and 128 pixels");
  }
  if (next.minBrightness > next.maxBrightness) {
    return invalid("minBrightness", "must not be greater than maxBrightness");
  }
  const i2s = checkI2sSet(next);
  if (i2s) return i2s;
  const pins = validatePinMap(next, chip);
  if (pins) return pins;
  return next;
}
