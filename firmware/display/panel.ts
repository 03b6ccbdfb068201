// From the logical frame (x right, y down, panelWidth x panels wide, 8 high) to the bytes of the
// LED chain, without touching a pixel from JavaScript.
//
// The chain is `panels` identical panels of panelWidth x 8, LED 0 in the first one, the panels
// left to right. Inside one panel: panelStart is the corner LED 0 sits in (seen from the front),
// panelWiring says whether the LED index runs along rows or down columns, panelSerpentine makes
// every second row/column run backwards. mirror flips the whole picture left to right and rotate
// turns the whole picture 180 degrees (both: upside down). The picture transform applies to the
// display as a whole, before it is cut into panels: with mirror on, the rightmost logical column
// lands on the first panel's left edge.
//
// How: one panel Graphics whose buffer is that panel's LEDs in order, laid out pw x 8 for row
// wiring or 8 x pw for column wiring (a column is then a buffer row), with `zigzag` (odd buffer
// rows reversed) for serpentine wiring and setRotation folding the start corner, mirror and
// rotate into its coordinate flips. Every panel is the same drawing with another x offset:
// drawImage of the frame at that offset, then a typed-array copy to the panel's place in the
// chain. One panel needs no copy at all: the panel Graphics draws straight into the chain.
//
// The chain's bytes matter only from a push to the LED write that ends it: between pushes they
// are lent out as `scratch`, a frame-sized buffer the render loop composes with (a transition's
// masked page, a dimmed page), so that no such buffer is kept beside it.
import type { SystemConfig } from "../system/schema";
import { writeLeds } from "../platform/leds";

export type PanelConfig = Pick<SystemConfig, "pinMatrix" | "panelWidth" | "panels" | "panelStart" |
  "panelWiring" | "panelSerpentine" | "mirror" | "rotate">;

const PANEL_HEIGHT = 8;

export class PanelOutput {
  readonly width: number;
  readonly height: number;
  private pin: number;
  private count: number;
  /**
   * Bytes of the whole chain (width x height x 3), rewritten whole by every push: in between,
   * free for any use (see above).
   */
  readonly scratch: ArrayBuffer;
  /** One physical panel; its buffer is that panel's LEDs in chain order (the chain itself when there is one panel). */
  private panel: Graphics;
  private panelBytes!: Uint8Array;
  /** The whole chain. */
  private out: Uint8Array;
  /**
   * The picture flipped left to right (mirror or rotate, not both): the panels then take the
   * frame's columns from the last one back.
   */
  private flip: boolean;

  /** Size, pin and wiring are fixed here (they take a reboot). */
  constructor(cfg: PanelConfig) {
    const pw = cfg.panelWidth;
    this.pin = cfg.pinMatrix;
    this.count = cfg.panels;
    this.width = pw * cfg.panels;
    this.height = PANEL_HEIGHT;
    this.scratch = new ArrayBuffer(this.width * PANEL_HEIGHT * 3);
    this.out = new Uint8Array(this.scratch);
    const opts: GraphicsOptions = { zigzag: cfg.panelSerpentine };
    if (this.count === 1) opts.buffer = this.scratch;
    const columns = cfg.panelWiring === "columns";
    this.panel = columns ? Graphics.createArrayBuffer(PANEL_HEIGHT, pw, 24, opts)
      : Graphics.createArrayBuffer(pw, PANEL_HEIGHT, 24, opts);
    if (this.count > 1) this.panelBytes = new Uint8Array(this.panel.buffer);
    const flipX = cfg.mirror !== cfg.rotate;
    const flipY = cfg.rotate;
    const startRight = cfg.panelStart === "topRight" || cfg.panelStart === "bottomRight";
    const startBottom = cfg.panelStart === "bottomLeft" || cfg.panelStart === "bottomRight";
    // Along the panel (x) and across it (y), does the LED order run against the drawing?
    const againstX = flipX !== startRight;
    const againstY = flipY !== startBottom;
    // setRotation arguments giving these flips of Espruino's device coordinates (x against the
    // buffer width, y against its height, after an optional x/y swap): rotation 1 is swap + invert
    // x, 2 inverts both, 3 is swap + invert y; reflect toggles invert y when swapped, else invert
    // x. Column wiring swaps: the buffer's x runs across the panel, its y along it. (Spelt out
    // here rather than as a helper: it runs once, and a helper would stay in memory.)
    if (columns) this.panel.setRotation(againstY ? 1 : 3, againstY === againstX);
    else this.panel.setRotation(againstY ? 2 : 0, againstX !== againstY);
    this.flip = flipX;
  }

  /** Sends `frame` (a 24 bpp Graphics of width x height holding wire colours) to the LEDs. */
  push(frame: Graphics): void {
    const n = this.count;
    const pw = this.width / n;
    // The x offset of the frame for the first panel in the chain, and from one panel to the next.
    let dx = this.flip ? -(n - 1) * pw : 0;
    const step = this.flip ? pw : -pw;
    for (let p = 0; p < n; p++) {
      this.panel.drawImage(frame, dx, 0);
      if (n > 1) this.out.set(this.panelBytes, p * this.panelBytes.length);
      dx += step;
    }
    writeLeds(this.pin, this.out);
  }

  /** All LEDs off. */
  blank(): void {
    this.out.fill(0);
    writeLeds(this.pin, this.out);
  }
}
