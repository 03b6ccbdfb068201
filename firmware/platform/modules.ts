// Modules: code kept in Storage and evaluated only while it is needed (see build/modules.mjs).
// A module's file is one expression whose value is the module's default export; evaluated from
// the mapped Storage string, its functions point into flash instead of copying their code.
import { log } from "../logs/log";

/** Hosts that run the TypeScript sources directly (unit tests) hand modules over themselves. */
declare const PIXLOOP_HOST_MODULES: ((id: string) => unknown) | undefined;

// For a file not in the build's wrapping: indirect, though Espruino evaluates it in the caller's
// scope all the same.
const evaluate = eval;
// Every module carries its own copy of this file: what it holds at its top level is held by each
// module for as long as the module is loaded, so the wrapping's text is spelt out where it is used
// and the slot's prefix read in place (platform/slot.ts, fwFile).
declare const PIXLOOP_SLOT: string | undefined;

/**
 * Evaluates module `id` ("system/put") and returns its default export. Throws an Error naming
 * the module when its file is missing or does not evaluate; the caller decides what that means
 * (an HTTP handler answers 500, the render loop skips the page).
 */
export function loadModule<T>(id: string): T {
  if (typeof PIXLOOP_HOST_MODULES !== "undefined") return PIXLOOP_HOST_MODULES(id) as T;
  const Storage = require("Storage");
  // In the running slot (platform/slot.ts): "m.system.put", as "a/m.system.put" for instance.
  const file = (typeof PIXLOOP_SLOT === "string" ? PIXLOOP_SLOT : "") + "m." + id.split("/").join(".");
  const code = Storage.read(file);
  let value: unknown;
  try {
    // Espruino's eval runs in the caller's scope, so every function of a module evaluated here
    // would keep a copy of the loader's scope chain (measured: 50 to 85 more variables for a module
    // of 20 to 30 functions). The body alone, read in place and run as a function of its own,
    // gives each of them the one scope of that function. The build wraps a module's body as
    // "(()=>{" <body> "})()" (build/modules.mjs, asExpression).
    const wrapped = code !== undefined && code.substr(0, 6) === "(()=>{" && code.substr(code.length - 4) === "})()";
    if (wrapped) value = new Function(Storage.read(file, 6, code.length - 10) as string)();
    else if (code !== undefined) value = evaluate(code);
  } catch (e) {
    log("module " + id + " is broken: " + e);
  }
  if (value === undefined) throw new Error("module " + id + (code === undefined ? " is missing" : " did not load"));
  return value as T;
}

/**
 * A module kept loaded while it is in use: the returned function hands over module `id`, loading
 * it when it is not in memory, and the module is dropped `keepMs` after the last call. For code
 * that runs in bursts (a request, then nothing for minutes): a burst pays one load, and the
 * quiet clock does not hold the code.
 */
export function heldModule<T>(id: string, keepMs: number): () => T {
  let held: T | null = null;
  let drop: number | undefined;
  return () => {
    if (held === null) held = loadModule<T>(id);
    if (drop !== undefined) clearTimeout(drop);
    drop = setTimeout(() => {
      held = null;
      drop = undefined;
    }, keepMs);
    return held;
  };
}
