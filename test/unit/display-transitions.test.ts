// The 21 page transitions on the Graphics stand-in, each made from its module as the render loop
// makes it: the ends are the two pages, the middle is made of their pixels only, direction-aware
// ones mirror when reversed, the clip rect is left whole, the cost per frame stays at a few dozen
// Graphics calls on any width, and half-way pictures of some are pinned in
// test/fixtures/transitions/. With ESPRUINO set, the real interpreter draws the same frames byte
// for byte from the built modules, allocates nothing per frame, and a transition made and dropped
// leaves nothing behind.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Graphics as StandIn } from "../harness/graphics";
import { installEngineHost } from "./engine-support";
import { runInEspruino } from "../espruino/script";
import { expectFrame, frameOf, frameToText, type Frame } from "../harness/frame-fixture";
import { ROOT } from "../harness/root";
// @ts-expect-error: a build script without type declarations
import { buildModules, moduleFile } from "../../build/modules.mjs";
import { dimTables, DIM_STEPS } from "../../build/tables.mjs";
import { TRANSITIONS, TRANSITION_COUNT } from "../../firmware/device/names";
import { loadTransition, pickTransition, type Transition } from "../../firmware/display/transitions";

const H = 8;

// ---- Graphics that counts its calls ------------------------------------------------------------

// While this file's tests run, every call the firmware makes to a Graphics method (on its frame
// and on its own scratch buffers alike) is counted, so a frame's cost can be read off. Calls the
// stand-in makes to itself inside one are not.
const COUNTED = ["clear", "setColor", "setBgColor", "getColor", "setPixel", "getPixel", "fillRect", "clearRect",
  "drawRect", "drawLine", "fillPoly", "drawImage", "scroll", "blit", "setClipRect", "setRotation", "getWidth",
  "getHeight", "drawString", "setFont", "setFontAlign"];
let calls = 0;
let depth = 0;
const proto = StandIn.prototype as unknown as { [method: string]: (...args: unknown[]) => unknown };
const plain: { [method: string]: (...args: unknown[]) => unknown } = {};
// The fading transitions dim the pages through E.mapInPlace and the tables in Storage.
let unhost = () => {};

test.before(() => {
  unhost = installEngineHost();
  for (const name of COUNTED) {
    const method = proto[name];
    if (typeof method !== "function") continue;
    plain[name] = method;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      if (depth === 0) calls++;
      depth++;
      try {
        return method.apply(this, args);
      } finally {
        depth--;
      }
    };
  }
});

test.after(() => {
  for (const name of Object.keys(plain)) proto[name] = plain[name];
  unhost();
});

// ---- pages ---------------------------------------------------------------------------------------

const R = 0xff0000;
const W = 0xffffff;
const G = 0x00ff00;
const B = 0x0000ff;

type PageFn = (x: number, y: number, w: number) => number;

/** Old page: red blocks and white diagonals on black. */
const OLD: PageFn = (x, y) => ((x + y) % 6 === 0 ? W : (x >> 2) & 1 ? 0 : R);
/** New page: green bars, blue top, a black row and a black bottom between the bars. */
const NEW: PageFn = (x, y) => (y === 3 ? 0 : x % 8 < 2 ? G : y < 3 ? B : 0);
/** The same, symmetric left to right. */
const mirrorX = (p: PageFn): PageFn => (x, y, w) => p(Math.min(x, w - 1 - x), y, w);
/** The same, symmetric top to bottom. */
const mirrorY = (p: PageFn): PageFn => (x, y, w) => p(x, Math.min(y, H - 1 - y), w);

function scale(rgb: number, level: number): number {
  const r = Math.round(((rgb >> 16) & 255) * level);
  const g = Math.round(((rgb >> 8) & 255) * level);
  const b = Math.round((rgb & 255) * level);
  return (r << 16) | (g << 8) | b;
}

/** A page rendered at `level` through its canvas. */
function page(p: PageFn, w: number, level: number): GraphicsImage {
  const bytes = new Uint8Array(w * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < w; x++) {
      const c = scale(p(x, y, w), level);
      const i = (y * w + x) * 3;
      bytes[i] = c >> 16;
      bytes[i + 1] = (c >> 8) & 255;
      bytes[i + 2] = c & 255;
    }
  }
  return { width: w, height: H, bpp: 24, buffer: bytes.buffer };
}

