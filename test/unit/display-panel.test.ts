import Module from "node:module";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { installGraphics } from "../harness/graphics";
import { PanelOutput, type PanelConfig } from "../../firmware/display/panel";
import type { PanelStart } from "../../firmware/system/schema";

installGraphics();
const G = (globalThis as unknown as { Graphics: GraphicsConstructor }).Graphics;

// --- the LED write, captured ---------------------------------------------------------------------
// uvu runs TypeScript through tsx as CommonJS: the firmware's require("neopixel") goes through
// Node's module loader, so the stand-in is served from there while this suite runs.

const writes: { pin: number; data: Uint8Array }[] = [];
const neopixel = { write: (pin: number, data: Uint8Array) => writes.push({ pin, data: Uint8Array.from(data) }) };
const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const nodeLoad = loader._load;

test.before(() => {
  loader._load = function (request: string, ...rest: unknown[]) {
    return request === "neopixel" ? neopixel : nodeLoad.call(this, request, ...rest);
  };
});

test.after(() => {
  loader._load = nodeLoad;
});

function lastWrite(): { pin: number; data: Uint8Array } {
  const w = writes[writes.length - 1];
  if (!w) throw new Error("nothing was written to the LEDs");
  return w;
}

// --- the reference: LED index of a logical pixel, straight from the option definitions ----------

/**
 * mirror flips the picture left to right, rotate turns it 180 degrees (both compose); the result
 * is cut into panels of panelWidth left to right, panel n holding LEDs n*panelWidth*8 onwards;
 * inside a panel LED 0 sits in the panelStart corner and the index runs along rows (or down
 * columns) away from it; serpentine reverses every second row (column).
 */
function ledIndex(cfg: PanelConfig, x: number, y: number): number {
  const pw = cfg.panelWidth;
  const width = pw * cfg.panels;
  let px = x;
  let py = y;
  if (cfg.mirror) px = width - 1 - px;
  if (cfg.rotate) {
    px = width - 1 - px;
    py = 7 - py;
  }
  const panel = Math.floor(px / pw);
  const col = px % pw; // column inside the panel, from its left edge
  // Distances from the start corner: along x (columns) and along y (rows).
  const fromStartX = cfg.panelStart === "topRight" || cfg.panelStart === "bottomRight" ? pw - 1 - col : col;
  const fromStartY = cfg.panelStart === "bottomLeft" || cfg.panelStart === "bottomRight" ? 7 - py : py;
  let inPanel: number;
  if (cfg.panelWiring === "rows") {
    const run = fromStartY;
    const along = cfg.panelSerpentine && run % 2 === 1 ? pw - 1 - fromStartX : fromStartX;
    inPanel = run * pw + along;
  } else {
    const run = fromStartX;
    const along = cfg.panelSerpentine && run % 2 === 1 ? 7 - fromStartY : fromStartY;
    inPanel = run * 8 + along;
  }
  return panel * pw * 8 + inPanel;
}

function config(over: Partial<PanelConfig>): PanelConfig {
  return Object.assign({
    pinMatrix: 32, panelWidth: 32, panels: 1, panelStart: "topLeft" as PanelStart, panelWiring: "rows" as const,
    panelSerpentine: true, mirror: false, rotate: false,
  }, over);
}

/** Distinct colour per logical pixel: R marks the row, G the column, B a constant (byte order). */
function pixelColor(x: number, y: number): number {
  return ((0x80 | y) << 16) | (x << 8) | 0x5a;
}

function numberedFrame(width: number): Graphics {
  const f = G.createArrayBuffer(width, 8, 24);
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < width; x++) f.setColor(pixelColor(x, y)).setPixel(x, y);
  }
  return f;
}

/** Pushes a numbered frame; returns the LED index each logical pixel landed on, by (x, y). */
function landing(out: PanelOutput): (x: number, y: number) => number {
  out.push(numberedFrame(out.width));
  const data = lastWrite().data;
  assert.is(data.length, out.width * 8 * 3, "3 bytes per LED");
  const at: number[] = new Array(out.width * 8).fill(-1);
  for (let i = 0; i < out.width * 8; i++) {
    const r = data[i * 3];
    const g = data[i * 3 + 1];
    const b = data[i * 3 + 2];
    assert.is(b, 0x5a, "LED " + i + " got a pixel, bytes in R, G, B order");
    at[(r & 0x7f) * out.width + g] = i;
  }
  return (x, y) => at[y * out.width + x];
}

// --- every combination ----------------------------------------------------------------------------

