// What each folder takes, judged from a file's first bytes while it arrives (so a wrong file is
// refused before it is stored) and, for the text folders, from the whole text once it is in:
//   /ICONS     GIF (GIF87a, GIF89a) or JPEG (FF D8 FF)
//   /MP3       MP3: an ID3v2 tag, or an MPEG audio frame sync of layer III
//   /MELODIES  RTTTL text that parses (files/rtttl.ts), at most TEXT_MAX bytes
//   /PALETTES  printable text that reads as palette stops (palette/compile.ts parseStops), at most
//              TEXT_MAX bytes
import { parseRtttl } from "./rtttl";
import { parseStops } from "../palette/compile";

/** Bytes looked at before the verdict on a file's start. */
export const SNIFF_BYTES = 8;
/** Longest melody or palette: one text, checked whole. */
export const TEXT_MAX = 4096;

/** Whether folder `dir` holds text, checked whole once it has arrived. */
export function isTextFolder(dir: string): boolean {
  return dir === "/MELODIES" || dir === "/PALETTES";
}

function isTextByte(c: number): boolean {
  // Tabs, line ends and anything printable; bytes from 0x80 are UTF-8 text.
  return c === 9 || c === 10 || c === 13 || (c >= 32 && c !== 127);
}

/**
 * Whether `head`, the first bytes of a file (SNIFF_BYTES, or all of it when shorter), suits
 * folder `dir`.
 */
export function startSuits(dir: string, head: string): boolean {
  const b0 = head.charCodeAt(0);
  const b1 = head.charCodeAt(1);
  const b2 = head.charCodeAt(2);
  if (dir === "/ICONS") {
    const six = head.substr(0, 6);
    return six === "GIF87a" || six === "GIF89a" || (b0 === 0xff && b1 === 0xd8 && b2 === 0xff);
  }
  if (dir === "/MP3") {
    if (head.substr(0, 3) === "ID3") return true;
    // 11 bits of frame sync, a known MPEG version (not 01) and layer III (01).
    return b0 === 0xff && (b1 & 0xe0) === 0xe0 && (b1 & 0x18) !== 0x08 && (b1 & 0x06) === 0x02;
  }
  if (isTextFolder(dir)) {
    if (head.length === 0) return false;
    for (let i = 0; i < head.length; i++) if (!isTextByte(head.charCodeAt(i))) return false;
    return true;
  }
  return false;
}

/** Whether the whole `text` of a file of text folder `dir` is what that folder takes. */
export function textSuits(dir: string, text: string): boolean {
  if (text.length > TEXT_MAX) return false;
  for (let i = 0; i < text.length; i++) if (!isTextByte(text.charCodeAt(i))) return false;
  if (dir === "/MELODIES") return parseRtttl(text).valid;
  if (dir === "/PALETTES") return parseStops(text) !== null;
  return false;
}
