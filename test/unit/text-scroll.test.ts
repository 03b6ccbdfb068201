import { test } from "uvu";
import * as assert from "uvu/assert";
import { ScrollTrack } from "../../firmware/text/scroll";
import type { ScrollSpec } from "../../firmware/text/scroll-spec";

// At speed 100 the text moves 21 px/s: pixel n is reached at n / 0.021 ms.
const SPEC: ScrollSpec = { mode: "wrap", direction: "left", entry: "inline", whenFits: "static", speed: 100, gap: 8, holdMs: 1000 };

function track(spec: Partial<ScrollSpec>, textWidth: number, areaX = 0, areaWidth = 32, offsetX = 0, center = true): ScrollTrack {
  const t = new ScrollTrack();
  t.setup(Object.assign({}, SPEC, spec), textWidth, areaX, areaWidth, offsetX, center);
  return t;
}

/** x at each of the given times. */
const xs = (t: ScrollTrack, times: number[]) => times.map((ms) => t.copyX(ms, 0));
/** All copies at one moment, left to right. */
function copies(t: ScrollTrack, ms: number): number[] {
  const out: number[] = [];
  for (let n = 0; n < 10; n++) {
    const x = t.copyX(ms, n);
    if (x !== x) break;
    out.push(x);
  }
  return out;
}

test("text that fits stands still, centered in its area, plus textOffsetX", () => {
  const t = track({}, 20);
  assert.equal(xs(t, [0, 1000, 5000, 60000]), [6, 6, 6, 6]);
  assert.is(t.moves, false);
  assert.is(t.passes(60000), 0);
  assert.equal(copies(t, 3000), [6]);
  assert.is(track({}, 20, 0, 32, 0, false).copyX(3000, 0), 0, "not centered: the area's left edge");
  assert.is(track({}, 20, 0, 32, 3, false).copyX(3000, 0), 3);
  assert.is(track({}, 20, 0, 32, -2).copyX(3000, 0), 4);
  assert.is(track({}, 11, 9, 23).copyX(3000, 0), 15, "centered right of the icon column");
  assert.is(track({}, 11, 9, 23, 0, false).copyX(3000, 0), 9);
  assert.is(track({}, 21).copyX(0, 0), 5, "odd spare width rounds left");
  assert.is(track({}, 32).copyX(3000, 0), 0, "exactly as wide as the area fits");
  for (const mode of ["wrap", "loop", "bounce"] as const) {
    for (const direction of ["left", "right"] as const) {
      assert.is(track({ mode, direction, entry: "offscreen" }, 20).copyX(2500, 0), 6, mode + " " + direction);
    }
  }
});

test("static mode never moves; overflow starts at the area's edge and is clipped", () => {
  const t = track({ mode: "static" }, 50);
  assert.equal(xs(t, [0, 1500, 9000]), [0, 0, 0]);
  assert.is(t.moves, false);
  assert.is(t.passes(100000), 0);
  assert.is(track({ mode: "static" }, 50, 9, 23, 2).copyX(5000, 0), 11);
  assert.is(track({ mode: "static", direction: "right", entry: "offscreen" }, 50).copyX(5000, 0), 0, "direction and entry ignored");
  assert.is(track({ mode: "static", whenFits: "scroll" }, 20).copyX(5000, 0), 6);
});

test("wrap, left, inline: hold, run off the left edge, jump back, hold again", () => {
  const t = track({}, 50);
  assert.is(t.moves, true);
  assert.equal(xs(t, [0, 999, 1000, 1047, 1048, 2000]), [0, 0, 0, 0, -1, -21]);
  // 50 px take 2380.95 ms: the run ends at 3380.95 ms.
  assert.equal(xs(t, [3380, 3381, 4380, 4381, 4429]), [-49, 0, 0, 0, -1]);
  assert.equal([t.passes(0), t.passes(3380), t.passes(3381), t.passes(6761), t.passes(6762)], [0, 0, 1, 1, 2]);
  assert.equal(copies(t, 2000), [-21], "one copy only");
});

