// Nine background effects on the Graphics stand-in, drawn from their modules at fixed moments:
// BrickBreaker, PingPong, Fireworks, Snake, Matrix, SwirlIn, SwirlOut, LookingEyes and
// TwinklingStars. Each is checked pixel by pixel where its picture can be stated exactly (where
// the ball, the snake, the bricks, the dots along the spiral, the eyes are), and by exact
// relations between moments where it comes from random numbers (rain one row further down a step
// later, a ring around the flash, the sky again after its stars' rounds). Also: stock colours
// against a given palette (the fixed-colour effects do not change, the others do), effectSpeed
// scaling the pace, a frame that depends on its moment alone, and pages of other sizes.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { drawAt, inkFor, installEngineHost } from "./effects-support";
import { loadModule } from "../../firmware/platform/modules";
import type { EffectModule } from "../../firmware/effects/types";
import { scaleWire } from "../../firmware/effects/pace";
import { FrameCanvas, Grade } from "../../firmware/display/grade";
import { defaultSettings } from "../../firmware/settings/schema";

const W = 32;
const H = 8;
/** A given palette of four colours far apart. */
const PALETTE = [0xff2000, 0x20ff40, 0x2040ff, 0xf0f0f0];
/** A palette of one colour: every palette position is exactly it. */
const ONE = 0x40a0ff;
const WHITE = 0xffffff;
const FIXED = ["brick-breaker", "ping-pong", "matrix", "looking-eyes"];
const PALETTED = ["fireworks", "snake", "swirl-in", "swirl-out", "twinkling-stars"];
const ALL = FIXED.concat(PALETTED);

let restore: () => void = () => {};
test.before(() => {
  restore = installEngineHost();
});
test.after(() => restore());

type Picture = number[][];
interface Lit { x: number; y: number; c: number }

function effect(name: string): EffectModule {
  return loadModule<EffectModule>("effects/" + name);
}

/** The picture at effect step `s` of an effect whose steps are 100 ms (10 a second). */
function atStep(mod: EffectModule, s: number, palette?: number[]): Picture {
  return drawAt(mod, s * 100, { palette });
}

/** The lit (not black) pixels of a picture, row by row. */
function lit(p: Picture): Lit[] {
  const out: Lit[] = [];
  p.forEach((row, y) => row.forEach((c, x) => {
    if (c) out.push({ x, y, c });
  }));
  return out;
}

/** Asserts every pixel of `p` is `expect(x, y)`, naming the first that is not. */
function assertPicture(p: Picture, expect: (x: number, y: number) => number, label: string): void {
  for (let y = 0; y < p.length; y++) {
    for (let x = 0; x < p[y].length; x++) {
      const want = expect(x, y);
      if (p[y][x] !== want) {
        assert.unreachable(label + ": pixel " + x + "," + y + " is " + p[y][x].toString(16) + ", expected " + want.toString(16));
      }
    }
  }
}

/** Only the given pixels lit, each in its colour. */
function assertOnly(p: Picture, pixels: Lit[], label: string): void {
  const want: { [at: string]: number } = {};
  for (const q of pixels) want[q.x + "," + q.y] = q.c;
  assertPicture(p, (x, y) => want[x + "," + y] || 0, label);
}

/** The pixels of `g`, row by row. */
function atPixels(g: Graphics): Picture {
  const out: Picture = [];
  for (let y = 0; y < H; y++) {
    const row: number[] = [];
    for (let x = 0; x < W; x++) row.push(g.getPixel(x, y));
    out.push(row);
  }
  return out;
}

/** Sum of a colour's channels. */
function weight(c: number): number {
  return ((c >> 16) & 255) + ((c >> 8) & 255) + (c & 255);
}

/** Where something that moves a cell a step and turns at both ends of n cells is after p steps. */
function bounced(p: number, n: number): number {
  const q = p % (2 * (n - 1));
  return q < n ? q : 2 * (n - 1) - q;
}

