// From a palette as stored (a payload's palette, or the global overlaySettings.palette, which is
// kept in the same form) to what effects and overlays draw with.
//
// A name is looked up again when the page is made, not only when it was validated: a palette file
// can be written, replaced or deleted in between, and deleting a file that carried a built-in's
// name brings the built-in back.
import type { StoredPalette } from "../payload/stored";
import type Builtin from "./builtin.mod";
import { loadModule } from "../platform/modules";
import { findName } from "../core/text";
import { PALETTES } from "../device/names";
import { entriesFromColors, entriesFromStops, parseStops } from "./compile";
import { findPaletteFile, readPaletteFile } from "./file";
import { PaletteInk } from "./ink";

/**
 * The 16 entries of palette `p`; null when there is none (unset, or a name that no longer finds
 * a readable file nor a built-in), and the caller falls back to its stock colours.
 */
export function paletteEntries(p: StoredPalette | null | undefined): Uint32Array | null {
  if (p === null || p === undefined) return null;
  if (typeof p === "string") {
    const file = findPaletteFile(p);
    const stops = file ? readPaletteFile(file) : null;
    if (stops) return entriesFromStops(stops);
    const i = findName(PALETTES, p);
    return i < 0 ? null : loadModule<typeof Builtin>("palette/builtin")(PALETTES[i]);
  }
  if (p.length === 0) return null;
  return typeof p[0] === "number" ? entriesFromColors(p as number[]) : entriesFromStops(p as number[][]);
}

/**
 * The ink an effect or overlay draws with: palette `p` when it resolves, else `stock` (the module's
 * own colours as palette text); `blend` false gives 16 hard bands. Graded by the caller
 * (PaletteInk.grade) before the first frame.
 */
export function paletteInk(p: StoredPalette | null | undefined, blend: boolean, stock: string): PaletteInk {
  const entries = paletteEntries(p);
  if (entries) return new PaletteInk(entries, blend, true);
  // A module's stock is its own text and parses; white keeps a broken one visible.
  return new PaletteInk(entriesFromStops(parseStops(stock) || [[0, 0xffffff]]), blend, false);
}