test("wrap, left, offscreen: enters from past the right edge with no hold, on every cycle", () => {
  const t = track({ entry: "offscreen" }, 50);
  // 82 px (32 + 50) per run: 3904.76 ms.
  assert.equal(xs(t, [0, 47, 48, 1000, 3904, 3905, 4905]), [32, 32, 31, 11, -49, 32, 11]);
  assert.equal([t.passes(3904), t.passes(3905), t.passes(7809), t.passes(7810)], [0, 1, 1, 2]);
});

test("wrap, right: the geometry mirrors (rest flush right, exit off the right edge)", () => {
  const t = track({ direction: "right" }, 50);
  assert.equal(xs(t, [0, 1000, 1048, 2000, 3380, 3381]), [-18, -18, -17, 3, 31, -18]);
  const off = track({ direction: "right", entry: "offscreen" }, 50);
  assert.equal(xs(off, [0, 1000, 3904, 3905]), [-50, -29, 31, -50]);
  // With an icon the area starts at 9: rest flush right, entry just past the area's left edge.
  assert.is(track({ direction: "right" }, 50, 9, 23).copyX(0, 0), -18);
  assert.is(track({ direction: "right", entry: "offscreen" }, 50, 9, 23).copyX(0, 0), -41);
  assert.is(track({ direction: "left" }, 50, 9, 23).copyX(0, 0), 9);
  assert.is(track({ direction: "left", entry: "offscreen" }, 50, 9, 23).copyX(0, 0), 32);
});

test("whenFits scroll moves short text too", () => {
  const t = track({ whenFits: "scroll" }, 20);
  assert.is(t.moves, true);
  // Rests at the left edge (not centered), then runs 20 px off: 952.38 ms.
  assert.equal(xs(t, [0, 1000, 1500, 1952, 1953]), [0, 0, -10, -19, 0]);
  assert.is(t.passes(1953), 1);
  const right = track({ whenFits: "scroll", direction: "right", entry: "offscreen" }, 20);
  // From x = -20 across the panel to 32: 52 px.
  assert.equal(xs(right, [0, 1000, 2476, 2477]), [-20, 1, 31, -20]);
});

test("textOffsetX shifts every anchor and lengthens each run by as many pixels", () => {
  const t = track({}, 50, 0, 32, 4);
  // 54 px per run: hold + 2571.43 ms.
  assert.equal(xs(t, [0, 1000, 2000, 3571, 3572]), [4, 4, -17, -49, 4]);
  assert.equal([t.passes(3571), t.passes(3572)], [0, 1]);
  const off = track({ entry: "offscreen" }, 50, 0, 32, 4);
  // From 36 to -50: 86 px, 4095.24 ms.
  assert.equal(xs(off, [0, 4095, 4096]), [36, -49, 36]);
  const right = track({ direction: "right" }, 50, 0, 32, 4);
  assert.equal(xs(right, [0, 3571, 3572]), [-22, 31, -22], "mirrored: rests 4 px short of the right edge");
});

test("loop, left, inline: a marquee of copies `gap` apart, holding only at the start", () => {
  const t = track({ mode: "loop" }, 50);
  assert.equal(copies(t, 0), [0]);
  assert.equal(copies(t, 999), [0]);
  // After 30 px the next copy enters 58 px (50 + gap 8) behind the first.
  assert.equal(copies(t, 2429), [-30, 28]);
  // The first copy has gone at 50 px; the second carries on.
  assert.equal(copies(t, 3381), [8]);
  // One fold = 58 px (3761.9 ms); the picture repeats with no further hold.
  assert.equal(copies(t, 3762), [0]);
  assert.equal(copies(t, 3810), [-1]);
  assert.equal(copies(t, 3762 + 1429), [-30, 28]);
  assert.equal([t.passes(0), t.passes(3761), t.passes(3762), t.passes(6523), t.passes(6524)], [0, 0, 1, 1, 2]);
  assert.is(t.copyX(2429, 0), -30);
  assert.is(t.period, 58);
});

