// Ten background effects on the Graphics stand-in, drawn from their modules at fixed moments:
// Plasma, PlasmaCloud, ColorWaves, Pacifica, Fade, MovingLine, TheaterChase, Checkerboard, Radar
// and Ripple. Each is checked pixel by pixel where its picture can be stated exactly (which
// columns or cells are lit, and in which palette colour), and by exact relations between moments
// where it is a still field cycled through the palette and moved (one step on is every pixel one
// palette step on; one pixel of drift is the picture moved by one pixel). Also: stock colours
// when no palette is given, the palette's colours when one is, 16 hard bands when blending is
// off, effectSpeed scaling the pace, and a frame that depends on its moment alone.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { drawAt, inkFor, installEngineHost } from "./effects-support";
import { loadModule } from "../../firmware/platform/modules";
import type { EffectModule } from "../../firmware/effects/types";
import { STEPS } from "../../firmware/effects/types";
import type { PaletteInk } from "../../firmware/palette/ink";
import { entriesFromColors } from "../../firmware/palette/compile";
import { place } from "../../firmware/effects/pace";

const W = 32;
const H = 8;
const N = W * H;
/** A palette of three colours far apart: its 85 blended steps are all different colours. */
const RGB = [0xff0000, 0x00ff00, 0x0000ff];

let restore: () => void = () => {};
test.before(() => {
  restore = installEngineHost();
});
test.after(() => restore());

type Picture = number[][];

function effect(name: string): EffectModule {
  return loadModule<EffectModule>("effects/" + name);
}

/** The ink an effect draws with (ungraded, so wire colours are the logical ones). */
function inkOf(mod: EffectModule, palette?: number[], blend = true): PaletteInk {
  const g = Graphics.createArrayBuffer(W, H, 24) as unknown as Graphics;
  return inkFor(mod, g, palette, blend);
}

/** The 85 colours of the ink's palette steps. */
function stepColours(ink: PaletteInk): number[] {
  const out: number[] = [];
  for (let p = 0; p < STEPS; p++) out.push(ink.logical(p));
  return out;
}

/** Colour to palette step, for an ink whose steps are all different colours. */
function stepIndex(ink: PaletteInk): { [colour: number]: number } {
  const out: { [colour: number]: number } = {};
  stepColours(ink).forEach((c, p) => {
    assert.is(out[c], undefined, "two steps of one colour");
    out[c] = p;
  });
  return out;
}

/** The pixel at `n` in memory order (x + W * y). */
function flat(p: Picture, n: number): number {
  return p[Math.floor(n / W)][n % W];
}

/** Asserts every pixel of `p` is `expect(x, y)`, naming the first that is not. */
function assertPicture(p: Picture, expect: (x: number, y: number) => number, label: string): void {
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const want = expect(x, y);
      if (p[y][x] !== want) {
        assert.unreachable(label + ": pixel " + x + "," + y + " is " + p[y][x].toString(16) + ", expected " + want.toString(16));
      }
    }
  }
}

/** Distinct colours of a picture. */
function colours(p: Picture): number[] {
  const seen: { [c: number]: boolean } = {};
  const out: number[] = [];
  for (const row of p) for (const c of row) if (!seen[c]) {
    seen[c] = true;
    out.push(c);
  }
  return out;
}

/** Every colour of `p` other than black is one of `allowed`. */
function assertOnly(p: Picture, allowed: number[], label: string): void {
  for (const c of colours(p)) {
    if (c !== 0 && allowed.indexOf(c) < 0) assert.unreachable(label + ": colour " + c.toString(16) + " is not the palette's");
  }
}

/** The 16 entries of an ink: the colours of its steps with blending off. */
function entries(ink: PaletteInk): number[] {
  return colours([stepColours(ink)]);
}

/** The picture of an effect at `elapsed` ms on screen at effect speed `speed`: the page multiplies. */
function atSpeed(mod: EffectModule, speed: number, elapsed: number): Picture {
  return drawAt(mod, elapsed * speed);
}

// ---- MovingLine ------------------------------------------------------------------------------------

test("place(p): the palette position at which Ink.tone gives step p's colour, for every step, wrapping both ways", () => {
  // A palette of 85 different colours, so that each step can be told by its colour.
  const ink = inkOf(effect("moving-line"), Array.from({ length: STEPS }, (_, p) => 0x010000 * (p + 1) + 0x37 * p));
  const colours = stepColours(ink);
  for (let p = -2 * STEPS; p < 2 * STEPS; p++) {
    const pos = place(p);
    assert.ok(pos >= 0 && pos < 256, "position of step " + p);
    assert.is(ink.tone(pos), colours[((p % STEPS) + STEPS) % STEPS], "step " + p);
  }
});

