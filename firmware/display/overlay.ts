// The global weather overlay and its settings (PATCH /api/v1/display). Validated and kept now;
// drawn by the overlay renderer.
import type { Failure } from "../core/failure";
import { invalid } from "../core/failure";
import { OVERLAYS, PALETTES } from "../device/names";
import { findName } from "../core/text";
import { parseColor } from "../color/color";

export const SPEED_MIN = 0.1;
export const SPEED_MAX = 10;
const MAX_STOPS = 16;

export interface OverlayState {
  /** Canonical overlay name, or null for none. */
  name: string | null;
  speed: number;
  /** A palette name or a list of stops as given; null when unset. */
  palette: unknown;
  blend: boolean;
}

export function newOverlay(): OverlayState {
  return { name: null, speed: 1, palette: null, blend: true };
}

/** A palette value: a built-in name, or 1-16 colours, or 1-16 {color, pos} stops (not mixed). */
function checkPalette(v: unknown, field: string): Failure | null {
  if (v === null) return null;
  if (typeof v === "string") return findName(PALETTES, v) >= 0 ? null : invalid(field, "unknown palette");
  if (!Array.isArray(v) || v.length === 0) return invalid(field, "must be a palette name or a list of 1-16 colors");
  let positioned = 0;
  const n = Math.min(v.length, MAX_STOPS);
  for (let i = 0; i < n; i++) {
    const stop = v[i];
    const isStop = typeof stop === "object" && stop !== null && !Array.isArray(stop);
    if (isStop) {
      const s = stop as { color?: unknown; pos?: unknown };
      const pos = s.pos;
      if (typeof pos !== "number" || pos < 0 || pos > 100 || parseColor(s.color) < 0) {
        return invalid(field, "a stop needs color and pos 0-100");
      }
      positioned++;
    } else if (parseColor(stop) < 0) {
      return invalid(field, "is not a valid color list");
    }
  }
  return positioned === 0 || positioned === n ? null : invalid(field, "stops must all have a position or none");
}

/**
 * Validates the overlay keys of a PATCH body into `next` (a copy of the current state); the
 * caller applies `next` only when everything passed.
 */
export function applyOverlayPatch(body: { [k: string]: unknown }, next: OverlayState): Failure | null {
  if ("overlay" in body) {
    const v = body.overlay;
    if (v !== null && typeof v !== "string") return invalid("overlay", "must be a string or null");
    if (v === null || v === "") {
      // Removing the overlay removes its settings with it.
      const fresh = newOverlay();
      next.name = null;
      next.speed = fresh.speed;
      next.palette = fresh.palette;
      next.blend = fresh.blend;
    } else {
      const i = findName(OVERLAYS, v);
      if (i < 0) return invalid("overlay", "unknown overlay");
      next.name = OVERLAYS[i];
    }
  }
  if ("overlaySettings" in body) {
    const s = body.overlaySettings;
    if (typeof s !== "object" || s === null || Array.isArray(s)) return invalid("overlaySettings", "must be an object");
    const o = s as { [k: string]: unknown };
    if ("speed" in o) {
      if (typeof o.speed !== "number" || !isFinite(o.speed)) return invalid("overlaySettings.speed", "must be a number");
      next.speed = Math.min(SPEED_MAX, Math.max(SPEED_MIN, o.speed));
    }
    if ("palette" in o) {
      const bad = checkPalette(o.palette, "overlaySettings.palette");
      if (bad) return bad;
      next.palette = o.palette;
    }
    if ("blend" in o) {
      if (typeof o.blend !== "boolean") return invalid("overlaySettings.blend", "must be a boolean");
      next.blend = o.blend;
    }
  }
  return null;
}
