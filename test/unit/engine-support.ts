// What an engine suite needs from the host before it draws: the Graphics stand-in, Espruino's
// E.mapInPlace and E.toArrayBuffer (the fading transitions use them), and Storage serving the
// fonts and the dimming tables. Suites share one process, so it is undone after each.
import { installGraphics } from "../harness/graphics";
import { fontFiles, serveStorage, storageOf } from "./text-support";
import { dimTables } from "../../build/tables.mjs";
import { crc32 } from "../harness/crc32";

/** Installs the above; the function returned puts everything back. */
export function installEngineHost(): () => void {
  installGraphics();
  const g = globalThis as unknown as { E?: object };
  const E = g.E;
  g.E = Object.assign({}, E, {
    mapInPlace: (from: Uint8Array, to: Uint8Array, map: Uint8Array) => {
      for (let i = 0; i < from.length; i++) to[i] = map[from[i]];
    },
    toArrayBuffer: (s: string) => Uint8Array.from(Buffer.from(s, "latin1")).buffer,
    toString: (x: unknown) => (x instanceof Uint8Array ? Buffer.from(x.buffer, x.byteOffset, x.length).toString("latin1") : String(x)),
    CRC32: (s: string | Uint8Array) => crc32(typeof s === "string" ? Buffer.from(s, "latin1") : Buffer.from(s)),
  });
  const unserve = serveStorage(storageOf(Object.assign({ "dim.lut": dimTables().toString("latin1") }, fontFiles())));
  return () => {
    unserve();
    g.E = E;
  };
}
