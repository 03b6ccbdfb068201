// What a payload page draws besides its text and decorations: the background effect under it, its
// own overlay over it, text, charts and the progress bar painted from the app's palette; each
// drawn whole and through the engine's still/moving split, pixel for pixel the same.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkPayloads } from "../../firmware/payload/check";
import { isFailure } from "../../firmware/core/failure";
import type { PayloadPage } from "../../firmware/payload/stored";
import makePage from "../../firmware/payload/page.mod";
import { textKit } from "../../firmware/apps/text-kit";
import { defaultSettings } from "../../firmware/settings/schema";
import { loadModule } from "../../firmware/platform/modules";
import type { EffectModule } from "../../firmware/effects/types";
import { blankGraphics, countColor, frameContext, frameOf, localTime, renderApp, ungradedCanvas } from "../harness/frame-fixture";
import type { Frame } from "../harness/frame-fixture";
import { drawAt, installEngineHost } from "./effects-support";
import { paletteInk } from "../../firmware/palette/resolve";
import { STEPS } from "../../firmware/effects/types";
import { fontFiles, serveStorage, storageOf } from "./text-support";
import { makeGif } from "./icons-support";

const RED = 0xff0000;
const GREEN = 0x00ff00;
const BLUE = 0x0000ff;

/** A GIF of `w` x 8 whose frames are each one colour, shown for `delayCs` centiseconds. */
function gif(w: number, colors: number[], delayCs = 20): string {
  const frames = colors.map((_, i) => ({ w, h: 8, pixels: new Array(w * 8).fill(i), delay: delayCs }));
  const palette = colors.concat([0, 0, 0, 0]).slice(0, colors.length <= 2 ? 2 : 4);
  return makeGif({ width: w, height: 8, palette, frames }).toString("latin1");
}

let restore = () => undefined as void;
test.before(() => {
  const unhost = installEngineHost();
  const files = Object.assign(fontFiles(), {
    "I/anim.gif": gif(8, [RED, GREEN, BLUE]),
    "I/still.gif": gif(8, [GREEN]),
    "I/wide.gif": gif(32, [BLUE, RED]),
  });
  const unserve = serveStorage(storageOf(files));
  restore = () => {
    unserve();
    unhost();
  };
});
test.after(() => restore());

const NOW = localTime(2026, 3, 10, 9, 5, 7);

function page(body: unknown): PayloadPage {
  const r = checkPayloads([body], false);
  const p = Array.isArray(r) ? r[0] : r;
  if (isFailure(p)) throw new Error("refused: " + JSON.stringify(p));
  return makePage(p, { text: textKit(), width: 32 });
}

function whole(pg: PayloadPage, shownMs: number): Frame {
  return renderApp(pg, { local: NOW, settings: defaultSettings(), shownMs });
}

/** As the engine draws it: the still part into a slot, copied into the frame, the moving part over it. */
function cached(pg: PayloadPage, shownMs: number, grading = 1): Frame {
  const ctx = frameContext({ local: NOW, settings: defaultSettings(), shownMs });
  ctx.grading = grading;
  const slot = blankGraphics();
  const out = blankGraphics();
  pg.drawStill!(ungradedCanvas(slot), ctx);
  out.drawImage({ width: 32, height: 8, bpp: 24, buffer: slot.buffer }, 0, 0);
  pg.drawMoving!(ungradedCanvas(out), ctx);
  return frameOf(out);
}

function effect(name: string): EffectModule {
  return loadModule<EffectModule>(name);
}

/** Pixels of `f` at the places where `mask` is 0 (nothing of the page's own there). */
function outside(f: Frame, mask: Frame): number[] {
  return f.pixels.filter((_, i) => mask.pixels[i] === 0);
}

test("an effect paints the background: where the text is not, the frame is the effect at the time on screen", () => {
  const text = whole(page({ text: "HI" }), 0);
  const pg = page({ text: "HI", effect: "checkerboard" });
  for (const t of [0, 700, 1900]) {
    const alone = drawAt(effect("effects/checkerboard"), t).flat();
    const f = whole(pg, t);
    assert.equal(outside(f, text), alone.filter((_, i) => text.pixels[i] === 0), "at " + t);
    assert.ok(countColor(f, 0xffffff) >= countColor(text, 0xffffff), "the text stays on top");
    assert.equal(cached(pg, t).pixels, f.pixels, "cached equals whole at " + t);
  }
});

test("effectSpeed multiplies the effect's time; an effect replaces backgroundColor", () => {
  const fast = page({ effect: "Plasma", effectSpeed: 2, backgroundColor: "#00FF00" });
  const slow = page({ effect: "Plasma" });
  assert.equal(whole(fast, 600).pixels, whole(slow, 1200).pixels);
  assert.is(countColor(whole(fast, 600), 0x00ff00) < 256, true);
  assert.equal(whole(fast, 600).pixels, drawAt(effect("effects/plasma"), 1200).flat());
});