/** The palette colour of position `pos` of an ink of the module's stock colours or of `palette`. */
function paletteAt(mod: EffectModule, pos: number, palette?: number[]): number {
  return inkFor(mod, Graphics.createArrayBuffer(W, H, 24) as unknown as Graphics, palette).tone(pos);
}

// ---- PingPong --------------------------------------------------------------------------------------

test("PingPong: one white pixel, a pixel across and a pixel down each 100 ms, turning at the edges", () => {
  const mod = effect("ping-pong");
  // Step 0 at the top left; step 10 at 10, 4 (down 7 rows and 3 back up); step 45 at 17, 3
  // (across 31 and 14 back; down and up twice and 3 down).
  for (const [s, x, y] of [[0, 0, 0], [10, 10, 4], [45, 17, 3]]) {
    assertOnly(atStep(mod, s), [{ x, y, c: WHITE }], "step " + s);
  }
  // A diagonal step every step, always on the page.
  let last = lit(atStep(mod, 0))[0];
  for (let s = 1; s < 130; s++) {
    const now = lit(atStep(mod, s));
    assert.is(now.length, 1, "step " + s);
    assert.is(Math.abs(now[0].x - last.x), 1, "across at step " + s);
    assert.is(Math.abs(now[0].y - last.y), 1, "down at step " + s);
    last = now[0];
  }
});

// ---- Snake -----------------------------------------------------------------------------------------

test("Snake: six pixels along the rows, the head a pixel on every 100 ms, wrapping row by row and round the page", () => {
  const mod = effect("snake");
  // [step, cells of the head and the five behind it, as x + 32 y].
  const cases: [number, number[]][] = [
    [0, [0, 255, 254, 253, 252, 251]],
    [35, [35, 34, 33, 32, 31, 30]],
    [600, [88, 87, 86, 85, 84, 83]],
  ];
  for (const [s, cells] of cases) {
    const p = atStep(mod, s);
    const on = lit(p);
    assert.is(on.length, 6, "step " + s);
    for (let k = 0; k < 6; k++) {
      const c = p[Math.floor(cells[k] / W)][cells[k] % W];
      assert.ok(c, "segment " + k + " at step " + s);
      // Each segment dimmer than the one before it.
      if (k) assert.ok(weight(c) < weight(p[Math.floor(cells[k - 1] / W)][cells[k - 1] % W]), "segment " + k + " dimmer, step " + s);
    }
    // The head in the palette's colour 3 positions on per pixel crawled.
    assert.is(p[Math.floor(cells[0] / W)][cells[0] % W], paletteAt(mod, 3 * s), "head colour at step " + s);
  }
  // Stock colours start at red; a palette's start at its first colour.
  assert.is(atStep(mod, 0)[0][0], 0xff0000);
  assert.is(atStep(mod, 0, PALETTE)[0][0], PALETTE[0]);
});

// ---- Fireworks -------------------------------------------------------------------------------------

test("Fireworks: a flash, then a ring a pixel wider every 100 ms around it, fading, and a new burst every 20 steps", () => {
  const mod = effect("fireworks");
  const places: string[] = [];
  const colours: number[] = [];
  for (let n = 0; n < 10; n++) {
    const flash = lit(atStep(mod, 20 * n));
    assert.is(flash.length, 1, "burst " + n + " starts as one pixel");
    const { x: cx, y: cy, c } = flash[0];
    places.push(cx + "," + cy);
    colours.push(c);
    for (const r of [3, 5, 12, 19]) {
      const ring = lit(atStep(mod, 20 * n + r));
      assert.ok(ring.length > 0 || r > 7, "burst " + n + " radius " + r);
      for (const q of ring) {
        assert.ok(Math.abs(Math.hypot(q.x - cx, q.y - cy) - r) < 1, "burst " + n + ": " + q.x + "," + q.y + " off the ring of radius " + r);
        // The flash's colour, faded by r / 20 on the wire.
        assert.is(q.c, scaleWire(c, 1 - r / 20), "burst " + n + " radius " + r + " colour");
      }
      // The ring's ends across, where they are on the page.
      for (const x of [cx - r, cx + r]) if (x >= 0 && x < W) assert.ok(ring.some((q) => q.x === x && q.y === cy), "burst " + n + " end " + x);
    }
  }
  // Random places and colours.
  assert.ok(new Set(places).size >= 6, "places " + places.join(" "));
  assert.ok(new Set(colours).size >= 6, "colours " + colours.map((c) => c.toString(16)).join(" "));
  // Colours from the palette: a palette of one colour makes every flash that colour.
  for (let n = 0; n < 4; n++) assert.equal(lit(atStep(mod, 20 * n, [ONE])).map((q) => q.c), [ONE]);
});