test("MovingLine: one full-height column, a column further every 100 ms, wrapping; its colour moves through the palette", () => {
  const mod = effect("moving-line");
  for (const palette of [undefined, RGB]) {
    const steps = stepColours(inkOf(mod, palette));
    // 10 columns a second; the colour a palette step on per column.
    for (const [t, x, s] of [[0, 0, 0], [1250, 12, 12], [9030, 26, 90]]) {
      assertPicture(drawAt(mod, t, { palette }), (px) => (px === x ? steps[s % STEPS] : 0), "t=" + t + (palette ? " palette" : " stock"));
    }
  }
  // Stock colours: the hue wheel starts at red.
  assert.is(drawAt(mod, 0)[0][0], 0xff0000);
});

// ---- TheaterChase ----------------------------------------------------------------------------------

test("TheaterChase: every third column lit, marching right a column every 100 ms, each light keeping its colour", () => {
  const mod = effect("theater-chase");
  for (const palette of [undefined, RGB]) {
    const steps = stepColours(inkOf(mod, palette));
    for (const [t, s] of [[0, 0], [150, 1], [2550, 25]]) {
      const p = drawAt(mod, t, { palette });
      // Column x is lit when x - s is a multiple of 3, in the colour of where that light started
      // (the palette once across the width).
      assertPicture(p, (x) => ((x - s) % 3 === 0 ? steps[Math.floor(((((x - s) % W) + W) % W) * STEPS / W)] : 0), "t=" + t);
    }
    // A light one step later is one column to the right, in the same colour.
    const before = drawAt(mod, 1230, { palette });
    const after = drawAt(mod, 1330, { palette });
    for (let x = 1; x < W; x++) assert.is(after[0][x], before[0][x - 1]);
  }
});

// ---- Checkerboard ----------------------------------------------------------------------------------

test("Checkerboard: 2x2 cells, every other one lit, all turning over every 500 ms, lit cells in palette colours", () => {
  const mod = effect("checkerboard");
  for (const palette of [undefined, RGB]) {
    const steps = stepColours(inkOf(mod, palette));
    for (const [t, s] of [[0, 0], [500, 1], [5250, 10]]) {
      const p = drawAt(mod, t, { palette });
      assertPicture(p, (x, y) => {
        const cx = x >> 1;
        const cy = y >> 1;
        if ((cx + cy + s) & 1) return 0;
        // The palette once along a row of cells (85 / 16 steps a cell), every other row a cell
        // on, and 3 steps further at each turn.
        return steps[(Math.floor(((cx + (cy & 1)) * STEPS) / 16) + 3 * s) % STEPS];
      }, "t=" + t + (palette ? " palette" : " stock"));
    }
    // Each step turns every cell over.
    const a = drawAt(mod, 2100, { palette });
    const b = drawAt(mod, 2600, { palette });
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) assert.ok((a[y][x] === 0) !== (b[y][x] === 0), x + "," + y);
  }
});

// ---- Radar -----------------------------------------------------------------------------------------

/** Pixels of a picture in colour `c`, as "x,y" strings. */
function pixelsOf(p: Picture, c: number): string[] {
  const out: string[] = [];
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (p[y][x] === c) out.push(x + "," + y);
  return out;
}

/** Order of pixelsOf: row by row. */
function sortXY(a: string, b: string): number {
  const [ax, ay] = a.split(",").map(Number);
  const [bx, by] = b.split(",").map(Number);
  return ay - by || ax - bx;
}

function run(x1: number, y1: number, x2: number, y2: number): string[] {
  const out: string[] = [];
  for (let y = y1; y <= y2; y++) for (let x = x1; x <= x2; x++) out.push(x + "," + y);
  return out;
}

test("Radar: a beam from the centre turning clockwise once in 4 s, trailed by four copies lower in the palette; stock green", () => {
  const mod = effect("radar");
  for (const palette of [undefined, RGB]) {
    const steps = stepColours(inkOf(mod, palette));
    // The beam near the top of the palette, each copy behind it 16 steps lower.
    const beam = steps[79];
    const trail = [63, 47, 31, 15].map((p) => steps[p]);
    // A quarter turn a second: up, right, down from the centre pixel (16,4) to the edge.
    for (const [t, line] of [[0, run(16, 0, 16, 4)], [1000, run(16, 4, 31, 4)], [2030, run(16, 4, 16, 7)]] as [number, string[]][]) {
      const p = drawAt(mod, t, { palette });
      assert.equal(pixelsOf(p, beam), line, "beam at t=" + t);
      assertOnly(p, [beam].concat(trail), "t=" + t);
    }
  }
  // Stock: a green beam.
  const stock = stepColours(inkOf(mod))[79];
  assert.ok((stock >> 16) === 0 && (stock & 255) === 0 && ((stock >> 8) & 255) > 0xc0, stock.toString(16));
  // Clockwise: an eighth of a turn on, the beam points up and right, the four copies behind it
  // to its left, each one visible.
  const p = drawAt(mod, 500);
  assert.equal(pixelsOf(p, stock), ["20,0", "19,1", "18,2", "17,3", "16,4"].sort(sortXY));
  const behind = [63, 47, 31, 15].map((step) => pixelsOf(p, stepColours(inkOf(mod))[step]));
  for (const px of behind) assert.ok(px.length > 0 && px.every((xy) => +xy.split(",")[0] < 20), px.join(" "));
});

