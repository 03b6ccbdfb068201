// Index pictures: a picture of small colour numbers, made once, painted every frame through a
// table of wire colours that the effect fills for that frame (so the grading and the palette in
// force are always the ones used). A picture is rows of the page's width, `bits` bits a pixel
// (most significant first; the bits of a row must make whole bytes), and any run of whole rows
// of it can be painted at any height of the frame.
//
// In the interpreter one E.mapInPlace turns a run of rows into the frame's 24-bit pixels in
// native code, written through a Uint24Array view of the frame's buffer (a frame is rows of
// 3-byte pixels, as the display engine's frames are). A host without Uint24Array sets the pixels
// one by one.

interface Uint24View {
  subarray(begin: number, end: number): Uint24View;
}
declare const Uint24Array: { new (buffer: ArrayBuffer): Uint24View } | undefined;

/** E.mapInPlace with the arguments used here (elements of `bits` bits, a table of colours). */
type MapInPlace = (from: Uint8Array, to: Uint24View, map: Uint32Array, bits: number) => void;

/** Sets index `i` of colour table `table` to wire colour `c` (as the ink hands it out). */
export function setColour(table: Uint32Array, i: number, c: number): void {
  // A Uint24Array element is stored low byte first; a 24 bpp frame holds the top byte first.
  table[i] = typeof Uint24Array === "undefined" ? c : ((c & 255) << 16) | (c & 0xff00) | ((c >> 16) & 255);
}

/**
 * Paints rows row .. row+rows-1 of picture `pic` (rows `w` wide, `bits` a pixel) into frame
 * rows y .. y+rows-1 of `g`, every column, through colour table `table`.
 */
export function paintRows(g: Graphics, pic: Uint8Array, table: Uint32Array, w: number, bits: number, row: number, y: number,
  rows: number): void {
  const stride = (w * bits) >> 3;
  if (typeof Uint24Array !== "undefined") {
    (E.mapInPlace as unknown as MapInPlace)(pic.subarray(row * stride, (row + rows) * stride),
      new Uint24Array(g.buffer).subarray(y * w, (y + rows) * w), table, bits);
    return;
  }
  for (let j = 0; j < rows; j++) {
    for (let x = 0; x < w; x++) {
      const first = ((row + j) * w + x) * bits;
      let v = 0;
      for (let b = first; b < first + bits; b++) v = (v << 1) | ((pic[b >> 3] >> (7 - (b & 7))) & 1);
      g.setPixel(x, y + j, table[v]);
    }
  }
}