function pixelsOf(p: PageFn, w: number, level = 1): number[] {
  const out: number[] = [];
  for (let y = 0; y < H; y++) for (let x = 0; x < w; x++) out.push(scale(p(x, y, w), level));
  return out;
}

// ---- making a transition --------------------------------------------------------------------------

/**
 * The scratch bytes transitions are made with, one per width, as the render loop lends the LED
 * chain's: filled with junk before every draw, as nothing of them outlives a frame.
 */
const scratches = new Map<number, ArrayBuffer>();
function scratchOf(w: number): ArrayBuffer {
  let s = scratches.get(w);
  if (!s) scratches.set(w, (s = new ArrayBuffer(w * H * 3)));
  return s;
}
let junk = 0;
function spoil(w: number): void {
  new Uint8Array(scratchOf(w)).fill(0x5a + 61 * junk++);
}

/** Transition i made for a panel w x H and set up, as the render loop does before a change of page. */
function make(i: number, w: number): Transition {
  const t = loadTransition(i, w, H, scratchOf(w), { failed: 0 });
  if (!t) throw new Error("transition " + TRANSITIONS[i] + " did not load");
  while (t.prepare && !t.prepare()) { /* a slice at a time */ }
  return t;
}

/** One made per transition and width, kept: frames of a transition use the same one. */
const byWidth = new Map<string, Transition>();
function kept(i: number, w: number): Transition {
  const key = i + " " + w;
  let t = byWidth.get(key);
  if (!t) byWidth.set(key, (t = make(i, w)));
  return t;
}

/** Through black: the old page fades out over the first half, the new one in over the second. */
function throughBlack(t: number, page: number): number {
  if (page === 0) return t < 0.5 ? 1 - 2 * t : 0;
  return t > 0.5 ? 2 * t - 1 : 0;
}

/** How the fading transitions dim page 0 (from) or 1 (to) at t: Fade crosses straight. */
const LEVELS: { [name: string]: (t: number, page: number) => number } = {
  Dim: throughBlack, Fade: (t, page) => (page === 0 ? 1 - t : t), Flash: throughBlack,
};

/** `level` to the nearest of the dimming tables' steps, as a fading transition dims a page. */
function stepped(level: number): number {
  return Math.round(level * (DIM_STEPS - 1)) / (DIM_STEPS - 1);
}

/** The level transition i shows page p at, at t (1: full, for all but the fading ones). */
function levelOf(i: number, t: number, p: number): number {
  const level = LEVELS[TRANSITIONS[i]];
  return level ? stepped(level(t, p)) : 1;
}

// ---- drawing a frame -----------------------------------------------------------------------------

interface Drawn {
  frame: Frame;
  calls: number;
}

const WHITE = 0xffffff;

/**
 * The frame of transition `i` at t, drawn as the render loop does (pages at full brightness, white
 * selected), by the one made for the width, or by one made for this frame alone (`fresh`).
 */
function draw(i: number, t: number, reverse: boolean,
  opts: { w?: number; from?: PageFn; to?: PageFn; white?: number; fresh?: boolean } = {}): Drawn {
  const w = opts.w ?? 32;
  const tr = opts.fresh ? make(i, w) : kept(i, w);
  const from = page(opts.from ?? OLD, w, 1);
  const to = page(opts.to ?? NEW, w, 1);
  const out = Graphics.createArrayBuffer(w, H, 24);
  out.clear();
  out.setColor(opts.white ?? WHITE);
  spoil(w);
  calls = 0;
  tr.draw(out, from, to, t, reverse);
  const n = calls;
  return { frame: frameOf(out), calls: n };
}

const REAL: number[] = [];
for (let i = 1; i < TRANSITIONS.length; i++) REAL.push(i);
const index = (name: string) => TRANSITIONS.indexOf(name);
const STEPS = [0, 0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 0.95, 1];

const mirrored = (f: Frame, horizontal: boolean): number[] => {
  const out: number[] = [];
  for (let y = 0; y < f.height; y++) {
    for (let x = 0; x < f.width; x++) {
      out.push(horizontal ? f.pixels[y * f.width + (f.width - 1 - x)] : f.pixels[(f.height - 1 - y) * f.width + x]);
    }
  }
  return out;
};

// ---- the tables ------------------------------------------------------------------------------------