// ---- Swirls ----------------------------------------------------------------------------------------

/** The spiral on a 32x8 page from its outer end inward: the edge with its corners cut, then two pixels in. */
function spiralPath(): [number, number][] {
  const out: [number, number][] = [];
  for (let x = 1; x <= 30; x++) out.push([x, 0]);
  for (let y = 1; y <= 6; y++) out.push([31, y]);
  for (let x = 30; x >= 1; x--) out.push([x, 7]);
  for (let y = 6; y >= 3; y--) out.push([0, y]);
  for (let x = 1; x <= 28; x++) out.push([x, 2]);
  for (let y = 3; y <= 4; y++) out.push([29, y]);
  for (let x = 28; x >= 3; x--) out.push([x, 5]);
  out.push([2, 4]);
  return out;
}

/** The path pixels k with k % 3 === m, as "x,y". */
function dotsAt(m: number): string[] {
  return spiralPath().filter((_, k) => k % 3 === m).map(([x, y]) => x + "," + y).sort();
}

function litPlaces(p: Picture): string[] {
  return lit(p).map((q) => q.x + "," + q.y).sort();
}

test("SwirlIn and SwirlOut: dots three pixels apart along the spiral, a pixel inward (SwirlIn) or outward (SwirlOut) every 100 ms", () => {
  assert.is(spiralPath().length, 127);
  const into = effect("swirl-in");
  const out = effect("swirl-out");
  // [step, which path pixels are dots (k % 3) for SwirlIn, for SwirlOut].
  for (const [s, mIn, mOut] of [[0, 0, 0], [1, 1, 2], [2, 2, 1], [124, 1, 2]]) {
    assert.equal(litPlaces(atStep(into, s)), dotsAt(mIn), "SwirlIn step " + s);
    assert.equal(litPlaces(atStep(out, s)), dotsAt(mOut), "SwirlOut step " + s);
  }
  assert.is(dotsAt(0).length, 43);
  // Colours from the palette: with one colour every dot is it; stock colours are the hue wheel's
  // and a palette's are others.
  for (const mod of [into, out]) {
    for (const s of [0, 7, 50]) {
      assert.equal([...new Set(lit(atStep(mod, s, [ONE])).map((q) => q.c))], [ONE]);
      const stock = lit(atStep(mod, s)).map((q) => q.c);
      const given = lit(atStep(mod, s, PALETTE)).map((q) => q.c);
      assert.ok(new Set(stock).size >= 6, "stock colours at step " + s);
      assert.not.equal(given, stock);
    }
  }
  // The colours travel with the dots: the path is cut into 8 stretches of one colour each
  // (about 16 pixels on this page), and 16 steps on each stretch has the colour the stretch
  // behind it had (inward for SwirlIn, outward for SwirlOut).
  const path = spiralPath();
  const stretchColour = (p: Picture, i: number) => {
    const on = path.filter((_, k) => Math.floor((k * 8) / path.length) === i).map(([x, y]) => p[y][x]).filter((c) => c);
    assert.is(new Set(on).size, 1, "stretch " + i + " has one colour");
    return on[0];
  };
  for (const s of [0, 30, 61]) {
    for (let i = 1; i < 8; i++) {
      assert.is(stretchColour(atStep(into, s + 16), i), stretchColour(atStep(into, s), i - 1), "SwirlIn stretch " + i + " step " + s);
      assert.is(stretchColour(atStep(out, s + 16), i - 1), stretchColour(atStep(out, s), i), "SwirlOut stretch " + i + " step " + s);
    }
  }
});