test("loop with short text fills the area with as many copies as are visible", () => {
  const t = track({ mode: "loop", whenFits: "scroll" }, 10);
  assert.is(t.period, 18);
  assert.equal(copies(t, 0), [0, 18]);
  assert.equal(copies(t, 1239), [-5, 13, 31]);
  assert.equal(copies(t, 1000 + 10 / 0.021 + 1), [8, 26]);
  const right = track({ mode: "loop", whenFits: "scroll", direction: "right" }, 10);
  assert.equal(copies(right, 0), [4, 22]);
  assert.equal(copies(right, 1239), [-9, 9, 27]);
  const gapless = track({ mode: "loop", whenFits: "scroll", gap: 0 }, 10);
  assert.equal(copies(gapless, 0), [0, 10, 20, 30]);
});

test("loop, right: the chain trails to the left of the first copy", () => {
  const t = track({ mode: "loop", direction: "right" }, 50);
  assert.equal(copies(t, 0), [-18]);
  assert.equal(copies(t, 2429), [-46, 12]);
  assert.equal(copies(t, 3381), [-26]);
});

test("loop, offscreen: starts past the edge, no copy ahead of the first, folds after arriving", () => {
  const t = track({ mode: "loop", entry: "offscreen" }, 50);
  assert.equal(copies(t, 0), [32]);
  assert.equal(copies(t, 1000), [11]);
  // 30 px past the rest position (62 px travelled: 2952.38 ms).
  assert.equal(copies(t, 2953), [-30, 28]);
  // The first fold ends after 32 + 58 = 90 px (4285.71 ms).
  assert.equal([t.passes(4285), t.passes(4286)], [0, 1]);
  const right = track({ mode: "loop", entry: "offscreen", direction: "right", whenFits: "scroll", gap: 4 }, 10);
  // Enters from x = -10 moving right; the next copy follows 14 px behind it, none is ahead.
  assert.equal(copies(right, 0), [-10]);
  assert.equal(copies(right, 524), [1]);
  assert.equal(copies(right, 1000), [-3, 11]);
});

test("loop with textOffsetX: the period grows by the offset", () => {
  const t = track({ mode: "loop" }, 50, 0, 32, 4);
  assert.is(t.period, 62);
  assert.equal(copies(t, 0), [4]);
  assert.equal(copies(t, 1000 + 40 / 0.021 + 1), [-36, 26]);
  // One fold is 62 px: 2952.38 ms after the hold.
  assert.equal([t.passes(3952), t.passes(3953)], [0, 1]);
});

test("bounce, left, inline: sweep to flush with the far edge and back, holding at both ends", () => {
  const t = track({ mode: "bounce" }, 50);
  // 18 px per leg (857.14 ms), 1000 ms at each end: a round trip of 3714.29 ms.
  assert.equal(xs(t, [0, 999, 1000, 1500, 1857, 1858, 2857, 2858, 3358, 3714, 3715, 4714, 5215]),
    [0, 0, 0, -10, -17, -18, -18, -18, -8, -1, 0, 0, -10]);
  assert.equal([t.passes(3714), t.passes(3715), t.passes(7428), t.passes(7429)], [0, 1, 1, 2]);
  assert.equal(copies(t, 1500), [-10]);
});

test("bounce with fitting text sweeps right to the far edge", () => {
  const t = track({ mode: "bounce", whenFits: "scroll" }, 20);
  // 12 px legs (571.43 ms): a round trip of 3142.86 ms.
  assert.equal(xs(t, [0, 1000, 1200, 1572, 2571, 2800, 3142, 3143, 4500]), [0, 0, 4, 12, 12, 8, 1, 0, 7]);
  assert.equal([t.passes(3142), t.passes(3143)], [0, 1]);
  const right = track({ mode: "bounce", whenFits: "scroll", direction: "right" }, 20);
  assert.equal(xs(right, [0, 1200, 1572]), [12, 8, 0]);
});

test("bounce, offscreen: only the first leg comes from outside", () => {
  const t = track({ mode: "bounce", entry: "offscreen" }, 50);
  // 50 px from 32 to the far turning point (-18): 2380.95 ms, no hold first.
  assert.equal(xs(t, [0, 1000, 2380, 2381, 3380, 3381, 3881, 4238, 4239, 5238, 5739]),
    [32, 11, -17, -18, -18, -18, -8, -1, 0, 0, -10]);
  assert.equal([t.passes(2381), t.passes(4238), t.passes(4239), t.passes(7952), t.passes(7953)], [0, 0, 1, 1, 2]);
  const right = track({ mode: "bounce", entry: "offscreen", direction: "right" }, 50);
  assert.equal(xs(right, [0, 1000, 2381, 3881, 4239]), [-50, -29, 0, -10, -18]);
});

