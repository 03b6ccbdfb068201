// The JSON body of a payload route, parsed with its draw lists compiled straight from the text,
// a command at a time (the pipeline uses it for routes flagged `draws`). Parsed whole, an 8 KB
// draw list costs about 2,700 variables as arrays and strings before it is compiled into a
// program of about 150; read a command at a time, only the body's text, one command and the
// program are held. Each list is replaced in the text by its number, the rest is parsed as usual,
// and the programs take the numbers' places. Whenever anything looks unusual (a list that does
// not read cleanly, a command the compiler refuses, a number not where a list was), the body is
// parsed whole instead, so that validation answers for it exactly as for any body.
import { parseJson } from "../core/json";
import { findText } from "../core/text";
import { addCommand, endProgram, newProgram } from "./draw";
import type { DrawProgram } from "./draw";

const KEY = "\"draw\"";

type Bag = { [key: string]: unknown };

function isSpace(c: string): boolean {
  return c === " " || c === "\n" || c === "\r" || c === "\t";
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charAt(i))) i++;
  return i;
}

/** An odd number of backslashes before `i`: the character there is escaped (inside a string). */
function escaped(text: string, i: number): boolean {
  let n = 0;
  while (i - 1 - n >= 0 && text.charAt(i - 1 - n) === "\\") n++;
  return n % 2 === 1;
}

/**
 * The list whose `[` is at `start`, compiled: the program and the index of its `]`, or null when
 * it does not read as a list of commands the compiler takes. A command ends at the first `]`
 * after which the text from its `[` parses (a `]` inside it, in a string or a nested array, only
 * makes the first tries fail).
 */
function compileList(text: string, start: number): { program: DrawProgram; end: number } | null {
  const o = newProgram();
  let i = skipSpace(text, start + 1);
  if (text.charAt(i) === "]") return { program: endProgram(o), end: i };
  for (;;) {
    if (text.charAt(i) !== "[") return null;
    let end = text.indexOf("]", i);
    let command: { value: unknown } | undefined;
    while (end >= 0 && !(command = parseJson(text.substring(i, end + 1)))) end = text.indexOf("]", end + 1);
    if (!command || addCommand(o, command.value)) return null;
    i = skipSpace(text, end + 1);
    const c = text.charAt(i);
    if (c === "]") return { program: endProgram(o), end: i };
    if (c !== ",") return null;
    i = skipSpace(text, i + 1);
  }
}

/** Puts programs[k] where the parsed body holds the number k as `draw`; false when one is missing. */
function placePrograms(value: unknown, programs: DrawProgram[]): boolean {
  const bodies = Array.isArray(value) ? value : [value];
  let placed = 0;
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i] as Bag;
    if (typeof b !== "object" || b === null || typeof b.draw !== "number") continue;
    if (b.draw !== placed) return false;
    b.draw = programs[placed++];
  }
  return placed === programs.length;
}

/** The body's value (draw lists as compiled programs where they read cleanly), or undefined when it is not JSON. */
const parseBody = (text: string): { value: unknown } | undefined => {
  const programs: DrawProgram[] = [];
  let rest = "";
  let from = 0;
  for (let at = findText(text, KEY); at >= 0; at = findText(text, KEY, at + KEY.length)) {
    if (at < from || escaped(text, at)) continue;
    let i = skipSpace(text, at + KEY.length);
    if (text.charAt(i) !== ":") continue;
    i = skipSpace(text, i + 1);
    if (text.charAt(i) !== "[") continue;
    const list = compileList(text, i);
    if (!list) return parseJson(text);
    rest += text.substring(from, i) + programs.length;
    programs.push(list.program);
    from = list.end + 1;
  }
  if (!programs.length) return parseJson(text);
  rest += text.substring(from);
  const parsed = parseJson(rest);
  if (!parsed || !placePrograms(parsed.value, programs)) return parseJson(text);
  return parsed;
};
export default parseBody;