test("SwirlIn and SwirlOut leave the page's Graphics with its built-in font, not the spiral's glyphs", () => {
  const text = (g: Graphics) => {
    g.setColor(WHITE);
    g.drawString("Ab3", 1, 1);
  };
  const plain = Graphics.createArrayBuffer(W, H, 24) as unknown as Graphics;
  text(plain);
  for (const name of ["swirl-in", "swirl-out"]) {
    const mod = effect(name);
    const g = Graphics.createArrayBuffer(W, H, 24) as unknown as Graphics;
    mod.make(W, H).draw(g, 700, inkFor(mod, g));
    g.setColor(0);
    g.fillRect(0, 0, W - 1, H - 1);
    text(g);
    assertPicture(atPixels(g), (x, y) => plain.getPixel(x, y), name);
  }
});

// ---- Matrix ----------------------------------------------------------------------------------------

test("Matrix: green trails under pale heads, falling a row every 100 ms, the rain coming round every 24 steps", () => {
  const mod = effect("matrix");
  const head = 0xc0ffc0;
  const shades = [1, 0.7, 0.49, 0.343, 0.2401].map((k) => scaleWire(0x00ff30, k));
  for (const s of [0, 1, 37, 1000]) {
    const p = atStep(mod, s);
    const next = atStep(mod, s + 1);
    // One step on, every row is the one above it a step before.
    for (let y = 1; y < H; y++) assert.equal(next[y], p[y - 1], "step " + s + " row " + y);
    assert.equal(atStep(mod, s + 24), p, "step " + s + " again 24 steps on");
    assert.not.equal(atStep(mod, s + 12), p);
    for (const q of lit(p)) {
      assert.ok(q.c === head || shades.indexOf(q.c) >= 0, "colour " + q.c.toString(16));
      if (q.c !== head) continue;
      // Under a head black, above it the brightest shade (trails are at least 3 long).
      if (q.y + 1 < H) assert.is(p[q.y + 1][q.x], 0, "under the head at " + q.x + "," + q.y);
      if (q.y > 0) assert.is(p[q.y - 1][q.x], shades[0], "above the head at " + q.x + "," + q.y);
    }
  }
  // Every column has its drops: within a round each column's head passes the top row.
  const seen = new Set<number>();
  for (let s = 0; s < 24; s++) atStep(mod, s)[0].forEach((c, x) => c === head && seen.add(x));
  assert.is(seen.size, W);
});

// ---- BrickBreaker ----------------------------------------------------------------------------------

/** The bricks' colours by row, the paddle's grey (the ball's white dimmed to 0.4 on the wire). */
const ROWS = [0xff2000, 0xffa000, 0x20d020];
const GREY = 0x666666;

/** BrickBreaker's picture with the bricks `gone` (row * 8 + brick) broken, the ball at bx, by. */
function breakerPicture(gone: number[], bx: number, by: number): (x: number, y: number) => number {
  const paddle = Math.max(0, Math.min(W - 5, bx - 2));
  return (x, y) => {
    if (x === bx && y === by) return WHITE;
    if (y < 3) return x % 4 < 3 && gone.indexOf(y * 8 + (x >> 2)) < 0 ? ROWS[y] : 0;
    if (y === H - 1) return x >= paddle && x < paddle + 5 ? GREY : 0;
    return 0;
  };
}

