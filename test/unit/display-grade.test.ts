import { test } from "uvu";
import * as assert from "uvu/assert";
import { FrameCanvas, Grade, type GradeSettings } from "../../firmware/display/grade";

const PLAIN: GradeSettings = { saturation: 100, gamma: 1, colorCorrection: null, colorTint: null };

function graded(s: Partial<GradeSettings>, brightness = 255, order = "rgb"): Grade {
  const g = new Grade();
  g.configure(Object.assign({}, PLAIN, s), brightness, order);
  return g;
}

test("a fresh Grade is the identity: logical colours, RGB order", () => {
  const g = new Grade();
  for (const c of [0x000000, 0xffffff, 0x123456, 0xff0000, 0x00ff00, 0x0000ff, 0x010203]) {
    assert.is(g.wire(c, 1), c);
  }
  assert.is(g.wire(0x804020, 0.5), 0x402010, "level still dims");
});

test("channel order puts the LED's first channel into the top byte", () => {
  const expect: { [order: string]: number } = {
    rgb: 0x112233, rbg: 0x113322, grb: 0x221133, gbr: 0x223311, brg: 0x331122, bgr: 0x332211,
  };
  for (const order of Object.keys(expect)) {
    assert.is(graded({}, 255, order).wire(0x112233, 1), expect[order], order);
  }
});

test("saturation mixes toward the luma; 100 keeps, 0 is grey", () => {
  assert.is(graded({ saturation: 100 }).wire(0xff0000, 1), 0xff0000);
  assert.is(graded({ saturation: 0 }).wire(0xff0000, 1), 0x4c4c4c, "0.299 x 255 = 76");
  assert.is(graded({ saturation: 0 }).wire(0x00ff00, 1), 0x969696, "0.587 x 255 = 150");
  assert.is(graded({ saturation: 50 }).wire(0xff0000, 1), 0xa62626);
  assert.is(graded({ saturation: 0 }).wire(0x808080, 1), 0x808080, "greys stay");
});

test("colorCorrection and colorTint multiply per channel; null is off", () => {
  assert.is(graded({ colorCorrection: 0xff8040 }).wire(0xffffff, 1), 0xff8040);
  assert.is(graded({ colorTint: 0xff8040 }).wire(0xffffff, 1), 0xff8040);
  assert.is(graded({ colorCorrection: 0xff8040, colorTint: 0x80ff80 }).wire(0xffffff, 1), 0x808020);
  assert.is(graded({ colorCorrection: 0xffff00 }).wire(0x0000ff, 1), 0, "a channel multiplied by 0 is gone");
});

test("gamma: v' = 255 (v/255)^gamma", () => {
  assert.is(graded({ gamma: 2 }).wire(0x808080, 1), 0x404040);
  assert.is(graded({ gamma: 1.9 }).wire(0x808080, 1), 0x454545, "69");
  assert.is(graded({ gamma: 1.9 }).wire(0xff00ff, 1), 0xff00ff, "the ends stay");
  assert.is(graded({ gamma: 0.5 }).wire(0x404040, 1), 0x808080);
});

test("brightness scales by b/255 after gamma", () => {
  assert.is(graded({}, 10).wire(0xffffff, 1), 0x0a0a0a);
  assert.is(graded({}, 128).wire(0xff8000, 1), 0x804000);
  assert.is(graded({ gamma: 1.9 }, 120, "grb").wire(0xff8000, 1), 0x207800);
  assert.is(graded({}, 0).wire(0xffffff, 1), 0, "brightness 0 is dark");
  assert.is(graded({}, 300).wire(0x808080, 1), 0x808080, "clamped to 255");
});

test("order of operations: level before gamma, saturation before correction", () => {
  // Level then gamma: (0.5)^2 of full; gamma then level would give half (0x80).
  assert.is(graded({ gamma: 2 }).wire(0xffffff, 0.5), 0x404040);
  // Desaturate then correct: grey red channel only; the other order would leave grey.
  assert.is(graded({ saturation: 0, colorCorrection: 0xff0000 }).wire(0xff0000, 1), 0x4c0000);
});

test("a colour that is not black stays visible at low brightness", () => {
  const dim = graded({ gamma: 1.9 }, 10);
  assert.is(dim.wire(0xffffff, 1), 0x0a0a0a);
  assert.is(dim.wire(0x404040, 1), 0x010101, "rounds to 1 on its own");
  assert.is(dim.wire(0x202020, 1), 0x010101, "would round to 0: kept at 1");
  assert.is(dim.wire(0x300010, 1), 0x010000, "only the strongest channel lights");
  assert.is(graded({ gamma: 1.9 }, 10, "grb").wire(0x300010, 1), 0x000100, "in the LED's order");
  assert.is(dim.wire(0x300010, 0), 0, "level 0 is black");
  assert.is(dim.wire(0x000000, 1), 0);
  assert.is(graded({ gamma: 1.9 }, 0).wire(0x202020, 1), 0, "brightness 0 stays dark");
  assert.is(graded({ gamma: 1.9, colorCorrection: 0x00ffff }, 10).wire(0x200000, 1), 0, "corrected away");
});

test("level outside 0..1 is clamped", () => {
  const g = new Grade();
  assert.is(g.wire(0x808080, 2), 0x808080);
  assert.is(g.wire(0x808080, -1), 0);
});

test("repeated colours come from the cache; configure invalidates it", () => {
  const g = graded({}, 255);
  assert.is(g.wire(0xff0000, 1), 0xff0000);
  assert.is(g.wire(0xff0000, 1), 0xff0000);
  assert.is(g.wire(0xff0000, 0.5), 0x800000, "another level is another entry");
  g.configure(PLAIN, 255, "grb");
  assert.is(g.wire(0xff0000, 0.5), 0x008000, "new configuration, new result");
  g.configure(PLAIN, 51, "grb");
  assert.is(g.wire(0xff0000, 0.5), 0x001a00);
});

test("FrameCanvas selects the graded colour; level defaults to 1", () => {
  const chosen: number[] = [];
  const fake = { setColor: (c: number) => { chosen.push(c); return fake; }, getWidth: () => 32, getHeight: () => 8 };
  const canvas = new FrameCanvas(fake as unknown as Graphics, graded({}, 255, "grb"));
  assert.is(canvas.width, 32);
  assert.is(canvas.height, 8);
  canvas.color(0xff0000);
  canvas.color(0x0000ff, 0.5);
  assert.equal(chosen, [0x00ff00, 0x000080]);
  const logical = new FrameCanvas(fake as unknown as Graphics, new Grade());
  logical.color(0x123456);
  assert.is(chosen[2], 0x123456);
});

test.run();
