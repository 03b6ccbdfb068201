// The part of omggif (a CommonJS package without type declarations) the icon tests use.
declare module "omggif" {
  interface FrameOptions {
    palette?: number[];
    delay?: number;
    disposal?: number;
    transparent?: number;
  }
  export class GifWriter {
    constructor(buf: Uint8Array, width: number, height: number, options?: { palette?: number[]; loop?: number; background?: number });
    addFrame(x: number, y: number, w: number, h: number, pixels: number[] | Uint8Array, options?: FrameOptions): number;
    end(): number;
    getOutputBufferPosition(): number;
  }
  const omggif: { GifWriter: typeof GifWriter };
  export default omggif;
}