test("BrickBreaker: three rows of bricks, the ball breaking those it runs into, the paddle under it; a cleared wall starts again", () => {
  const mod = effect("brick-breaker");
  // At the start the ball sits on the paddle in the middle, on its way up and right.
  assertPicture(atStep(mod, 0), breakerPicture([], 16, 6), "step 0");
  // Up and right to 19, 3, where the next step would enter brick 5 of the bottom row (x 20-22):
  // it breaks and the ball turns down; down to the paddle at 22, 6, up again to 25, 3, where it
  // runs into brick 6 (x 24-26) and turns; at step 10 it is at 26, 4.
  assertPicture(atStep(mod, 3), breakerPicture([21], 19, 3), "step 3");
  assertPicture(atStep(mod, 6), breakerPicture([21], 22, 6), "step 6");
  assertPicture(atStep(mod, 10), breakerPicture([21, 22], 26, 4), "step 10");
  // The wall only ever loses bricks, every brick goes, and then the game starts over.
  const start = JSON.stringify(atStep(mod, 0));
  let bricks = 24;
  let cleared = -1;
  let again = -1;
  for (let s = 1; s < 3000 && again < 0; s++) {
    const p = atStep(mod, s);
    if (JSON.stringify(p) === start) again = s;
    else {
      let n = 0;
      for (let y = 0; y < 3; y++) for (let x = 0; x < W; x += 4) if (p[y][x + 1] === ROWS[y]) n++;
      assert.ok(n <= bricks, "a brick came back at step " + s);
      bricks = n;
      if (!n && cleared < 0) cleared = s;
    }
  }
  assert.ok(cleared > 0, "the wall is cleared");
  assert.ok(again > cleared, "the game starts again after it is cleared (cleared " + cleared + ", again " + again + ")");
  assert.equal(atStep(mod, again + 10), atStep(mod, 10));
});

// ---- LookingEyes -----------------------------------------------------------------------------------

const IRIS = 0x2080ff;

/** An open eye's pixel at x, y of its 8x8 cell, looking `dx` across and `dy` down. */
function openEye(x: number, y: number, dx: number, dy: number): number {
  if ((x === 0 || x === 7) && (y === 0 || y === 7)) return 0;
  const ix = x - 2 - dx;
  const iy = y - 2 - dy;
  if (ix >= 0 && ix < 4 && iy >= 0 && iy < 4) return ix >= 1 && ix <= 2 && iy >= 1 && iy <= 2 ? 0 : IRIS;
  return WHITE;
}

/** Where LookingEyes' cells are on a 32x8 page. */
const EYES = [6, 18];

function eyeCell(p: Picture, left: number): number[][] {
  return p.map((row) => row.slice(left, left + 8));
}

test("LookingEyes: two 8x8 eyes that look straight ahead every other glance, glance a pixel a step and blink once in 40 steps", () => {
  const mod = effect("looking-eyes");
  let blinks = 0;
  let closed = 0;
  let last: { dx: number; dy: number } | null = null;
  for (let s = 0; s < 400; s++) {
    const p = atStep(mod, s);
    // Both eyes alike, nothing else lit.
    assert.equal(eyeCell(p, EYES[0]), eyeCell(p, EYES[1]), "step " + s);
    for (const q of lit(p)) assert.ok(EYES.some((e) => q.x >= e && q.x < e + 8), "step " + s + ": " + q.x + "," + q.y);
    const cell = eyeCell(p, EYES[0]);
    // Shut: only the lids' seam, in half-lit white.
    if (cell[2][0] === 0) {
      blinks++;
      closed++;
      assertPicture(cell, (x, y) => (y === 4 && x >= 1 && x <= 6 ? 0x808080 : 0), "shut at step " + s);
      continue;
    }
    // Half shut, the lids over the top two rows and the bottom two; else open. Where are the irises?
    const half = cell[0][3] === 0;
    if (half) blinks++;
    let found: { dx: number; dy: number } | null = null;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -2; dx <= 2; dx++) {
      const eye = [0, 1, 2, 3, 4, 5, 6, 7].map((y) => [0, 1, 2, 3, 4, 5, 6, 7].map((x) => (half && (y < 2 || y > 5) ? 0 : openEye(x, y, dx, dy))));
      if (JSON.stringify(cell) === JSON.stringify(eye)) found = { dx, dy };
    }
    assert.ok(found, "step " + s + ": an eye with its iris somewhere in it");
    const at = found as { dx: number; dy: number };
    // Straight ahead from 2 steps into every even glance of 30 steps (it is at most 2 away).
    if (Math.floor(s / 30) % 2 === 0 && s % 30 >= 2) assert.equal(at, { dx: 0, dy: 0 }, "straight ahead at step " + s);
    if (last) assert.ok(Math.abs(at.dx - last.dx) <= 1 && Math.abs(at.dy - last.dy) <= 1, "a pixel a step at " + s);
    last = at;
  }
  // Ten windows of 40 steps, a blink of 4 steps (2 of them shut) in each.
  assert.is(blinks, 40);
  assert.is(closed, 20);
});

