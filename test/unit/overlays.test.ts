// The six weather overlays drawn over a page: only their own pixels change, in their own colours
// (or the palette's); drops move one row a step at each overlay's base rate; the fall is a pure
// function of t that does not repeat; frost stands still; thunder flashes white now and then.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { drawAt, inkFor, installEngineHost } from "./effects-support";
import { loadModule } from "../../firmware/platform/modules";
import type { EffectModule } from "../../firmware/effects/types";
import { flashing } from "../../firmware/overlays/weather";

const W = 32;
const H = 8;
const WHITE = 0xffffff;

let restore = () => {};
test.before(() => {
  restore = installEngineHost();
});
test.after(() => restore());

const overlay = (name: string) => loadModule<EffectModule>("overlays/" + name);

/** A page in colours no overlay uses: a background, an icon block and a diagonal line. */
function under(g: Graphics): void {
  g.setColor(0x301020);
  g.fillRect(0, 0, W - 1, H - 1);
  g.setColor(0x00c000);
  g.fillRect(1, 1, 7, 6);
  g.setColor(0xc08000);
  g.drawLine(12, 0, 30, 7);
}

/** The page alone, as drawAt reads frames back. */
let page: number[][] = [];
test.before(() => {
  const g = Graphics.createArrayBuffer(W, H, 24) as unknown as Graphics;
  under(g);
  page = [];
  for (let y = 0; y < H; y++) {
    const row: number[] = [];
    for (let x = 0; x < W; x++) row.push(g.getPixel(x, y));
    page.push(row);
  }
});

/** The pixels an overlay changed, by "x,y", with their colours. */
type Drawn = Map<string, number>;

function drawn(name: string, t: number, palette?: number[]): Drawn {
  const frame = drawAt(overlay(name), t, { under, palette });
  const out: Drawn = new Map();
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (frame[y][x] !== page[y][x]) out.set(x + "," + y, frame[y][x]);
  return out;
}

const key = (x: number, y: number) => x + "," + y;
const xy = (k: string) => k.split(",").map(Number);

/**
 * Stock colours of each overlay, the only ones it may draw: a drop's head and its tail, a flake
 * bright or dim; frost's crust at the edge, one row in and two rows in.
 */
const COLOURS: { [name: string]: { head: number; tail?: number; dim?: number } } = {
  rain: { head: 0x3c8cff, tail: 0x1e4696 },
  drizzle: { head: 0xa0d2ff },
  snow: { head: 0xf0f0f0, dim: 0x787882 },
  storm: { head: 0x96b4f0, tail: 0x32508c },
  thunder: { head: 0x96b4f0, tail: 0x32508c },
  frost: { head: 0xe6f5ff, tail: 0x8cc3eb, dim: 0x3c78b4 },
};
const FALLING: { [name: string]: number } = { rain: 15, drizzle: 10, snow: 7, storm: 25, thunder: 25 };
/** Moments (ms) drawn in the colour tests: near the start, after some seconds, after hours. */
const MOMENTS = [130, 6170, 9876543];

test("every overlay draws some pixels in its own colours and leaves the rest of the page as it was", () => {
  for (const name of Object.keys(COLOURS)) {
    const c = COLOURS[name];
    const allowed = [c.head, c.tail, c.dim].filter((v) => v !== undefined);
    for (const t of MOMENTS) {
      if (name === "thunder" && flashing(t)) throw new Error("pick a moment without lightning");
      const d = drawn(name, t);
      assert.ok(d.size > 0, name + " at " + t + " draws something");
      assert.ok(d.size < W * H / 2, name + " at " + t + " leaves most of the page: " + d.size);
      for (const [k, colour] of d) assert.ok(allowed.includes(colour), name + " at " + t + ": " + k + " is " + colour.toString(16));
    }
  }
});

test("every colour of an overlay shows up: heads and tails, bright and dim flakes, the crust's three tones", () => {
  for (const name of Object.keys(COLOURS)) {
    const c = COLOURS[name];
    const seen = new Set<number>();
    for (let i = 0; i < 20; i++) for (const colour of drawn(name, 1000 + i * 1733).values()) seen.add(colour);
    for (const want of [c.head, c.tail, c.dim]) if (want !== undefined) assert.ok(seen.has(want), name + " shows " + want.toString(16));
  }
});

