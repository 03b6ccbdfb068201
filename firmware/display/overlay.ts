// The global weather overlay and its settings (PATCH /api/v1/display). Validated and kept now;
// drawn by the overlay renderer.
import type { Failure } from "../core/failure";
import { invalid, isFailure } from "../core/failure";
import { OVERLAYS, PALETTES } from "../device/names";
import { findName } from "../core/text";
import { formatColor, parseColor } from "../color/color";
import type { StoredPalette } from "../payload/stored";
import { findPaletteFile, readPaletteFile } from "../palette/file";
import { sortStops } from "../palette/compile";

export const SPEED_MIN = 0.1;
export const SPEED_MAX = 10;
const MAX_STOPS = 16;

export interface OverlayState {
  /** Canonical overlay name, or null for none. */
  name: string | null;
  speed: number;
  /** In the form a payload's palette is stored in (payload/stored.ts); null when unset. */
  palette: StoredPalette | null;
  blend: boolean;
}

export function newOverlay(): OverlayState {
  return { name: null, speed: 1, palette: null, blend: true };
}

/**
 * A palette value as stored (null when unset): a palette file's or a built-in's name, or 1-16
 * colours, or 1-16 {color, pos} stops (not mixed; sorted by pos), as a payload's palette is.
 */
function checkPalette(v: unknown, field: string): StoredPalette | null | Failure {
  if (v === null) return null;
  if (typeof v === "string") {
    // A file wins over a built-in of the same name; one that does not read is refused.
    const file = findPaletteFile(v);
    if (file) return readPaletteFile(file) ? file : invalid(field, "malformed palette file");
    const i = findName(PALETTES, v);
    return i >= 0 ? PALETTES[i] : invalid(field, "unknown palette");
  }
  if (!Array.isArray(v) || v.length === 0) return invalid(field, "must be a palette name or a list of 1-16 colors");
  const colors: number[] = [];
  const stops: number[][] = [];
  const n = Math.min(v.length, MAX_STOPS);
  for (let i = 0; i < n; i++) {
    const stop = v[i];
    const isStop = typeof stop === "object" && stop !== null && !Array.isArray(stop);
    if (isStop) {
      const s = stop as { color?: unknown; pos?: unknown };
      const pos = s.pos;
      const color = parseColor(s.color);
      if (typeof pos !== "number" || pos < 0 || pos > 100 || color < 0) {
        return invalid(field, "a stop needs color and pos 0-100");
      }
      stops.push([pos, color]);
    } else {
      const color = parseColor(stop);
      if (color < 0) return invalid(field, "is not a valid color list");
      colors.push(color);
    }
  }
  if (stops.length === 0) return colors;
  if (stops.length !== n) return invalid(field, "stops must all have a position or none");
  return sortStops(stops);
}

/** A stored palette the way GET /api/v1/display shows it: a name, "#RRGGBB" colours or {color, pos} stops. */
export function paletteView(p: StoredPalette | null): unknown {
  if (p === null || typeof p === "string") return p;
  const out: unknown[] = [];
  for (let i = 0; i < p.length; i++) {
    const e = p[i];
    out.push(typeof e === "number" ? formatColor(e) : { color: formatColor(e[1]), pos: e[0] });
  }
  return out;
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
      const palette = checkPalette(o.palette, "overlaySettings.palette");
      if (isFailure(palette)) return palette;
      next.palette = palette;
    }
    if ("blend" in o) {
      if (typeof o.blend !== "boolean") return invalid("overlaySettings.blend", "must be a boolean");
      next.blend = o.blend;
    }
  }
  return null;
}
