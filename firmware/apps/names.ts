// App names as the routes take them from the path: checked before the method and before the body
// is read (a ParamsCheck), so a bad name is 400 invalidName whatever else is wrong.
import type { Failure } from "../core/failure";
import { failure } from "../core/failure";
import { findText } from "../core/text";

export const NAME_MAX = 32;

/** Path words of the app routes: a name spelled so would be shadowed by, or shadow, a route. */
const ROUTE_WORDS = "|active|next|previous|order|pushed|script|script-update|builtin|";
/** The built-in apps, which a pushed app may not impersonate in any casing. */
const BUILTIN_WORDS = "|time|date|temperature|humidity|battery|";

/** 1 to 32 of A-Z a-z 0-9 _ - (Espruino's regular expressions have no counted quantifiers). */
export function isAppName(name: unknown): name is string {
  return typeof name === "string" && name.length <= NAME_MAX && /^[A-Za-z0-9_\-]+$/.test(name);
}

function listed(words: string, name: string): boolean {
  return findText(words, "|" + name.toLowerCase() + "|") >= 0;
}

/** The refusal for the name of an app route, or null; `pushed` also refuses the built-ins' names. */
export function checkAppName(name: string, pushed: boolean): Failure | null {
  if (!isAppName(name)) return failure(400, "invalidName", "name must match [A-Za-z0-9_-]{1,32}", "name");
  if (listed(ROUTE_WORDS, name) || (pushed && listed(BUILTIN_WORDS, name))) {
    return failure(400, "invalidName", "name is reserved", "name");
  }
  return null;
}
