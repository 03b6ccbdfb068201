// RTTTL, the ring-tone text of melodies: `[title:]defaults:notes`, for example
// `doorbell:d=4,o=5,b=100:e,8c#6.,p,2g`. The defaults (any of d duration, o octave, b beats a
// minute, comma separated, each at most once) apply to notes that do not say otherwise; a note is
// [duration] letter [#] [.] [octave] [.], the letter one of c d e f g a b h (b) or p (a pause),
// and the notes are comma separated. Spaces around the parts are allowed.

export interface Melody {
  valid: boolean;
  /** Notes and pauses. */
  notes: number;
  durationMs: number;
  /** When not valid: why, and the byte offset where it went wrong. */
  error?: string;
  index?: number;
}

const DURATIONS = [1, 2, 4, 8, 16, 32, 64];

function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

function bad(error: string, index: number): Melody {
  return { valid: false, notes: 0, durationMs: 0, error: error, index: index };
}

/** Parses RTTTL text; `valid` says whether it is a melody. */
export function parseRtttl(text: string): Melody {
  const first = text.indexOf(":");
  if (first < 0) return bad("expected defaults:notes", 0);
  const second = text.indexOf(":", first + 1);
  if (second >= 0 && text.indexOf(":", second + 1) >= 0) return bad("too many ':'", text.indexOf(":", second + 1));
  // Two parts: defaults and notes; three: a title first.
  const defStart = second < 0 ? 0 : first + 1;
  const defEnd = second < 0 ? first : second;
  let d = 4;
  let b = 63;
  const seen: { [k: string]: boolean } = {};
  let at = defStart;
  while (at < defEnd) {
    let comma = text.indexOf(",", at);
    if (comma < 0 || comma > defEnd) comma = defEnd;
    const item = text.substring(at, comma).trim();
    if (item !== "") {
      const eq = item.indexOf("=");
      const key = eq < 0 ? "" : item.substr(0, eq).trim().toLowerCase();
      const val = eq < 0 ? "" : item.substr(eq + 1).trim();
      if ((key !== "d" && key !== "o" && key !== "b") || seen[key]) return bad("unknown or repeated default", at);
      if (!val || !/^[0-9]+$/.test(val) || val.length > 3) return bad("default is not a number", at);
      seen[key] = true;
      const n = parseInt(val, 10);
      if (key === "d") {
        if (DURATIONS.indexOf(n) < 0) return bad("duration must be 1, 2, 4, 8, 16, 32 or 64", at);
        d = n;
      } else if (key === "o") {
        // The octave shapes pitch, not timing: only its range matters here.
        if (n > 9) return bad("octave must be 0-9", at);
      } else {
        if (n < 1) return bad("beats must be 1-999", at);
        b = n;
      }
    }
    at = comma + 1;
  }
  const beatMs = 60000 / b;
  let notes = 0;
  let ms = 0;
  let i = defEnd + 1;
  const end = text.length;
  while (i <= end) {
    while (i < end && (text.charAt(i) === " " || text.charAt(i) === "\t" || text.charAt(i) === "\r" || text.charAt(i) === "\n")) i++;
    const start = i;
    let dur = 0;
    while (i < end && isDigit(text.charAt(i))) dur = dur * 10 + (text.charCodeAt(i++) - 48);
    if (i > start && DURATIONS.indexOf(dur) < 0) return bad("bad note duration", start);
    const letter = text.charAt(i).toLowerCase();
    if ("cdefgabhp".indexOf(letter) < 0 || letter === "") return bad(notes === 0 && i >= end ? "no notes" : "expected a note", i);
    i++;
    if (text.charAt(i) === "#") i++;
    let dotted = false;
    if (text.charAt(i) === ".") {
      dotted = true;
      i++;
    }
    if (isDigit(text.charAt(i))) i++;
    if (text.charAt(i) === ".") {
      if (dotted) return bad("note dotted twice", i);
      dotted = true;
      i++;
    }
    while (i < end && (text.charAt(i) === " " || text.charAt(i) === "\t" || text.charAt(i) === "\r" || text.charAt(i) === "\n")) i++;
    notes++;
    const len = (beatMs * 4) / (dur || d);
    ms += dotted ? len * 1.5 : len;
    if (i >= end) break;
    if (text.charAt(i) !== ",") return bad("expected ','", i);
    i++;
  }
  return { valid: true, notes: notes, durationMs: Math.round(ms) };
}