test("rain and storm: every drop has a bright head with its darker tail right behind it", () => {
  for (const name of ["rain", "storm"]) {
    const c = COLOURS[name];
    const tail = name === "rain" ? 2 : 3;
    for (const t of MOMENTS) {
      const d = drawn(name, t);
      let heads = 0;
      for (const [k, colour] of d) {
        const [x, y] = xy(k);
        if (colour === c.head) {
          heads++;
          for (let r = y - tail; r < y; r++) {
            if (r < 0) continue;
            // Storm streaks drift a column right every three rows, so their tails lie up and left.
            const tx = name === "storm" ? x - (Math.floor(y / 3) - Math.floor(r / 3)) : x;
            if (tx >= 0) assert.is(d.get(key(tx, r)), c.tail, name + " at " + t + ": tail of " + k + " at " + tx + "," + r);
          }
        }
      }
      assert.ok(heads > 0, name + " at " + t);
    }
  }
});

test("how much falls: rain wets about a third of the columns, drizzle is sparse, storm is dense", () => {
  const wet: { [name: string]: number } = {};
  for (const name of ["rain", "drizzle", "storm", "snow"]) {
    let sum = 0;
    const n = 60;
    for (let i = 0; i < n; i++) {
      const columns = new Set([...drawn(name, 1000 + i * 1733).keys()].map((k) => xy(k)[0]));
      sum += columns.size;
    }
    wet[name] = sum / n / W;
  }
  assert.ok(wet.rain > 0.22 && wet.rain < 0.45, "rain " + wet.rain);
  assert.ok(wet.drizzle < wet.rain * 0.7, "drizzle " + wet.drizzle);
  assert.ok(wet.storm > wet.rain * 1.3, "storm " + wet.storm);
  assert.ok(wet.snow > 0.1 && wet.snow < 0.45, "snow " + wet.snow);
});

/** Where a pixel drawn at row y is one step later, for each kind of fall (snow: plumb here; it may also rock a column). */
function below(name: string, x: number, y: number): [number, number] {
  if (name === "storm" || name === "thunder") return [x + ((y + 1) % 3 === 0 ? 1 : 0), y + 1];
  return [x, y + 1];
}

test("base rates: within a step nothing moves; after 1000/rate ms every drop is one row lower", () => {
  for (const name of Object.keys(FALLING)) {
    const step = 1000 / FALLING[name];
    for (const n of [3, 250, 99991]) {
      const t = (n + 0.5) * step;
      if (name === "thunder" && (flashing(t) || flashing(t + step))) continue;
      const a = drawn(name, t);
      assert.equal(drawn(name, t + 0.4 * step), a, name + " holds still within a step");
      assert.equal(drawn(name, t - 0.45 * step), a, name + " holds still within a step");
      const b = drawn(name, t + step);
      assert.not.equal(b, a, name + " moves after a step");
      let moved = 0;
      let rocked = 0;
      for (const [k, colour] of a) {
        const [x, y] = xy(k);
        if (y === H - 1) continue;
        const [bx, by] = below(name, x, y);
        if (bx >= W) continue;
        if (name === "snow") {
          // A flake rocks at most one column aside as it falls.
          const landed = [bx - 1, bx, bx + 1].filter((sx) => b.get(key(sx, by)) === colour);
          // At either edge it may rock off the panel.
          if (landed.length === 0 && (x === 0 || x === W - 1)) continue;
          assert.ok(landed.length > 0, name + " at " + t + ": flake at " + k + " fell");
          if (b.get(key(bx, by)) !== colour) rocked++;
        } else {
          assert.is(b.get(key(bx, by)), colour, name + " at " + t + ": " + k + " one row lower");
        }
        moved++;
      }
      // And nothing in the lower rows appeared from nowhere.
      for (const [k, colour] of b) {
        const [x, y] = xy(k);
        if (y === 0) continue;
        const from = [...a].filter(([ak, ac]) => {
          const [ax, ay] = xy(ak);
          if (ac !== colour || ay !== y - 1) return false;
          const [bx] = below(name, ax, ay);
          return name === "snow" ? Math.abs(bx - x) <= 1 : bx === x;
        });
        // A slanted streak can enter at the left edge from a column off the panel, a flake at either edge.
        if (from.length === 0 && (x === 0 || (name === "snow" && x === W - 1)) && name !== "rain" && name !== "drizzle") continue;
        assert.ok(from.length > 0, name + " at " + (t + step) + ": " + k + " came from the row above");
      }
      assert.ok(moved > 0, name + " at " + t + " has drops above the bottom row");
      if (name !== "snow") assert.is(rocked, 0);
    }
  }
});