test("a module per transition name, found by its name in lower case, its Storage name within 28 characters", () => {
  // Random picks among all the others: a name added to the list is counted.
  assert.is(TRANSITION_COUNT, TRANSITIONS.length);
  for (const i of REAL) {
    // What loadTransition loads (kept below makes it through loadTransition).
    const id = "display/trans/" + TRANSITIONS[i].toLowerCase();
    assert.ok(fs.existsSync(path.join(ROOT, "firmware", id + ".mod.ts")), id);
    assert.ok(moduleFile(id).length <= 28, moduleFile(id));
    assert.type(kept(i, 32).draw, "function", TRANSITIONS[i]);
  }
  // Only the fading ones show colours of neither page as it is drawn.
  const full = new Set<number>([0, ...pixelsOf(OLD, 32), ...pixelsOf(NEW, 32)]);
  const fading = TRANSITIONS.filter((_, i) => i > 0 && draw(i, 0.25, false).frame.pixels.some((p) => !full.has(p)));
  assert.equal(fading, ["Dim", "Fade", "Flash"]);
  // Only the transitions that rank pixels have set-up to do before their first frame.
  const preparing = TRANSITIONS.filter((_, i) => i > 0 && loadTransition(i, 32, H, scratchOf(32), { failed: 0 })!.prepare !== undefined);
  assert.equal(preparing, ["Pixelate", "Blocks", "Rain"]);
});

test("a missing transition module is no transition (the render loop plays a cut), reported once", () => {
  const g = globalThis as unknown as { print?: (...a: unknown[]) => void };
  const print = g.print;
  const printed: string[] = [];
  g.print = (...a: unknown[]) => { printed.push(a.join(" ")); };
  try {
    // Index 0, Random, is never played and has no module; neither has an index past the list.
    // Reported once for what keeps the record (the render loop), and again for another.
    const seen = { failed: 0 };
    for (let k = 0; k < 3; k++) {
      assert.is(loadTransition(0, 32, H, scratchOf(32), seen), null);
      assert.is(loadTransition(TRANSITIONS.length, 32, H, scratchOf(32), seen), null);
    }
    assert.is(printed.length, 2, printed.join("\n"));
    assert.is(loadTransition(0, 32, H, scratchOf(32), { failed: 0 }), null);
  } finally {
    g.print = print;
  }
  assert.is(printed.length, 3, printed.join("\n"));
  assert.match(printed[0], "transition Random plays as a cut: ");
  assert.match(printed[0], "module display/trans/random is missing");
});

test("page levels: Dim goes through black, each page dimmed through the table of its level's step", () => {
  const table = dimTables();
  const dimmed = (p: PageFn, level: number) => {
    const k = Math.round(level * (DIM_STEPS - 1));
    const channel = (v: number) => table[k * 256 + v];
    return pixelsOf(p, 32).map((c) => (channel(c >> 16) << 16) | (channel((c >> 8) & 255) << 8) | channel(c & 255));
  };
  const dim = index("Dim");
  assert.equal(draw(dim, 0, false).frame.pixels, pixelsOf(OLD, 32));
  assert.equal(draw(dim, 0.25, false).frame.pixels, dimmed(OLD, 0.5));
  assert.equal(draw(dim, 0.5, false).frame.pixels, dimmed(NEW, 0));
  assert.equal(draw(dim, 0.7, false).frame.pixels, dimmed(NEW, 0.4));
});

test("the dissolves' set-up comes in slices of a few pixels, the same ranks however it is sliced", () => {
  for (const name of ["Pixelate", "Blocks", "Rain"]) {
    const t = loadTransition(index(name), 32, H, scratchOf(32), { failed: 0 })!;
    let slices = 1;
    while (!t.prepare!()) slices++;
    // 256 pixels a tile each, 32 tiles of 4 x 2, 32 columns of 8: 16 pixels a slice.
    assert.is(slices, 16, name);
    assert.equal(draw(index(name), 0.4, false).frame.pixels, draw(index(name), 0.4, false, { fresh: true }).frame.pixels, name);
  }
});

