// Lookup tables the firmware reads from Storage rather than building in RAM.
//
//   dim.lut  DIM_STEPS tables of 256 bytes: table k maps a channel value v to round(v * k / (DIM_STEPS - 1)).
//            Fading transitions dim a whole page with one E.mapInPlace through one of them.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const TABLE_DIR = "dist/tables";
export const DIM_STEPS = 32;

export function dimTables() {
  const out = Buffer.alloc(DIM_STEPS * 256);
  for (let k = 0; k < DIM_STEPS; k++) {
    for (let v = 0; v < 256; v++) out[k * 256 + v] = Math.round((v * k) / (DIM_STEPS - 1));
  }
  return out;
}

export const TABLE_FILES = { "dim.lut": TABLE_DIR + "/dim.lut" };

export function writeTableFiles() {
  const dir = path.join(root, TABLE_DIR);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "dim.lut"), dimTables());
}
