// A multipart/form-data body read as it arrives, never held whole. Chunks of any size go in; each
// part comes out as begin(field, filename, contentType), its bytes in order through data(), then
// end(). At most the delimiter's length (plus the chunk in hand) is kept between chunks, and a
// part's head at most HEAD_MAX bytes, so memory does not depend on the size of the upload.
//
// The body is a preamble, then parts, each opened by a delimiter line ("--" + boundary, CRLF) and
// a head (header lines, then an empty line); the bytes of a part end at the CRLF that starts the
// next delimiter, and the delimiter with "--" after it closes the body (what follows, the
// epilogue, is ignored). A delimiter may be split across chunks: the bytes that could be its
// beginning are held back until the next chunk says whether they are.
import type { Failure } from "../core/failure";
import { failure } from "../core/failure";
import { findText } from "../core/text";

/** What receives the parts (an UploadSink is one). Any Failure stops the parsing. */
export interface PartReceiver {
  begin(field: string, filename: string, contentType: string): Failure | null;
  data(chunk: string): Failure | null;
  end(): Failure | null;
}

/** Longest boundary RFC 2046 allows. */
const BOUNDARY_MAX = 70;
/** Longest head of a part; a client sends a few hundred bytes at most. */
const HEAD_MAX = 2048;
/** Transport padding allowed after a delimiter before its CRLF. */
const PAD_MAX = 64;

const PREAMBLE = 0;
const AFTER_DELIMITER = 1;
const HEAD = 2;
const BODY = 3;
const EPILOGUE = 4;

function malformed(why: string): Failure {
  return failure(400, "badRequest", "malformed multipart body: " + why);
}

/**
 * The value of parameter `want` (lower case) in a header value such as
 * `form-data; name="file"; filename="a.gif"`, undefined when absent. Quoted values end at the next
 * quote; a backslash before a quote keeps the quote (older clients escape it so), any other
 * backslash is kept as it is (browsers send Windows paths unescaped).
 */
export function headerParam(value: string, want: string): string | undefined {
  let i = value.indexOf(";");
  while (i >= 0 && i < value.length) {
    i++;
    const eq = value.indexOf("=", i);
    const semi = value.indexOf(";", i);
    if (eq < 0) return undefined;
    // A parameter without a value ("; foo;"): skipped.
    if (semi >= 0 && semi < eq) {
      i = semi;
      continue;
    }
    const key = value.substring(i, eq).trim().toLowerCase();
    let j = eq + 1;
    while (value.charAt(j) === " " || value.charAt(j) === "\t") j++;
    let v = "";
    if (value.charAt(j) === "\"") {
      j++;
      while (j < value.length && value.charAt(j) !== "\"") {
        if (value.charAt(j) === "\\" && value.charAt(j + 1) === "\"") j++;
        v += value.charAt(j);
        j++;
      }
      i = value.indexOf(";", j);
    } else {
      v = (semi < 0 ? value.substr(j) : value.substring(j, semi)).trim();
      i = semi;
    }
    if (key === want) return v;
  }
  return undefined;
}

/** Bytes of an RFC 5987 value (`UTF-8''na%C3%AFve.gif`), undefined when it is not one. */
function extValue(v: string): string | undefined {
  const q = v.indexOf("'");
  const q2 = q < 0 ? -1 : v.indexOf("'", q + 1);
  if (q2 < 0) return undefined;
  const s = v.substr(q2 + 1);
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    const hex = s.substr(i + 1, 2);
    if (c === "%" && hex.length === 2 && /^[0-9A-Fa-f]+$/.test(hex)) {
      out += String.fromCharCode(parseInt(hex, 16));
      i += 2;
    } else out += c;
  }
  return out;
}

/**
 * The boundary of a `multipart/form-data` Content-Type, or "" when the type is another or names
 * no usable boundary.
 */
export function boundaryOf(contentType: string): string {
  const semi = contentType.indexOf(";");
  const type = (semi < 0 ? contentType : contentType.substr(0, semi)).trim().toLowerCase();
  if (type !== "multipart/form-data") return "";
  const b = headerParam(contentType, "boundary");
  // A boundary holds no CR (RFC 2046): the delimiter search below relies on it.
  if (!b || b.length > BOUNDARY_MAX || b.indexOf("\r") >= 0 || b.indexOf("\n") >= 0) return "";
  return b;
}

