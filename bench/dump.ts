// Reads E.dumpVariables() listings ("ref,size,flags,name,links..." per variable) and sorts the
// variables by kind, to see where the interpreter's memory goes. The interpreter runs the
// firmware from memory-mapped Storage as the clock does, so its figures are the clock's: a
// function's code is one variable pointing into flash.
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
  /** Variables by kind. */
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
  const kinds: { [k: string]: number } = {};
  for (const [ref, s] of size) {
    listed += s;
    const k = code.has(ref) ? "function code (references into flash)" : kind.get(ref) || "other";
    kinds[k] = (kinds[k] || 0) + s;
  }
  let functions = 0;
  for (const ref of code) if (size.has(ref)) functions++;
  return { usage: dump.usage, listed, functions, kinds };
}