// ---- Ripple ----------------------------------------------------------------------------------------

/** Leftmost and rightmost lit columns. */
function litColumns(p: Picture): number[] {
  let lo = W;
  let hi = -1;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (p[y][x]) {
    lo = Math.min(lo, x);
    hi = Math.max(hi, x);
  }
  return [lo, hi];
}

test("Ripple: one ring from the centre, a pixel wider every 100 ms until it has left the panel, then the next in the next colour", () => {
  const mod = effect("ripple");
  for (const palette of [undefined, RGB]) {
    const steps = stepColours(inkOf(mod, palette));
    // A ring of radius r round the pixel (16,4); 18 steps from one ring to the next, each ring
    // 13 palette steps on.
    for (const [t, r, ring] of [[0, 0, 0], [550, 5, 0], [2250, 4, 1]]) {
      const p = drawAt(mod, t, { palette });
      assert.equal(colours(p).sort(), [0, steps[13 * ring]].sort(), "t=" + t);
      assert.equal(litColumns(p), [16 - r, 16 + r], "t=" + t);
      // Every lit pixel is about r from the centre, and the four ends of the ring are lit.
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
        if (p[y][x]) assert.ok(Math.abs(Math.hypot(x - 16, y - 4) - r) < 1, x + "," + y + " at t=" + t);
      }
      for (const [x, y] of [[16 - r, 4], [16 + r, 4], [16, 4 - r], [16, 4 + r]]) if (y >= 0 && y < H) assert.ok(p[y][x], x + "," + y);
    }
    // The ring at radius 16 still touches the left edge; the next radius shows nothing.
    assert.equal(litColumns(drawAt(mod, 1650, { palette })), [0, 31]);
    assert.equal(colours(drawAt(mod, 1750, { palette })), [0]);
    assert.equal(litColumns(drawAt(mod, 1850, { palette })), [16, 16]);
  }
  assert.is(drawAt(mod, 0)[4][16], 0xff0000);
});

// ---- Fade ------------------------------------------------------------------------------------------

function scaled(c: number, k: number): number {
  return (Math.round((c >> 16) * k) << 16) | (Math.round(((c >> 8) & 255) * k) << 8) | Math.round((c & 255) * k);
}

test("Fade: the whole panel one colour breathing from 12% up to full in 2 s and back; each breath the next palette entry; stock dark blue", () => {
  const mod = effect("fade");
  for (const palette of [undefined, RGB]) {
    const ink = inkOf(mod, palette);
    const steps = stepColours(ink);
    // Breath n in the first step at or past entry n (6 for entry 1), which is that entry in bands.
    if (palette) assert.is(stepColours(inkOf(mod, palette, false))[6], entriesFromColors(palette)[1]);
    for (const [t, colour] of [[0, scaled(steps[0], 0.12)], [2000, steps[0]], [4030, scaled(steps[6], 0.12)], [6030, steps[6]]]) {
      assertPicture(drawAt(mod, t, { palette }), () => colour, "t=" + t);
    }
    // Rising in between.
    const levels = [250, 750, 1250, 1750].map((t) => drawAt(mod, t, { palette })[0][0] & 255);
    if (!palette) for (let i = 1; i < levels.length; i++) assert.ok(levels[i] > levels[i - 1], levels.join(" "));
  }
  assert.is(drawAt(mod, 2000)[4][20], 0x0c24a0);
});

// ---- ColorWaves ------------------------------------------------------------------------------------

test("ColorWaves: the palette once across the width, every row alike, moving right a palette step every 1/24 s", () => {
  const mod = effect("color-waves");
  for (const palette of [undefined, RGB]) {
    const steps = stepColours(inkOf(mod, palette));
    for (const [t, s] of [[0, 0], [1010, 24], [7500, 180]]) {
      assertPicture(drawAt(mod, t, { palette }), (x) => steps[((Math.round((x * STEPS) / W) - s) % STEPS + STEPS) % STEPS],
        "t=" + t + (palette ? " palette" : " stock"));
    }
  }
});