export class Multipart {
  /** Bytes received and not yet handed on. */
  private buf: string;
  private state = PREAMBLE;
  /** What ends a part: CRLF, "--", the boundary. */
  private delim: string;

  constructor(boundary: string, private to: PartReceiver) {
    this.delim = "\r\n--" + boundary;
    // The first delimiter may open the body without a CRLF before it.
    this.buf = "\r\n";
  }

  /** True once the closing delimiter has been read: the body was whole. */
  complete(): boolean {
    return this.state === EPILOGUE;
  }

  /** Takes the next bytes of the body; a Failure (the receiver's, or a malformed body) stops. */
  push(chunk: string): Failure | null {
    if (this.state === EPILOGUE) return null;
    const delim = this.delim;
    let buf = chunk;
    const held = this.buf;
    this.buf = "";
    if (held) {
      // Bytes of a part held back because a delimiter might begin in them: settled against the
      // start of this chunk, and handed on as they are when no delimiter begins there, rather
      // than joined to the chunk (a copy of it, alive while the receiver works).
      const at = this.state === BODY && chunk.length >= delim.length ? findText(held + chunk.substr(0, delim.length), delim) : 0;
      if (at < 0 || at >= held.length) {
        const f = this.to.data(held);
        if (f) return f;
      } else {
        buf = held + chunk;
      }
    }
    for (;;) {
      const state = this.state;
      if (state === PREAMBLE || state === BODY) {
        const at = findText(buf, delim);
        if (at < 0) {
          // Held back: from the first CR close enough to the end to begin a delimiter whose
          // beginning the rest matches, if there is one (the boundary holds no CR, so only a CR
          // can begin one). Nothing else is held, so the chunk is seldom cut (a copy).
          const from = buf.length - delim.length + 1;
          let cr = buf.indexOf("\r", from > 0 ? from : 0);
          while (cr >= 0 && buf.substr(cr) !== delim.substr(0, buf.length - cr)) cr = buf.indexOf("\r", cr + 1);
          const keep = cr >= 0 ? cr : buf.length;
          if (state === BODY && keep > 0) {
            const f = this.to.data(keep === buf.length ? buf : buf.substr(0, keep));
            if (f) return f;
          }
          this.buf = keep === buf.length ? "" : buf.substr(keep);
          return null;
        }
        if (state === BODY) {
          if (at > 0) {
            const f = this.to.data(buf.substr(0, at));
            if (f) return f;
          }
          const f = this.to.end();
          if (f) return f;
        }
        buf = buf.substr(at + delim.length);
        this.state = AFTER_DELIMITER;
      } else if (state === AFTER_DELIMITER) {
        if (buf.length < 2) break;
        if (buf.substr(0, 2) === "--") {
          this.state = EPILOGUE;
          return null;
        }
        const eol = findText(buf, "\r\n");
        if (eol < 0) {
          if (buf.length > PAD_MAX) return malformed("delimiter not followed by a line end");
          break;
        }
        if (buf.substr(0, eol).trim() !== "") return malformed("delimiter not followed by a line end");
        buf = buf.substr(eol + 2);
        this.state = HEAD;
      } else if (state === HEAD) {
        // A part may have no header lines at all: the empty line comes at once.
        const end = buf.substr(0, 2) === "\r\n" ? -2 : findText(buf, "\r\n\r\n");
        if (end === -1) {
          if (buf.length > HEAD_MAX) return malformed("part head too long");
          break;
        }
        const f = this.head(end < 0 ? "" : buf.substr(0, end));
        if (f) return f;
        buf = buf.substr(end < 0 ? 2 : end + 4);
        this.state = BODY;
      } else {
        return null;
      }
    }
    this.buf = buf;
    return null;
  }

  private head(text: string): Failure | null {
    let field = "";
    let filename = "";
    let type = "";
    const lines = text.split("\r\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const name = line.substr(0, colon).trim().toLowerCase();
      const value = line.substr(colon + 1).trim();
      if (name === "content-disposition") {
        field = headerParam(value, "name") || "";
        const ext = headerParam(value, "filename*");
        const decoded = ext === undefined ? undefined : extValue(ext);
        filename = decoded !== undefined ? decoded : headerParam(value, "filename") || "";
      } else if (name === "content-type") {
        type = value;
      }
    }
    return this.to.begin(field, filename, type);
  }
}