test("the dissolves on a panel whose scratch bytes cannot hold the palette (under 22 columns) keep one of their own", () => {
  for (const name of ["Pixelate", "Blocks", "Rain"]) {
    const i = index(name);
    for (const w of [8, 21]) {
      assert.equal(draw(i, 0, false, { w }).frame.pixels, pixelsOf(OLD, w), name + " t=0 w=" + w);
      assert.equal(draw(i, 1, false, { w }).frame.pixels, pixelsOf(NEW, w), name + " t=1 w=" + w);
      const old = pixelsOf(OLD, w);
      const fresh = pixelsOf(NEW, w);
      const allowed = new Set<number>([0, ...old, ...fresh]);
      const half = draw(i, 0.5, false, { w }).frame.pixels;
      assert.equal(half.filter((p) => !allowed.has(p)), [], name + " w=" + w + ": pixels of neither page");
      assert.ok(half.some((p, n) => p !== old[n]) && half.some((p, n) => p !== fresh[n]), name + " w=" + w + ": not half-way");
    }
  }
});

// ---- every transition ------------------------------------------------------------------------------

for (const i of REAL) {
  const name = TRANSITIONS[i];
  test(name + ": the old page at t = 0, the new one at t = 1, both directions, any width", () => {
    for (const w of [32, 33, 40, 64, 128]) {
      for (const reverse of [false, true]) {
        assert.equal(draw(i, 0, reverse, { w }).frame.pixels, pixelsOf(OLD, w), `t=0 w=${w} reverse=${reverse}`);
        assert.equal(draw(i, 1, reverse, { w }).frame.pixels, pixelsOf(NEW, w), `t=1 w=${w} reverse=${reverse}`);
      }
    }
  });

  test(name + ": in between, only pixels of the two pages (at their levels) or black", () => {
    for (const w of [32, 40, 128]) {
      for (const t of STEPS) {
        for (const reverse of [false, true]) {
          const allowed = new Set<number>([0]);
          for (const c of pixelsOf(OLD, w, levelOf(i, t, 0))) allowed.add(c);
          for (const c of pixelsOf(NEW, w, levelOf(i, t, 1))) allowed.add(c);
          if (name === "Flash") allowed.add(scale(WHITE, t < 0.5 ? 2 * t : 2 - 2 * t));
          const stray = draw(i, t, reverse, { w }).frame.pixels.filter((p) => !allowed.has(p));
          assert.equal(stray, [], `t=${t} w=${w} reverse=${reverse}`);
        }
      }
    }
  });

  test(name + ": half-way differs from both pages", () => {
    const mid = draw(i, 0.5, false).frame.pixels;
    assert.not.equal(mid, pixelsOf(OLD, 32));
    assert.not.equal(mid, pixelsOf(NEW, 32));
  });

  test(name + ": leaves the clip rect on the whole frame", () => {
    for (const t of [0.1, 0.3, 0.5, 0.7, 0.9]) {
      const from = page(OLD, 32, 1);
      const to = page(NEW, 32, 1);
      const out = Graphics.createArrayBuffer(32, H, 24);
      out.setColor(WHITE);
      kept(i, 32).draw(out, from, to, t, false);
      out.setColor(0x123456);
      out.fillRect(0, 0, 31, H - 1);
      assert.equal(frameOf(out).pixels, new Array(32 * H).fill(0x123456), `t=${t}`);
    }
  });

  test(name + ": a frame depends on t alone, not on the frames before it", () => {
    const first = draw(i, 0.3, false, { fresh: true }).frame.pixels;
    draw(i, 0.7, true);
    draw(i, 0.05, false);
    // Another transition that keeps scratch buffers, on another panel width.
    draw(name === "Rain" ? index("Pixelate") : index("Rain"), 0.6, false, { w: 40 });
    assert.equal(draw(i, 0.3, false).frame.pixels, first);
    draw(i, 0.3, false, { w: 64 });
    assert.equal(draw(i, 0.3, false).frame.pixels, first);
  });
}

// ---- cost ---------------------------------------------------------------------------------------------

/** Most Graphics calls in one frame over t, on a panel w wide. */
function maxCalls(i: number, w: number): number {
  let most = 0;
  for (let k = 0; k <= 100; k++) {
    for (const reverse of [false, true]) most = Math.max(most, draw(i, k / 100, reverse, { w }).calls);
  }
  return most;
}

