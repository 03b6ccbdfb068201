// String search that Espruino gets right. Its indexOf (and includes and replace, which share the
// code) also reports a needle whose beginning matches the end of the text: "hello".indexOf("lo!")
// is 3 there (measured on 2v29). A real match always comes first, so the guard below is enough.

/** Index of `needle` in `text` at or after `from`, or -1; safe for needles of any length. */
export function findText(text: string, needle: string, from?: number): number {
  const at = text.indexOf(needle, from || 0);
  return at >= 0 && at + needle.length <= text.length ? at : -1;
}

/** Index of `name` in `list` ignoring case, or -1. */
export function findName(list: string[], name: string): number {
  const want = name.toLowerCase();
  for (let i = 0; i < list.length; i++) {
    if (list[i].toLowerCase() === want) return i;
  }
  return -1;
}
