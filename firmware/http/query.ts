// Splitting a request target into path and query parameters.

/** Decodes %XX escapes byte by byte: Espruino's decodeURIComponent throws on multi-byte UTF-8. */
export function percentDecode(s: string): string {
  if (s.indexOf("%") < 0 && s.indexOf("+") < 0) return s;
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (c === "+") out += " ";
    else if (c === "%" && i + 2 < s.length && isHex(s.substr(i + 1, 2))) {
      out += String.fromCharCode(parseInt(s.substr(i + 1, 2), 16));
      i += 2;
    } else out += c;
  }
  return out;
}

function isHex(two: string): boolean {
  return two.length === 2 && /^[0-9A-Fa-f]+$/.test(two);
}

export function splitTarget(url: string): { path: string; query: { [name: string]: string } } {
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.substr(0, q);
  const query: { [name: string]: string } = {};
  if (q >= 0) {
    for (const pair of url.substr(q + 1).split("&")) {
      if (!pair) continue;
      const eq = pair.indexOf("=");
      const key = percentDecode(eq < 0 ? pair : pair.substr(0, eq));
      query[key] = eq < 0 ? "" : percentDecode(pair.substr(eq + 1));
    }
  }
  return { path: percentDecode(path), query };
}