const STARTS: PanelStart[] = ["topLeft", "topRight", "bottomLeft", "bottomRight"];
const SHAPES = [[8, 1], [32, 1], [8, 3], [32, 3], [5, 7]];

test("every wiring option, panel size and chain length lands each pixel on its LED", () => {
  let checked = 0;
  for (const shape of SHAPES) {
    for (const panelStart of STARTS) {
      for (const panelWiring of ["rows", "columns"] as const) {
        for (const panelSerpentine of [false, true]) {
          for (const mirror of [false, true]) {
            for (const rotate of [false, true]) {
              const cfg = config({ panelWidth: shape[0], panels: shape[1], panelStart, panelWiring, panelSerpentine, mirror, rotate });
              const out = new PanelOutput(cfg);
              assert.is(out.width, shape[0] * shape[1]);
              assert.is(out.height, 8);
              const led = landing(out);
              for (let y = 0; y < 8; y++) {
                for (let x = 0; x < out.width; x++) {
                  if (led(x, y) !== ledIndex(cfg, x, y)) {
                    assert.unreachable(JSON.stringify(cfg) + ": pixel " + x + "," + y + " on LED " + led(x, y) +
                      ", expected " + ledIndex(cfg, x, y));
                  }
                }
              }
              checked++;
            }
          }
        }
      }
    }
  }
  assert.is(checked, SHAPES.length * 64);
});

// Fixed points of real panels, independent of the reference function.
test("known LED positions", () => {
  const cases: [Partial<PanelConfig>, number, number, number][] = [
    [{}, 0, 0, 0],
    [{}, 31, 0, 31],
    [{}, 31, 1, 32],
    [{}, 0, 1, 63],
    [{}, 0, 7, 255],
    [{ panelSerpentine: false }, 0, 1, 32],
    [{ mirror: true }, 31, 0, 0],
    [{ mirror: true }, 0, 1, 32],
    [{ rotate: true }, 31, 7, 0],
    [{ rotate: true }, 0, 0, 224],
    [{ mirror: true, rotate: true }, 0, 7, 0],
    [{ panelStart: "bottomRight" }, 31, 7, 0],
    [{ panelStart: "topRight", panelSerpentine: false }, 31, 1, 32],
    [{ panelWiring: "columns" }, 0, 7, 7],
    [{ panelWiring: "columns" }, 1, 7, 8],
    [{ panelWiring: "columns" }, 1, 0, 15],
    [{ panelWiring: "columns", panelStart: "bottomLeft" }, 0, 7, 0],
    [{ panelWidth: 8, panels: 3, panelSerpentine: false }, 8, 0, 64],
    [{ panelWidth: 8, panels: 3, panelSerpentine: false }, 23, 7, 191],
    [{ panelWidth: 8, panels: 3, mirror: true }, 23, 0, 0],
    [{ panelWidth: 8, panels: 3, mirror: true }, 15, 0, 64],
    [{ panelWidth: 8, panels: 3, rotate: true }, 23, 7, 0],
  ];
  for (const c of cases) {
    const out = new PanelOutput(config(c[0]));
    assert.is(landing(out)(c[1], c[2]), c[3], JSON.stringify(c[0]) + " pixel " + c[1] + "," + c[2]);
  }
});

test("writes go to the matrix pin and follow the frame's content", () => {
  const out = new PanelOutput(config({ pinMatrix: 27 }));
  const f = G.createArrayBuffer(32, 8, 24);
  f.setColor(0x010203).setPixel(2, 0);
  out.push(f);
  assert.is(lastWrite().pin, 27);
  assert.equal(Array.from(lastWrite().data.subarray(6, 9)), [1, 2, 3]);
  f.setColor(0).setPixel(2, 0);
  f.setColor(0x0a0b0c).setPixel(3, 0);
  out.push(f);
  assert.equal(Array.from(lastWrite().data.subarray(6, 12)), [0, 0, 0, 10, 11, 12]);
});

test("blank turns every LED off", () => {
  for (const panels of [1, 3]) {
    const out = new PanelOutput(config({ panelWidth: 32, panels }));
    const f = G.createArrayBuffer(out.width, 8, 24);
    f.setColor(0xffffff).fillRect(0, 0, out.width - 1, 7);
    out.push(f);
    assert.ok(lastWrite().data.every((b) => b === 255));
    out.blank();
    assert.is(lastWrite().data.length, out.width * 24);
    assert.ok(lastWrite().data.every((b) => b === 0));
  }
});

test.run();