// ---- TwinklingStars --------------------------------------------------------------------------------

test("TwinklingStars: at most 22 stars, each a palette colour halved 0-3 times, the sky repeating after its stars' four rounds of 30 steps", () => {
  const mod = effect("twinkling-stars");
  const halvings = (colours: number[]) => {
    const out: number[] = [];
    for (const c of colours) for (let k = 0; k < 4; k++) out.push((c >> k) & ((255 >> k) * 0x10101));
    return out;
  };
  const palette: number[] = [];
  for (let pos = 0; pos < 256; pos++) palette.push(paletteAt(mod, pos));
  const stock = halvings(palette);
  for (const s of [0, 15, 600]) {
    const p = atStep(mod, s);
    const on = lit(p);
    assert.ok(on.length >= 10 && on.length <= 22, on.length + " stars at step " + s);
    // Each star a colour of the palette, every channel halved as often.
    for (const q of on) assert.ok(stock.indexOf(q.c) >= 0, "step " + s + ": " + q.c.toString(16));
    const one = halvings([ONE]);
    for (const q of lit(atStep(mod, s, [ONE]))) assert.ok(one.indexOf(q.c) >= 0, q.c.toString(16));
    assert.equal(atStep(mod, s + 120), p, "step " + s + " again after 120");
    assert.not.equal(atStep(mod, s + 30), p);
  }
  // A star twinkles: with a palette of one colour, a pixel lit at full brightness was dimmer
  // (or dark) 10 steps before, or will be 10 steps after (each is full for only a third of its cycle).
  for (const s of [3, 40, 77]) {
    // (10 steps before step 3 is 110 steps after it: the sky repeats every 120.)
    const before = atStep(mod, s < 10 ? s + 110 : s - 10, [ONE]);
    const after = atStep(mod, s + 10, [ONE]);
    const full = lit(atStep(mod, s, [ONE])).filter((q) => q.c === ONE);
    assert.ok(full.length > 0, "stars at full brightness at step " + s);
    for (const q of full) assert.ok(before[q.y][q.x] !== ONE || after[q.y][q.x] !== ONE, "star at " + q.x + "," + q.y + " step " + s);
  }
});

// ---- All nine --------------------------------------------------------------------------------------

/** Moments drawn in the checks below (ms): the start, within the first seconds, much later. */
const MOMENTS = [0, 1730, 46250, 123456];

test("the fixed-colour effects draw the same with a palette; the others take the palette's colours", () => {
  for (const name of FIXED) {
    const mod = effect(name);
    for (const t of MOMENTS) {
      assert.equal(drawAt(mod, t, { palette: PALETTE }), drawAt(mod, t), name + " at " + t);
      assert.equal(drawAt(mod, t, { palette: PALETTE, blend: false }), drawAt(mod, t), name + " at " + t + " in bands");
    }
  }
  for (const name of PALETTED) {
    const mod = effect(name);
    assert.ok(MOMENTS.every((t) => JSON.stringify(drawAt(mod, t, { palette: PALETTE })) !== JSON.stringify(drawAt(mod, t))), name);
    // The palette's own colours: with one colour, every lit pixel is it or it dimmed.
    for (const t of MOMENTS) {
      for (const q of lit(drawAt(mod, t, { palette: [ONE] }))) {
        const k = (q.c & 255) / 255;
        assert.ok(Math.abs(((q.c >> 16) & 255) - 0x40 * k) <= 1.5 && Math.abs(((q.c >> 8) & 255) - 0xa0 * k) <= 1.5, name + ": " + q.c.toString(16));
      }
    }
  }
});