// ---- the palette fields: Plasma, PlasmaCloud, Pacifica -----------------------------------------------

interface FieldCase {
  name: string;
  /** ms per palette step; palette steps per pixel of drift to the left; per row of drift upward. */
  step: number;
  panX: number;
  panY: number;
  /** The most palette steps between the lowest and the highest point of the picture. */
  span: number;
}

const FIELDS: FieldCase[] = [
  { name: "plasma", step: 50, panX: 4, panY: 10, span: STEPS },
  { name: "plasma-cloud", step: 125, panX: 6, panY: 16, span: 29 },
  { name: "pacifica", step: 1000 / 12, panX: 2, panY: 0, span: 44 },
];

/** Palette steps of a picture drawn with the RGB palette, pixel by pixel in memory order. */
function stepsOf(p: Picture, index: { [colour: number]: number }): number[] {
  const out: number[] = [];
  for (let n = 0; n < N; n++) {
    const s = index[flat(p, n)];
    assert.ok(s !== undefined, "pixel " + n + " is not a palette colour");
    out.push(s);
  }
  return out;
}

/** How far the picture has drifted after `s` steps, in pixels in memory order (a row is W). */
function offsetAt(c: FieldCase, s: number): number {
  return Math.floor(s / c.panX) + (c.panY ? W * Math.floor(s / c.panY) : 0);
}

for (const c of FIELDS) {
  test(c.name + ": a still field of palette steps, a palette step on per step, drifting by whole pixels", () => {
    const mod = effect(c.name);
    const index = stepIndex(inkOf(mod, RGB));
    const start = stepsOf(drawAt(mod, 10, { palette: RGB }), index);
    // Three moments: one step on, a pixel of drift on, and far on; each is the first picture
    // with every pixel s palette steps on and moved by the drift so far.
    for (const s of [1, c.panX, 3 * 17 * c.panX + 1]) {
      const t = Math.ceil(s * c.step) + 5;
      const now = stepsOf(drawAt(mod, t, { palette: RGB }), index);
      const o = offsetAt(c, s);
      for (let n = 0; n < N; n++) {
        assert.is(now[n], (start[(n + o) % N] + s) % STEPS, "t=" + t + " pixel " + n);
      }
    }
    // How much of the palette the picture spans at once (a band around the ring of steps).
    const present: boolean[] = [];
    for (const s of start) present[s] = true;
    let gap = 0;
    for (let p = 0; p < STEPS; p++) {
      let run = 0;
      while (run < STEPS && !present[(p + run) % STEPS]) run++;
      gap = Math.max(gap, run);
    }
    assert.ok(STEPS - gap <= c.span, c.name + " spans " + (STEPS - gap) + " steps");
    assert.ok(STEPS - gap >= c.span / 2, c.name + " spans only " + (STEPS - gap) + " steps");
    // Smooth: neighbours along a row are close in the palette.
    for (let n = 0; n < N; n++) {
      if (n % W === W - 1) continue;
      const d = Math.abs(start[n + 1] - start[n]);
      assert.ok(Math.min(d, STEPS - d) <= c.span / 4, c.name + " jumps " + d + " steps at pixel " + n);
    }
  });
}

test("Plasma: most of the palette on screen at once; stock colours the hue wheel", () => {
  const index = stepIndex(inkOf(effect("plasma"), RGB));
  const plasma = stepsOf(drawAt(effect("plasma"), 0, { palette: RGB }), index);
  const seen: { [s: number]: boolean } = {};
  for (const s of plasma) seen[s] = true;
  assert.ok(Object.keys(seen).length >= 50, "plasma shows " + Object.keys(seen).length + " of 85 steps");
  // Stock colours: the hue wheel, red to magenta, in the same frame.
  const stock = colours(drawAt(effect("plasma"), 0));
  const has = (test: (r: number, g: number, b: number) => boolean) => stock.some((c) => test(c >> 16, (c >> 8) & 255, c & 255));
  assert.ok(has((r, g, b) => r > 200 && g < 60 && b < 60), "a red");
  assert.ok(has((r, g, b) => g > 200 && r < 60 && b < 60), "a green");
  assert.ok(has((r, g, b) => b > 200 && r < 60 && g < 60), "a blue");
});

