// Modules: code kept in Storage and evaluated only while it is needed (see build/modules.mjs).
// A module's file is one expression whose value is the module's default export; evaluated from
// the mapped Storage string, its functions point into flash instead of copying their code.

/** Hosts that run the TypeScript sources directly (unit tests) hand modules over themselves. */
declare const PIXLOOP_HOST_MODULES: ((id: string) => unknown) | undefined;

// Indirect: evaluated at the global scope, so a module's functions hold no scope of the loader's.
const evaluate = eval;

/**
 * Evaluates module `id` ("system/put") and returns its default export. Throws an Error naming
 * the module when its file is missing or does not evaluate; the caller decides what that means
 * (an HTTP handler answers 500, the render loop skips the page).
 */
export function loadModule<T>(id: string): T {
  if (typeof PIXLOOP_HOST_MODULES !== "undefined") return PIXLOOP_HOST_MODULES(id) as T;
  const code = require("Storage").read("m." + id.split("/").join("."));
  let value: unknown;
  try {
    if (code !== undefined) value = evaluate(code);
  } catch (e) {
    print("module " + id + " is broken: " + e);
  }
  if (value === undefined) throw new Error("module " + id + (code === undefined ? " is missing" : " did not load"));
  return value as T;
}
