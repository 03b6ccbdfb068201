// A CRC-32 carried across pieces of data. Espruino's E.CRC32 takes one whole string and starts
// afresh each time, and a byte loop in JavaScript is far too slow for streamed files. But CRC-32
// can be steered: four chosen bytes bring its register to any value. So the CRC of what came so
// far is turned back into four bytes that have exactly that CRC, and E.CRC32 of those four bytes
// followed by the next piece is the CRC of everything up to the end of that piece.
//
// The register after a byte b is (r >>> 8) ^ T[(r ^ b) & 255], with T the table of the reflected
// polynomial. After four bytes it is T[i3] ^ T[i2] >>> 8 ^ T[i1] >>> 16 ^ T[i0] >>> 24, so its
// top byte names i3 (the table's top bytes are all different), and so on down; the bytes then
// follow from the indices and the register before each of them.

const POLY = 0xEDB88320;
/**
 * The table index whose entry has only bit k set in its top byte, for k = 0..7. Both the table and
 * this inverse are linear over XOR, so eight values stand for all 256. As the bytes of a string: an
 * array would cost a module that holds it several times as many variables.
 */
const TOP_INDEX = "\x41\xc3\x86\x4d\x9a\x75\xea\x95";

/** Entry i of the CRC-32 table. */
function entry(i: number): number {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
  return c;
}

/** The table index whose entry has `top` as its top byte. */
function indexOfTop(top: number): number {
  let i = 0;
  for (let k = 0; k < 8; k++) if (top & (1 << k)) i ^= TOP_INDEX.charCodeAt(k);
  return i;
}

/**
 * Four bytes whose CRC-32 is `crc`. E.CRC32(crcSeed(c) + more) is the CRC-32 of data whose CRC-32
 * is c followed by `more` (and crcSeed(0) + more gives the CRC-32 of `more` alone).
 */
export function crcSeed(crc: number): string {
  // The register the four bytes must leave: the CRC before its final inversion.
  let s = ~crc;
  const idx = [0, 0, 0, 0];
  for (let k = 3; k >= 0; k--) {
    const shift = 8 * (3 - k);
    idx[k] = indexOfTop((s >>> (24 - shift)) & 255);
    s ^= entry(idx[k]) >>> shift;
  }
  let r = -1;
  let out = "";
  for (let k = 0; k < 4; k++) {
    out += String.fromCharCode((r ^ idx[k]) & 255);
    r = (r >>> 8) ^ entry(idx[k]);
  }
  return out;
}