test("Pacifica: stock colours are deep blue to pale teal", () => {
  for (const t of [0, 1230, 46350]) {
    for (const c of colours(drawAt(effect("pacifica"), t))) {
      const r = c >> 16;
      const g = (c >> 8) & 255;
      const b = c & 255;
      assert.ok(b > 0 && b >= r && g >= r && b >= g - 8, c.toString(16));
    }
  }
});

// ---- all ten ---------------------------------------------------------------------------------------

const ALL = ["plasma", "plasma-cloud", "color-waves", "pacifica", "fade", "moving-line", "theater-chase", "checkerboard", "radar", "ripple"];
const MOMENTS = [0, 1230, 46350];

test("every effect: with the palette given, only its colours; with blending off, only its 16 entries", () => {
  for (const name of ALL) {
    const mod = effect(name);
    const blended = stepColours(inkOf(mod, RGB));
    const bands = entries(inkOf(mod, RGB, false));
    assert.is(bands.length, 16);
    for (const t of MOMENTS) {
      // Fade dims its colour except at the top of a breath (2 s into each 4 s).
      const at = name === "fade" ? t - (t % 4000) + 2000 : t;
      assertOnly(drawAt(mod, at, { palette: RGB }), blended, name + " t=" + at);
      const hard = drawAt(mod, at, { palette: RGB, blend: false });
      assertOnly(hard, bands, name + " bands t=" + at);
    }
    // Hard bands differ from the blend somewhere in the three moments (Fade: at the top of its
    // second breath, in the colour between two entries).
    const differs = MOMENTS.some((t) => {
      const at = name === "fade" ? 6000 : t;
      return JSON.stringify(drawAt(mod, at, { palette: RGB })) !== JSON.stringify(drawAt(mod, at, { palette: RGB, blend: false }));
    });
    assert.ok(differs, name + " looks the same blended and in bands");
  }
});

test("every effect: stock colours without a palette, the palette's with one", () => {
  for (const name of ALL) {
    const mod = effect(name);
    for (const t of MOMENTS) {
      const stock = drawAt(mod, t);
      assert.ok(colours(stock).some((c) => c !== 0), name + " draws nothing at t=" + t);
      assert.ok(JSON.stringify(stock) !== JSON.stringify(drawAt(mod, t, { palette: [0x00ff00, 0xffff00] })), name + " ignores the palette");
    }
  }
});

test("every effect: effectSpeed scales its pace (speed x for e ms on screen draws what speed 1 draws after x e), whatever the clock says", () => {
  const clock = globalThis as unknown as { getTime?: () => number };
  const saved = { now: Date.now, getTime: clock.getTime };
  let fake = 0;
  // The clock jumps between draws: a frame that read it instead of t would not come out the same.
  Date.now = () => (fake += 7919);
  clock.getTime = () => (fake += 7919) / 1000;
  try {
    for (const name of ALL) {
      const mod = effect(name);
      for (const [speed, elapsed] of [[2, 615], [0.5, 2460], [10, 123], [0.1, 12300]]) {
        assert.equal(atSpeed(mod, speed, elapsed), atSpeed(mod, 1, speed * elapsed), name + " speed " + speed);
      }
      // And the pace does change the picture: at twice the speed the effect is somewhere else.
      assert.ok(MOMENTS.slice(1).some((t) => JSON.stringify(atSpeed(mod, 2, t)) !== JSON.stringify(atSpeed(mod, 1, t))), name + " does not move");
    }
  } finally {
    Date.now = saved.now;
    clock.getTime = saved.getTime;
  }
});

test("every effect: a frame is a function of its moment (drawn after another moment, or fresh, it is the same)", () => {
  for (const name of ALL) {
    const mod = effect(name);
    const g = Graphics.createArrayBuffer(W, H, 24) as unknown as Graphics;
    const ink = inkFor(mod, g, RGB);
    const fx = mod.make(W, H);
    // Forwards, backwards and repeated moments on one frame and one made effect.
    for (const [t1, t2] of [[1230, 46350], [46350, 1230], [1230, 1230], [0, 999]]) {
      fx.draw(g, t1, ink);
      fx.draw(g, t2, ink);
      const fresh = drawAt(mod, t2, { palette: RGB });
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) assert.is(g.getPixel(x, y), fresh[y][x], name + " " + t1 + " then " + t2);
    }
  }
});

test("every effect: on a wider panel the same rules hold and the whole canvas is painted", () => {
  for (const name of ALL) {
    const mod = effect(name);
    const wide = drawAt(mod, 1230, { w: 64, h: 8, under: (g) => {
      g.setColor(0x123456);
      g.fillRect(0, 0, 63, 7);
    } });
    // Nothing of the page under it shows through.
    for (const row of wide) for (const c of row) assert.ok(c !== 0x123456, name);
  }
});

test.run();