// Most Graphics calls per frame on 32x8 (the frame's and the scratch buffers' alike).
const MAX_CALLS: { [name: string]: number } = {
  Slide: 2, Dim: 1, Zoom: 2, Rotate: 2, Pixelate: 7, Curtain: 6, Ripple: 10, Blink: 1, Reload: 3, Fade: 2,
  Cover: 2, Uncover: 2, Split: 4, Blinds: 18, Blocks: 7, Flash: 4, Diamond: 10, Wave: 18, Rain: 29,
  Melt: 18, Interlace: 18,
};

for (const i of REAL) {
  const name = TRANSITIONS[i];
  test(name + ": at most " + MAX_CALLS[name] + " Graphics calls a frame on 32x8, no more on 128x8", () => {
    assert.is(maxCalls(i, 32), MAX_CALLS[name]);
    assert.ok(maxCalls(i, 128) <= MAX_CALLS[name], "more calls on a wider panel");
  });
}

// ---- direction ------------------------------------------------------------------------------------------

/** Direction-aware, and whether reversing mirrors them left to right (else top to bottom). */
const DIRECTED: { [name: string]: boolean } = {
  Slide: true, Rotate: false, Cover: true, Uncover: true, Wave: true, Rain: false, Melt: true, Interlace: true,
};

for (const i of REAL) {
  const name = TRANSITIONS[i];
  const sideways = DIRECTED[name];
  if (sideways === undefined) {
    test(name + ": the same either way round", () => {
      for (const t of [0.25, 0.5, 0.75]) assert.equal(draw(i, t, true).frame.pixels, draw(i, t, false).frame.pixels);
    });
    continue;
  }
  test(name + ": reversed, it is the mirror image on symmetric pages", () => {
    const mirror = sideways ? mirrorX : mirrorY;
    for (const t of [0.25, 0.5, 0.75]) {
      const pages = { from: mirror(OLD), to: mirror(NEW) };
      const normal = draw(i, t, false, pages).frame;
      const reversed = draw(i, t, true, pages).frame;
      assert.not.equal(reversed.pixels, normal.pixels, `t=${t} reversal changes nothing`);
      assert.equal(reversed.pixels, mirrored(normal, sideways), `t=${t}`);
    }
  });
}

// ---- what some of them look like ---------------------------------------------------------------------------

test("Slide at a quarter: both pages moved a quarter of the way (eased) to the left", () => {
  const f = draw(index("Slide"), 0.25, false).frame;
  const off = Math.round(0.25 * 0.25 * (3 - 0.5) * 32);
  const old = pixelsOf(OLD, 32);
  const fresh = pixelsOf(NEW, 32);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < 32; x++) {
      const want = x < 32 - off ? old[y * 32 + x + off] : fresh[y * 32 + x - (32 - off)];
      assert.is(f.pixels[y * 32 + x], want, `x=${x} y=${y}`);
    }
  }
});

test("reveals in place only grow: a pixel showing the new page keeps showing it", () => {
  const old = pixelsOf(OLD, 32);
  const fresh = pixelsOf(NEW, 32);
  for (const name of ["Pixelate", "Curtain", "Ripple", "Split", "Blinds", "Blocks", "Diamond", "Wave"]) {
    let shown = new Set<number>();
    for (const t of STEPS) {
      const f = draw(index(name), t, false).frame.pixels;
      const now = new Set<number>();
      f.forEach((p, k) => {
        assert.ok(p === old[k] || p === fresh[k], `${name} t=${t}: pixel ${k} is from neither page at its place`);
        if (p === fresh[k] && p !== old[k]) now.add(k);
      });
      for (const k of shown) assert.ok(now.has(k), `${name} t=${t}: pixel ${k} went back to the old page`);
      shown = now;
    }
  }
});

test("Pixelate shows round(256 t) pixels of the new page on 32x8, Blocks whole 4x2 tiles", () => {
  const pages = { from: () => R, to: () => G };
  const tiles = new Set<number>();
  for (const t of [0.1, 0.37, 0.5, 0.9]) {
    const k = Math.round(t * 256);
    const dots = draw(index("Pixelate"), t, false, pages).frame.pixels;
    assert.is(dots.filter((p) => p === G).length, k, `Pixelate t=${t}`);
    assert.is(dots.filter((p) => p === R).length, 256 - k, `Pixelate t=${t}`);
    const blocks = draw(index("Blocks"), t, false, pages).frame.pixels;
    let shown = 0;
    for (let ty = 0; ty < H; ty += 2) {
      for (let tx = 0; tx < 32; tx += 4) {
        const tile: number[] = [];
        for (let y = ty; y < ty + 2; y++) for (let x = tx; x < tx + 4; x++) tile.push(blocks[y * 32 + x]);
        assert.ok(tile.every((p) => p === tile[0]), `Blocks t=${t}: tile ${tx},${ty} split`);
        if (tile[0] === G) {
          shown++;
          tiles.add(ty * 32 + tx);
        }
      }
    }
    // 32 tiles: one more every 8/256 of the way.
    assert.is(shown, Math.ceil(k / 8), `Blocks t=${t}`);
  }
  assert.ok(tiles.size > 8, "the same few tiles every time");
});