test("every effect: effectSpeed scales its pace (speed x for e ms on screen draws what speed 1 draws after x e)", () => {
  // The page hands an effect its time on screen multiplied by the speed.
  const atSpeed = (mod: EffectModule, speed: number, elapsed: number) => drawAt(mod, elapsed * speed);
  for (const name of ALL) {
    const mod = effect(name);
    for (const [speed, elapsed] of [[2, 615], [0.5, 2460], [10, 123], [0.1, 12300]]) {
      assert.equal(atSpeed(mod, speed, elapsed), atSpeed(mod, 1, speed * elapsed), name + " speed " + speed);
    }
    // Base rate: ten steps a second. A step is 100 ms at speed 1 and 50 ms at speed 2.
    assert.equal(atSpeed(mod, 2, 50 * 7), atStep(mod, 7), name);
    assert.not.equal(atSpeed(mod, 2, 1000), atSpeed(mod, 1, 1000), name + " moves");
  }
});

test("every effect: a frame depends on its moment alone (one effect drawing moments in any order draws each as a fresh one does)", () => {
  const order = [0, 5000, 300, 123456, 100, 77777, 31500, 0, 2600, 2500];
  for (const name of ALL) {
    const mod = effect(name);
    for (const palette of [undefined, PALETTE]) {
      const g = Graphics.createArrayBuffer(W, H, 24) as unknown as Graphics;
      const ink = inkFor(mod, g, palette);
      const fx = mod.make(W, H);
      for (const t of order) {
        fx.draw(g, t, ink);
        const got: Picture = [];
        for (let y = 0; y < H; y++) {
          const row: number[] = [];
          for (let x = 0; x < W; x++) row.push(g.getPixel(x, y));
          got.push(row);
        }
        assert.equal(got, drawAt(mod, t, { palette }), name + " at " + t + (palette ? " with a palette" : ""));
      }
    }
  }
});

test("every effect: graded anew between two frames of one moment (as a page does when the grading changes), the second frame is in the new colours", () => {
  // A dimmer grading than the stock one, with the channels in another order.
  const dim = new Grade();
  dim.configure(defaultSettings(), 90, "grb");
  for (const name of ALL) {
    const mod = effect(name);
    for (const palette of [undefined, PALETTE]) {
      for (const t of [0, 1730, 46250]) {
        const g = Graphics.createArrayBuffer(W, H, 24) as unknown as Graphics;
        const ink = inkFor(mod, g, palette);
        const fx = mod.make(W, H);
        fx.draw(g, t, ink);
        ink.grade(new FrameCanvas(g, dim));
        fx.draw(g, t, ink);
        const fresh = Graphics.createArrayBuffer(W, H, 24) as unknown as Graphics;
        const freshInk = inkFor(mod, fresh, palette);
        freshInk.grade(new FrameCanvas(fresh, dim));
        mod.make(W, H).draw(fresh, t, freshInk);
        let lit = 0;
        for (let y = 0; y < H; y++) {
          for (let x = 0; x < W; x++) {
            assert.is(g.getPixel(x, y), fresh.getPixel(x, y), name + " at " + t + ": " + x + "," + y);
            if (fresh.getPixel(x, y)) lit++;
          }
        }
        assert.ok(lit > 0, name + " at " + t + " draws something");
      }
    }
  }
});

test("every effect on pages of other sizes: it paints the whole page, and something moves", () => {
  const MARK = 0x010203;
  const under = (g: Graphics) => {
    g.setColor(MARK);
    g.fillRect(0, 0, g.getWidth() - 1, g.getHeight() - 1);
  };
  for (const name of ALL) {
    const mod = effect(name);
    for (const [w, h] of [[31, 8], [64, 8], [16, 16], [5, 3], [1, 1]]) {
      const pictures: string[] = [];
      for (const t of [0, 700, 4300, 99900]) {
        const p = drawAt(mod, t, { w, h, under });
        for (const row of p) assert.ok(row.indexOf(MARK) < 0, name + " " + w + "x" + h + " at " + t + " leaves the page under it");
        pictures.push(JSON.stringify(p));
      }
      if (w * h > 8) assert.ok(new Set(pictures).size > 1, name + " " + w + "x" + h + " stands still");
    }
  }
});

test.run();