test("snow rocks sideways as it falls", () => {
  const step = 1000 / FALLING.snow;
  let rocked = 0;
  for (let n = 0; n < 40; n++) {
    const a = drawn("snow", (n + 0.5) * step);
    const b = drawn("snow", (n + 1.5) * step);
    for (const [k, colour] of a) {
      const [x, y] = xy(k);
      if (y < H - 1 && b.get(key(x, y + 1)) !== colour) rocked++;
    }
  }
  assert.ok(rocked > 10, "flakes that changed column: " + rocked);
});

test("a palette recolours all six: the same pixels, in the palette's colour", () => {
  const magenta = 0xff00ff;
  for (const name of Object.keys(COLOURS)) {
    for (const t of MOMENTS) {
      const stock = drawn(name, t);
      const given = drawn(name, t, [magenta]);
      assert.equal([...given.keys()].sort(), [...stock.keys()].sort(), name + " at " + t);
      for (const [k, colour] of given) assert.is(colour, magenta, name + " at " + t + ": " + k);
    }
  }
  // Two colours: the heads and the tails take different places of the palette.
  const two = drawn("rain", MOMENTS[0], [0x00ffff, 0xffff00]);
  assert.ok(new Set(two.values()).size > 1);
});

test("each frame is a function of t alone: one instance drawn in any order gives what fresh ones give", () => {
  for (const name of Object.keys(COLOURS)) {
    const mod = overlay(name);
    const effect = mod.make(W, H);
    for (const t of [5000, 100, 77777, 100, 123456789, 5000, 5066]) {
      const g = Graphics.createArrayBuffer(W, H, 24) as unknown as Graphics;
      under(g);
      effect.draw(g, t, inkFor(mod, g));
      const fresh = drawAt(mod, t, { under });
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) assert.is(g.getPixel(x, y), fresh[y][x], name + " at " + t);
    }
  }
});

test("frames one after another, as a page draws them (a step on, a few, a jump), are the frames drawn fresh, on pages of other sizes too", () => {
  // Gaps of 25 ms (frames at 40 a second), a few steps, and a jump of seconds, over twenty seconds:
  // long enough for every overlay to come back to coding its drops from scratch on its own.
  const gaps = [25, 25, 25, 25, 25, 25, 25, 137, 25, 25, 25, 311, 25, 25, 25, 25, 2050, 25];
  for (const [w, h] of [[W, H], [64, 8], [31, 8], [16, 16]]) {
    const page = (g: Graphics) => {
      g.setColor(0x301020);
      g.fillRect(0, 0, w - 1, h - 1);
    };
    for (const name of Object.keys(COLOURS)) {
      const mod = overlay(name);
      const effect = mod.make(w, h);
      const g = Graphics.createArrayBuffer(w, h, 24) as unknown as Graphics;
      const ink = inkFor(mod, g);
      let t = 0;
      for (let n = 0; t < 20000; n++) {
        page(g);
        effect.draw(g, t, ink);
        if (n % 5 === 0) {
          const fresh = drawAt(mod, t, { under: page, w, h });
          for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) assert.is(g.getPixel(x, y), fresh[y][x], name + " " + w + "x" + h + " at " + t);
        }
        t += gaps[n % gaps.length];
      }
      const d = drawAt(mod, 9876, { under: page, w, h });
      assert.ok(d.some((row) => row.some((c) => c !== 0x301020)), name + " " + w + "x" + h + " draws something");
    }
  }
});

test("an overlay leaves the page's Graphics with its built-in font, not the overlay's glyphs", () => {
  const text = (g: Graphics) => {
    g.setColor(0xffffff);
    g.drawString("Ab3", 1, 1);
  };
  const plain = Graphics.createArrayBuffer(W, H, 24) as unknown as Graphics;
  text(plain);
  for (const name of Object.keys(COLOURS)) {
    const mod = overlay(name);
    const g = Graphics.createArrayBuffer(W, H, 24) as unknown as Graphics;
    mod.make(W, H).draw(g, 5000, inkFor(mod, g));
    g.setColor(0);
    g.fillRect(0, 0, W - 1, H - 1);
    text(g);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) assert.is(g.getPixel(x, y), plain.getPixel(x, y), name + ": " + x + "," + y);
  }
});