test("a black pixel of the new page covers the old page in a dissolve", () => {
  // Row 3 of the new page is black; at t just below 1 almost all of it shows.
  const f = draw(index("Pixelate"), 255 / 256, false).frame.pixels;
  const row3 = f.slice(3 * 32, 4 * 32);
  assert.ok(row3.filter((p) => p === 0).length >= 31, frameToText(draw(index("Pixelate"), 255 / 256, false).frame));
});

test("Flash ramps into the colour selected on the frame and out of it", () => {
  const flash = index("Flash");
  assert.equal(draw(flash, 0.5, false, { white: 0x808080 }).frame.pixels, new Array(32 * H).fill(0x808080));
  // A fifth of the way: the white at 40 %, under the old page at 60 % (the nearest step).
  const f = draw(flash, 0.2, false, { white: 0x808080 }).frame.pixels;
  const old = pixelsOf(OLD, 32);
  f.forEach((p, k) => assert.is(p, old[k] ? scale(old[k], stepped(0.6)) : 0x333333, "pixel " + k));
  // Past the middle of a half the white outshines the page.
  assert.equal(draw(flash, 0.35, false, { white: 0x808080 }).frame.pixels, new Array(32 * H).fill(scale(0x808080, 0.7)));
});

test("Fade: where only one page is lit it shows at its level; where both are, the brighter one", () => {
  const fade = index("Fade");
  const old = pixelsOf(OLD, 32);
  const fresh = pixelsOf(NEW, 32);
  for (const t of [0.25, 0.75]) {
    const f = draw(fade, t, false).frame.pixels;
    f.forEach((p, k) => {
      const a = scale(old[k], stepped(1 - t));
      const b = scale(fresh[k], stepped(t));
      const want = !old[k] ? b : !fresh[k] ? a : t < 0.5 ? a : b;
      assert.is(p, want, `t=${t} pixel ${k}`);
    });
  }
});

test("Blink: the old page on and off, then the new one off and on, in sevenths", () => {
  const blink = index("Blink");
  const black = new Array(32 * H).fill(0);
  const shows = [0.1, 0.2, 0.35, 0.5, 0.6, 0.75, 0.9].map((t) => draw(blink, t, false).frame.pixels);
  assert.equal(shows, [pixelsOf(OLD, 32), black, pixelsOf(OLD, 32), black, pixelsOf(NEW, 32), black, pixelsOf(NEW, 32)]);
});

test("Reload sweeps left to right both ways round: black first, then the new page", () => {
  const reload = index("Reload");
  for (const reverse of [false, true]) {
    const f = draw(reload, 0.25, reverse).frame.pixels;
    const old = pixelsOf(OLD, 32);
    for (let y = 0; y < H; y++) {
      assert.equal(f.slice(y * 32, y * 32 + 16), new Array(16).fill(0), "left half black");
      assert.equal(f.slice(y * 32 + 16, y * 32 + 32), old.slice(y * 32 + 16, y * 32 + 32), "right half old");
    }
  }
});

test("Rain on a new panel width: its first columns roll where the rest of it has them", () => {
  // 48 wide is drawn nowhere else: the column order is made for it here.
  const rain = index("Rain");
  const early = draw(rain, 0.04, false, { w: 48 }).frame.pixels;
  assert.not.equal(early, pixelsOf(OLD, 48), "nothing rolls yet");
  draw(rain, 0.5, false, { w: 48 });
  assert.equal(draw(rain, 0.04, false, { w: 48 }).frame.pixels, early);
});