test("bounce with textOffsetX and with holdMs 0", () => {
  const off = track({ mode: "bounce" }, 50, 0, 32, 4);
  // Near end at 4, far end still flush (-18): 22 px legs (1047.62 ms).
  assert.equal(xs(off, [0, 1000, 2047, 2048, 3048, 3049]), [4, 4, -17, -18, -18, -18]);
  const quick = track({ mode: "bounce", holdMs: 0 }, 50);
  assert.equal(xs(quick, [0, 1, 48, 857, 858, 900, 906, 1714, 1715, 1763]), [0, 0, -1, -17, -18, -18, -17, -1, 0, -1]);
  assert.equal([quick.passes(1714), quick.passes(1715)], [0, 1]);
});

test("speed 0 freezes the text where it starts; nothing counts as a pass", () => {
  for (const mode of ["wrap", "loop", "bounce"] as const) {
    const inline = track({ mode, speed: 0 }, 50);
    assert.equal(xs(inline, [0, 1000, 5000, 1e7]), [0, 0, 0, 0], mode);
    assert.is(inline.moves, false);
    assert.is(inline.passes(1e7), 0);
    const off = track({ mode, speed: 0, entry: "offscreen" }, 50);
    assert.equal(xs(off, [0, 5000, 1e7]), [32, 32, 32], mode + " offscreen");
    const right = track({ mode, speed: 0, direction: "right" }, 50);
    assert.equal(xs(right, [0, 5000]), [-18, -18], mode + " right");
  }
  assert.equal(copies(track({ mode: "loop", speed: 0, whenFits: "scroll" }, 10), 99999), [0, 18]);
});

test("speed 200 doubles the rate; holds keep their length", () => {
  const t = track({ speed: 200 }, 50);
  assert.equal(xs(t, [999, 1000, 1023, 1024, 1500]), [0, 0, 0, -1, -21]);
  // 50 px at 42 px/s: 1190.48 ms after the hold.
  assert.equal([t.passes(2190), t.passes(2191)], [0, 1]);
  assert.is(t.copyX(2191, 0), 0);
  const slow = track({ speed: 50 }, 50);
  assert.is(slow.copyX(2000, 0), -10);
});

test("positions are integers, move at most one pixel between close frames, and ignore call order", () => {
  for (const mode of ["wrap", "loop", "bounce"] as const) {
    const t = track({ mode, holdMs: 300 }, 47, 9, 23, 3);
    let prev = t.copyX(0, 0);
    for (let ms = 7; ms < 20000; ms += 7) {
      const x = t.copyX(ms, 0);
      assert.ok(Number.isInteger(x), mode + " " + ms);
      if (mode === "bounce" || mode === "loop") assert.ok(Math.abs(x - prev) <= 1 || (mode === "loop" && x - prev === t.period - 1), mode + " " + ms);
      prev = x;
    }
    const later = t.copyX(12345, 0);
    t.copyX(3, 0);
    assert.is(t.copyX(12345, 0), later);
  }
  assert.is(track({}, 50).copyX(-500, 0), 0, "before the start counts as the start");
});

test("setup again replaces the whole motion", () => {
  const t = new ScrollTrack();
  t.setup(Object.assign({}, SPEC, { mode: "loop" }), 50, 0, 32, 0, true);
  assert.is(t.period, 58);
  t.setup(Object.assign({}, SPEC, { mode: "static" }), 50, 0, 32, 0, true);
  assert.is(t.period, 0);
  assert.is(t.moves, false);
  assert.equal(copies(t, 5000), [0]);
  t.setup(Object.assign({}, SPEC, { direction: "right" }), 50, 0, 32, 0, true);
  assert.is(t.copyX(0, 0), -18);
  t.setup(SPEC, 20, 0, 32, 0, true);
  assert.is(t.copyX(5000, 0), 6, "fitting text is not mirrored");
});

test.run();