test("an effect takes the app's palette; an unknown module leaves the plain page", () => {
  const stock = whole(page({ effect: "ColorWaves" }), 500);
  const red = whole(page({ effect: "ColorWaves", palette: ["#FF0000"] }), 500);
  assert.not.equal(stock.pixels, red.pixels);
  assert.is(countColor(red, 0xff0000), 256, "a one-colour palette paints everything in it");
});

test("the page's own overlay goes over text and background, and says so to the engine", () => {
  const plain = page({ text: "HI", backgroundColor: "#000040" });
  const wet = page({ text: "HI", backgroundColor: "#000040", overlay: "rain" });
  assert.is(plain.overlaid ? plain.overlaid() : false, false);
  assert.is(wet.overlaid!(), true);
  for (const t of [0, 400, 1500]) {
    const under = whole(plain, t);
    const expected = drawAt(effect("overlays/rain"), t, {
      under: (g) => g.drawImage({ width: 32, height: 8, bpp: 24, buffer: new Uint8Array(under.pixels.flatMap((p) => [p >> 16, (p >> 8) & 255, p & 255])).buffer }, 0, 0),
    }).flat();
    assert.equal(whole(wet, t).pixels, expected, "at " + t);
    assert.equal(cached(wet, t).pixels, expected, "cached at " + t);
  }
});

test("effectSpeed scales the page's overlay too", () => {
  const a = page({ overlay: "snow", effectSpeed: 3 });
  const b = page({ overlay: "snow" });
  assert.equal(whole(a, 1000).pixels, whole(b, 3000).pixels);
});

test("text painted from the palette: stretched over the text, first colour to last", () => {
  const f = whole(page({ text: "HIHIHI", textColor: "palette", palette: ["#FF0000", "#0000FF"] }), 0);
  let first = -1;
  let last = -1;
  for (let x = 0; x < 32; x++) {
    for (let y = 0; y < 8; y++) {
      if (f.pixels[y * 32 + x] !== 0) {
        if (first < 0) first = x;
        last = x;
      }
    }
  }
  const column = (x: number) => f.pixels.filter((p, i) => i % 32 === x && p !== 0);
  assert.ok(column(first).every((p) => p === 0xff0000), "starts on the first colour");
  assert.ok(column(last).every((p) => p === 0x0000ff), "ends on the last");
  assert.is(countColor(f, 0xffffff), 0);
});

test("paletteSpan repeats the palette every that many columns; paletteSpeed moves it", () => {
  const body = { text: "HIHIHI", textColor: "palette", palette: ["#FF0000", "#00FF00", "#0000FF", "#FFFF00"], paletteBlend: false };
  const span = whole(page(Object.assign({ paletteSpan: 4 }, body)), 0);
  const stretched = whole(page(body), 0);
  const colours = (f: Frame) => new Set(f.pixels.filter((p) => p !== 0)).size;
  assert.ok(colours(span) >= 3);
  assert.not.equal(span.pixels, stretched.pixels);
  const moving = page(Object.assign({ paletteSpan: 8, paletteSpeed: 1 }, body));
  assert.not.equal(whole(moving, 0).pixels, whole(moving, 250).pixels, "moves");
  assert.equal(whole(moving, 0).pixels, whole(moving, 1000).pixels, "one pass a second");
  assert.equal(cached(moving, 250).pixels, whole(moving, 250).pixels);
});

/**
 * paletteSpan and paletteSpeed as documented (reference/payload.md): span pixels a full pass,
 * speed passes a second, so text column k (from the text's left edge) at time t shows palette
 * position frac(k / span - speed * t / 1000). The palette is drawn in STEPS graded steps and which
 * step a position between two of them takes is not specified, so a column may show the step
 * holding its exact position or a neighbour of it (the page rounds the frame's shift to a whole
 * step for all columns at once); it is the same in every row of the column, and repeats exactly
 * every span columns.
 */
test("paletteSpan and paletteSpeed: each column within one step of its exact palette position", () => {
  const colors = ["#FF0000", "#00FF00", "#0000FF", "#FFFF00"];
  const ink = paletteInk([0xff0000, 0x00ff00, 0x0000ff, 0xffff00], true, "");
  const canvas = ungradedCanvas(blankGraphics());
  const stepColor = (p: number) => {
    canvas.color(ink.logical(((p % STEPS) + STEPS) % STEPS));
    return canvas.g.getColor();
  };
  for (const [span, speed] of [[8, 1], [5, 0.37], [13, 2.5], [16, 0]] as [number, number][]) {
    const pg = page({ text: "HIHIHI", textColor: "palette", palette: colors, paletteSpan: span, paletteSpeed: speed });
    for (const t of [0, 40, 275, 1000, 3333, 61234]) {
      const f = whole(pg, t);
      const lit = (x: number) => f.pixels.filter((p, i) => i % 32 === x && p !== 0);
      let left = 0;
      while (left < 32 && !lit(left).length) left++;
      assert.ok(left < 20, "the text is on screen");
      const seen: number[] = [];
      for (let x = left; x < 32; x++) {
        const col = lit(x);
        if (!col.length) continue;
        assert.ok(col.every((p) => p === col[0]), "one colour down column " + x + " at " + t);
        const exact = STEPS * ((((x - left) / span - (speed * t) / 1000) % 1) + 1);
        const step = Math.floor(exact);
        assert.ok([step - 1, step, step + 1].map(stepColor).includes(col[0]),
          "span " + span + " speed " + speed + " at " + t + ": column " + x + " near step " + (step % STEPS));
        seen[x] = col[0];
        if (seen[x - span] !== undefined) assert.is(col[0], seen[x - span], "repeats every span columns");
      }
    }
    assert.equal(cached(pg, 275).pixels, whole(pg, 275).pixels);
  }
});