test("Rain and Melt land their last column exactly at the end", () => {
  const pages = { from: () => R, to: () => G };
  for (const name of ["Rain", "Melt"]) {
    const f = draw(index(name), 0.98, false, pages).frame.pixels;
    const columns = new Set<number>();
    f.forEach((p, k) => {
      if (p !== G) columns.add(k % 32);
    });
    assert.is(columns.size, 1, name + ": one column still on its way");
  }
});

// Half-way pictures: '.' is black, letters are the legend's colours.
for (const name of ["Slide", "Zoom", "Rotate", "Pixelate", "Curtain", "Ripple", "Blinds", "Blocks", "Diamond", "Wave", "Rain", "Melt", "Interlace"]) {
  test(name + " half-way matches test/fixtures/transitions/" + name.toLowerCase() + ".txt", () => {
    expectFrame("../transitions/" + name.toLowerCase(), draw(index(name), 0.5, false).frame);
  });
}

// ---- choosing -----------------------------------------------------------------------------------------------

test("pickTransition: a name gives its index, in any case", () => {
  assert.is(pickTransition("Slide", 7), 1);
  assert.is(pickTransition("interlace", 7), 21);
  assert.is(pickTransition("RAIN", 0), 19);
});

test("pickTransition: Random (or a name not in the list) picks 1..21 by seed, all of them", () => {
  const seen = new Set<number>();
  for (let seed = 0; seed < 500; seed++) {
    const i = pickTransition("Random", seed);
    assert.ok(i >= 1 && i <= 21, "seed " + seed + " gave " + i);
    assert.is(pickTransition("random", seed), i, "same seed, same pick");
    seen.add(i);
  }
  assert.is(seen.size, 21);
  const picks = [1, 2, 3, 4, 5, 6].map((s) => pickTransition("Random", s));
  assert.ok(new Set(picks).size >= 4, "consecutive seeds vary: " + picks.join(","));
  assert.is(pickTransition("Nonesuch", 3), pickTransition("Random", 3));
});

// ---- the real interpreter ---------------------------------------------------------------------------------------

const bin = process.env.ESPRUINO;
const MARK = "[transitions] ";
const CASES: { i: number; t: number; reverse: boolean; w: number }[] = [];
for (const i of REAL) {
  for (const t of [0.2, 0.5, 0.8]) CASES.push({ i, t, reverse: t === 0.8, w: 32 });
  CASES.push({ i, t: 0.45, reverse: false, w: 40 });
}

function interpreterScript(): string {
  const pages: { [w: number]: number[][] } = {};
  for (const w of [32, 40]) pages[w] = [pixelsOf(OLD, w), pixelsOf(NEW, w)];
  const entry = `
    import { loadTransition } from "./firmware/display/transitions";
    const PAGES = ${JSON.stringify(pages)};
    const CASES = ${JSON.stringify(CASES)};
    const COUNT = ${TRANSITIONS.length};
    const surfaces = {};
    function surface(w) {
      if (!surfaces[w]) {
        const gs = [Graphics.createArrayBuffer(w, 8, 24), Graphics.createArrayBuffer(w, 8, 24), Graphics.createArrayBuffer(w, 8, 24)];
        const scratch = new ArrayBuffer(w * 8 * 3);
        surfaces[w] = { out: gs[0], pages: [gs[1], gs[2]], images: [{ width: w, height: 8, bpp: 24, buffer: gs[1].buffer }, { width: w, height: 8, bpp: 24, buffer: gs[2].buffer }], scratch: scratch, junk: new Uint8Array(scratch) };
      }
      return surfaces[w];
    }
    function make(i, w) {
      const t = loadTransition(i, w, 8, surface(w).scratch, { failed: 0 });
      while (t.prepare && !t.prepare()) {}
      return t;
    }
    const made = {};
    function transition(i, w) {
      const key = i + " " + w;
      if (!made[key]) made[key] = make(i, w);
      return made[key];
    }
    function paint(s, w, p) {
      const px = PAGES[w][p];
      const g = s.pages[p];
      for (let k = 0; k < px.length; k++) g.setPixel(k % w, Math.floor(k / w), px[k]);
    }
    function frame(c) {
      const s = surface(c.w);
      const tr = transition(c.i, c.w);
      paint(s, c.w, 0);
      paint(s, c.w, 1);
      s.junk.fill(0x5a + c.i);
      s.out.clear();
      s.out.setColor(0xffffff);
      tr.draw(s.out, s.images[0], s.images[1], c.t, c.reverse);
      return s.out;
    }
    for (let n = 0; n < CASES.length; n++) {
      const g = frame(CASES[n]);
      let row = "";
      for (let y = 0; y < 8; y++) for (let x = 0; x < CASES[n].w; x++) row += (0x1000000 + g.getPixel(x, y)).toString(16).substr(1);
      print("${MARK}" + n + " " + row);
    }
    // Steady state: after a first pass over every case, more passes leave nothing behind.
    function passes(k) { for (let p = 0; p < k; p++) for (let n = 0; n < CASES.length; n++) frame(CASES[n]); }
    const usage = new Int32Array(3);
    passes(1);
    usage[0] = process.memory().usage;
    passes(1);
    usage[1] = process.memory().usage;
    passes(3);
    usage[2] = process.memory().usage;
    print("${MARK}growth " + (usage[1] - usage[0]) + " " + (usage[2] - usage[1]));
    // Each transition made (and set up) for 32 x 8 and dropped again: what it holds while it is
    // made, and what it leaves once dropped (after a first round, as the loader keeps a little).
    const cost = new Int32Array(COUNT * 2);
    const kept = [null];
    for (let round = 0; round < 2; round++) {
      for (let i = 1; i < COUNT; i++) {
        const base = process.memory().usage;
        kept[0] = make(i, 32);
        cost[2 * i] = process.memory().usage - base;
        kept[0] = null;
        cost[2 * i + 1] = process.memory().usage - base;
      }
    }
    for (let i = 1; i < COUNT; i++) print("${MARK}held " + i + " " + cost[2 * i] + " " + cost[2 * i + 1]);
  `;
  return entry;
}

