// Reads E.dumpVariables() listings ("ref,size,flags,name,links..." per variable) and works out
// what the same state costs on the ESP32.
//
// The one difference that matters: the ESP32 maps Storage into memory, so a function evaluated
// from the bundle keeps its code as a native string, one variable pointing into flash. The Linux
// build cannot map its Storage file, so the bundle is evaluated from a copy in RAM and every
// function keeps a copy of its own source text, several variables each. Everything else (names,
// objects, arrays, strings built at run time, literals copied out of the code) costs the same on
// both. So: device-equivalent usage = usage - sum over function code strings of (size - 1).
import type { VariableDump } from "../test/espruino/launch";

const CODE_NAME = "\"\\xFFcod\",";

/** Variable types that print without a description (jsvar.h, JsVarFlags). */
const TYPE_NAMES: { [t: number]: string } = {
  1: "root", 2: "null", 4: "array buffers", 6: "getters/setters", 7: "functions",
  8: "native functions", 9: "functions",
};

export interface DumpFigures {
  /** process.memory().usage measured (after a garbage collection) right before the listing. */
  usage: number;
  /** Variables the listing accounts for. */
  listed: number;
  /** Functions with code. */
  functions: number;
  /** Variables held by function code strings here. */
  codeVars: number;
  /** What the ESP32 would not spend: codeVars less one variable per function. */
  correction: number;
  /** usage - correction */
  device: number;
  /** Variables by kind, with function code counted at its device cost. */
  kinds: { [kind: string]: number };
}

function kindOf(flags: number, rest: string): string {
  if (rest.startsWith("\"")) return "names (variables, properties, parameters)";
  if (rest.startsWith("String ")) return "strings";
  if (rest.startsWith("Object,")) return "objects";
  if (rest.startsWith("Array,")) return "arrays";
  if (rest.startsWith("Number ")) return "numbers";
  return TYPE_NAMES[flags & 63] || "other (type " + (flags & 63) + ")";
}

export function analyseDump(dump: VariableDump): DumpFigures {
  const size = new Map<number, number>();
  const kind = new Map<number, string>();
  const code = new Set<number>();
  for (const line of dump.lines) {
    const a = line.indexOf(",");
    const b = line.indexOf(",", a + 1);
    const c = line.indexOf(",", b + 1);
    if (a < 0 || b < 0 || c < 0) continue;
    const ref = Number(line.slice(0, a));
    if (!Number.isInteger(ref)) continue;
    const rest = line.slice(c + 1);
    size.set(ref, Number(line.slice(a + 1, b)));
    kind.set(ref, kindOf(Number(line.slice(b + 1, c)), rest));
    if (rest.startsWith(CODE_NAME)) {
      const link = Number(rest.slice(CODE_NAME.length).split(",")[0]);
      if (link) code.add(link);
    }
  }
  let listed = 0;
  for (const s of size.values()) listed += s;
  let codeVars = 0;
  let functions = 0;
  for (const ref of code) {
    const s = size.get(ref);
    if (s === undefined) continue;
    codeVars += s;
    functions++;
  }
  const correction = codeVars - functions;
  const kinds: { [k: string]: number } = {};
  for (const [ref, s] of size) {
    const k = code.has(ref) ? "function code (1 per function on the device)" : kind.get(ref) || "other";
    kinds[k] = (kinds[k] || 0) + (code.has(ref) ? 1 : s);
  }
  return { usage: dump.usage, listed, functions, codeVars, correction, device: dump.usage - correction, kinds };
}