test("paletteBlend false paints only the palette's own 16 colours", () => {
  const pal = ["#FF0000", "#0000FF"];
  const blended = whole(page({ text: "HIHIHIHI", textColor: "palette", palette: pal }), 0);
  const banded = whole(page({ text: "HIHIHIHI", textColor: "palette", palette: pal, paletteBlend: false }), 0);
  const set = (f: Frame) => new Set(f.pixels.filter((p) => p !== 0));
  assert.ok(set(banded).size <= 16);
  assert.ok(set(blended).size >= set(banded).size);
});

test("charts and the progress bar painted from the palette by value and position", () => {
  const f = whole(page({ barChart: [1, 9], chartColor: "palette", palette: ["#FF0000", "#0000FF"], chartAutoscale: true }), 0);
  assert.ok(countColor(f, 0x0000ff) > 0, "the top value takes the last colour");
  const p = whole(page({ progress: 100, progressColor: "palette", palette: ["#FF0000", "#0000FF"] }), 0);
  assert.is(p.pixels[7 * 32], 0xff0000);
  assert.is(p.pixels[7 * 32 + 31], 0x0000ff);
});

/** How many pixels of colour `rgb` lie in columns lo..hi. */
function within(f: Frame, rgb: number, lo: number, hi: number): number {
  return f.pixels.filter((p, i) => p === rgb && i % 32 >= lo && i % 32 <= hi).length;
}

test("an animated icon plays its frames at their own delays, in its column, cached or whole", () => {
  const pg = page({ text: "HI", icon: "anim" });
  for (const [t, rgb] of [[0, RED], [199, RED], [200, GREEN], [450, BLUE], [600, RED], [1250, RED], [1450, GREEN]] as [number, number][]) {
    assert.is(within(whole(pg, t), rgb, 0, 7), 64, "at " + t);
    assert.equal(cached(pg, t).pixels, whole(pg, t).pixels, "cached at " + t);
  }
  assert.is(within(whole(pg, 0), 0xffffff, 0, 8), 0, "the text keeps right of the column");
});

test("an icon over an effect is drawn every frame; a full-width GIF is the background instead of the effect", () => {
  const pg = page({ text: "HI", icon: "still", effect: "Plasma" });
  assert.is(within(cached(pg, 300), GREEN, 0, 7), 64);
  const wide = page({ text: "HI", icon: "wide", effect: "Plasma", backgroundColor: "#FFFF00" });
  const f0 = whole(wide, 0);
  assert.ok(countColor(f0, BLUE) > 200, "the GIF fills the panel");
  assert.ok(within(f0, 0xffffff, 0, 15) > 0, "the text is centred on the whole panel, no column");
  assert.ok(countColor(whole(wide, 250), RED) > 200, "and plays");
  assert.equal(cached(wide, 250).pixels, whole(wide, 250).pixels);
});

test("iconMode push: scrolling text shoves the icon out as it passes, and it comes back each pass", () => {
  const body = { text: "A LONG HEADLINE THAT SCROLLS BY", icon: "still", scroll: { holdMs: 0 } };
  const fixed = page(body);
  const push = page(Object.assign({ iconMode: "push" }, body));
  const once = page(Object.assign({ iconMode: "pushOnce" }, body));
  assert.is(within(whole(push, 0), GREEN, 0, 7), 64, "in place before the text reaches it");
  let pushedAt = -1;
  for (let t = 0; t < 20000 && pushedAt < 0; t += 100) if (within(whole(push, t), GREEN, 0, 7) < 64) pushedAt = t;
  assert.ok(pushedAt > 0, "pushed at some point");
  assert.is(within(whole(fixed, pushedAt), GREEN, 0, 7), 64, "fixed stays");
  let gone = -1;
  for (let t = pushedAt; t < 30000 && gone < 0; t += 100) if (within(whole(push, t), GREEN, 0, 7) === 0) gone = t;
  assert.ok(gone > pushedAt, "pushed all the way out");
  let back = -1;
  for (let t = gone; t < 60000 && back < 0; t += 100) if (within(whole(push, t), GREEN, 0, 7) === 64) back = t;
  assert.ok(back > gone, "push: back for the next pass");
  for (let t = 0; t <= back; t += 100) whole(once, t);
  assert.is(within(whole(once, back), GREEN, 0, 7), 0, "pushOnce: gone for good");
});

test.run();