test("the fall never settles into a repeat: no stretch of 400 steps recurs at any lag up to 300 steps", () => {
  for (const name of ["rain", "drizzle", "snow", "storm"]) {
    const step = 1000 / FALLING[name];
    const frames: string[] = [];
    for (let n = 0; n < 700; n++) frames.push(JSON.stringify([...drawn(name, 1e6 + (n + 0.5) * step)]));
    for (let lag = 1; lag <= 300; lag++) {
      let same = 0;
      for (let n = 0; n < 400; n++) if (frames[n] === frames[n + lag]) same++;
      // Drizzle is sparse: now and then two empty moments match, and nothing more.
      assert.ok(same < 20, name + " repeats after " + lag + " steps (" + same + " of 400 frames)");
    }
  }
});

test("frost: a still crust along the top and bottom edges, the same at any t and any speed", () => {
  const first = drawn("frost", 0);
  for (const t of [1, 999, 4321, 86400000, 7e10]) assert.equal(drawn("frost", t), first, "frost at " + t);
  const c = COLOURS.frost;
  const rowCount = new Array(H).fill(0);
  for (const [k, colour] of first) {
    const [, y] = xy(k);
    rowCount[y]++;
    const fromEdge = Math.min(y, H - 1 - y);
    assert.is(colour, [c.head, c.tail, c.dim][fromEdge], "tone of " + k);
  }
  // Mostly covering the edge rows, thinning inwards, irregular, and clear of the middle.
  for (const y of [0, H - 1]) assert.ok(rowCount[y] > W / 2 && rowCount[y] < W, "edge row " + y + ": " + rowCount[y]);
  for (const y of [1, H - 2]) assert.ok(rowCount[y] > 2 && rowCount[y] < rowCount[y === 1 ? 0 : H - 1], "row " + y + ": " + rowCount[y]);
  assert.is(rowCount[3] + rowCount[4], 0);
  // A pixel of crust always has crust between it and its edge.
  for (const k of first.keys()) {
    const [x, y] = xy(k);
    if (y === 1 || y === 2) assert.ok(first.has(key(x, y - 1)), k);
    if (y === H - 2 || y === H - 3) assert.ok(first.has(key(x, y + 1)), k);
  }
  assert.not.equal(drawn("frost", 0), drawn("frost", 0, [0x00ff00]));
});

test("thunder: white flashes at irregular moments a few seconds apart, some of them double", () => {
  // Flashes over ten minutes of thunder, found 5 ms apart.
  const flashes: number[][] = [];
  for (let t = 0; t < 600000; t += 5) {
    if (!flashing(t)) continue;
    const last = flashes[flashes.length - 1];
    if (last && t - last[1] <= 5) last[1] = t;
    else flashes.push([t, t]);
  }
  for (const f of flashes) assert.ok(f[1] - f[0] >= 60 && f[1] - f[0] <= 120, "a flash is brief: " + (f[1] - f[0]));
  // Strikes: flashes less than half a second apart are one strike.
  const strikes: number[][] = [];
  for (const f of flashes) {
    const last = strikes[strikes.length - 1];
    if (last && f[0] - last[last.length - 1] < 500) last.push(f[0]);
    else strikes.push([f[0]]);
  }
  const gaps = strikes.slice(1).map((s, i) => s[0] - strikes[i][0]);
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  assert.ok(mean > 2500 && mean < 7000, "mean gap " + mean);
  assert.ok(Math.max(...gaps) > 2 * Math.min(...gaps), "irregular: " + Math.min(...gaps) + " to " + Math.max(...gaps));
  const doubles = strikes.filter((s) => s.length >= 2).length;
  assert.ok(doubles > strikes.length / 8 && doubles < strikes.length * 0.7, doubles + " doubles of " + strikes.length);

  // Drawn: the whole panel white during a flash, whatever the palette; the page and storm otherwise.
  const during = flashes[3][0] + 20;
  for (const palette of [undefined, [0xff0000]]) {
    const frame = drawAt(overlay("thunder"), during, { under, palette });
    for (const row of frame) for (const p of row) assert.is(p, WHITE);
  }
  const between = flashes[3][1] + 400;
  assert.ok(!flashing(between));
  const d = drawn("thunder", between);
  assert.ok(d.size > 0 && d.size < W * H / 2);
  assert.ok([...d.values()].every((p) => p !== WHITE));
});

test.run();
