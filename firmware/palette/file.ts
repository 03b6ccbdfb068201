// Palette files: /PALETTES/<name>.txt, kept in Storage as "P/<name>.txt" (files/paths.ts), one
// stop per line as palette/compile.ts parseStops reads them. A name finds its file ignoring case,
// as every name of the API does, and a file wins over a built-in palette of the same name.
import { folderPrefix } from "../files/paths";
import { parseStops } from "./compile";

const FOLDER = "/PALETTES";
const SUFFIX = ".txt";

/**
 * The name of the palette file that `name` finds ignoring case, spelled as it is stored (without
 * folder and ".txt"); "" when there is none. A name holding "/" or ".." never names a file.
 */
export function findPaletteFile(name: string): string {
  // split, not indexOf: Espruino's indexOf finds ".." in a name that merely ends with ".".
  if (!name || name.indexOf("/") >= 0 || name.split("..").length > 1) return "";
  const prefix = folderPrefix(FOLDER);
  const want = (prefix + name + SUFFIX).toLowerCase();
  // Only the folder's names are listed: the whole of Storage holds every module and font too.
  const names = require("Storage").list(new RegExp("^" + prefix));
  for (let i = 0; i < names.length; i++) {
    const n = names[i];
    if (n.length === want.length && n.toLowerCase() === want) return n.substr(prefix.length, n.length - prefix.length - SUFFIX.length);
  }
  return "";
}

/**
 * The sorted stops of the palette file `name` (spelled as stored, see findPaletteFile); null when
 * it is missing or does not read as 1-16 stops, which refuses it rather than guessing.
 */
export function readPaletteFile(name: string): number[][] | null {
  const text = require("Storage").read(folderPrefix(FOLDER) + name + SUFFIX);
  return text === undefined ? null : parseStops(text);
}