/** The transitions' modules as the build makes them, and the dimming tables, by Storage name. */
async function transitionFiles(): Promise<{ [name: string]: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-transitions-"));
  try {
    const files: { [name: string]: string } = { "dim.lut": dimTables().toString("latin1") };
    for (const m of await buildModules(dir, "esp32")) {
      if (m.id.startsWith("display/trans/")) files[m.file] = fs.readFileSync(path.join(dir, m.file), "latin1");
    }
    return files;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (!bin) {
  test.skip("transitions in the real interpreter (set ESPRUINO=/path/to/espruino)", () => {});
} else {
  test("the real interpreter draws the same frames from the built modules, allocates nothing per frame, and a dropped transition leaves nothing", async () => {
    const lines = runInEspruino(bin, interpreterScript(), await transitionFiles());
    const rows: string[] = [];
    const held: string[] = [];
    let growth = "";
    for (const l of lines) {
      const at = l.indexOf(MARK);
      if (at < 0) continue;
      const rest = l.slice(at + MARK.length);
      if (rest.startsWith("growth ")) growth = rest.slice(7);
      else if (rest.startsWith("held ")) held[+rest.split(" ")[1]] = rest.split(" ").slice(2).join(" ");
      else rows[+rest.split(" ")[0]] = rest.split(" ")[1];
    }
    CASES.forEach((c, n) => {
      const label = `${TRANSITIONS[c.i]} t=${c.t} reverse=${c.reverse} w=${c.w}`;
      assert.ok(rows[n], label + " was not drawn:\n" + lines.slice(-20).join("\n"));
      const pixels = rows[n].match(/.{6}/g)!.map((h) => parseInt(h, 16));
      const host = draw(c.i, c.t, c.reverse, { w: c.w }).frame;
      assert.is(frameToText({ width: c.w, height: H, pixels }), frameToText(host), label);
    });
    assert.is(growth, "0 0", "variables left over after passes over every case");
    for (const i of REAL) {
      assert.ok(held[i], TRANSITIONS[i] + " was not measured:\n" + lines.slice(-20).join("\n"));
      const [holds, left] = held[i].split(" ").map(Number);
      // While made: its functions and whatever its frames draw with (ranks and a 1-bit mask, its
      // page and palette being views of the scratch bytes: about 190 for the dissolves and Rain),
      // on 32 x 8.
      assert.ok(holds > 0 && holds <= 250, TRANSITIONS[i] + " holds " + holds);
      // Once dropped, nothing but the variable or two that measuring takes.
      assert.ok(left <= 2, TRANSITIONS[i] + " left " + left + " behind once dropped");
    }
  });
}

test.run();
