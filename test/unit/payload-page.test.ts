// The page of a pushed app or notification, drawn into the Graphics stand-in: text colours and
// their priority at fixed times, fragments, centring beside the icon column, textOffsetX, the
// scroll merged over the global setting at draw time, decorations and their order, and the
// engine's still/moving split giving the same pixels as drawing whole.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkPayloads } from "../../firmware/payload/check";
import type { Failure } from "../../firmware/core/failure";
import type { StoredPayload } from "../../firmware/payload/stored";

import makePage from "../../firmware/payload/page.mod";
import type { PayloadPage } from "../../firmware/payload/stored";
import { isFailure } from "../../firmware/core/failure";
import { textKit } from "../../firmware/apps/text-kit";
import type { Canvas } from "../../firmware/display/canvas";
import { defaultSettings } from "../../firmware/settings/schema";
import type { Settings } from "../../firmware/settings/types";
import { loadModule } from "../../firmware/platform/modules";
import {
  blankGraphics, countColor, expectFrame, frameContext, frameOf, localTime, renderApp, ungradedCanvas,
} from "../harness/frame-fixture";
import type { Frame } from "../harness/frame-fixture";
import { installGraphics } from "../harness/graphics";
import { fontFiles, serveStorage, storageOf, utf8 } from "./text-support";
import { installEngineHost } from "./engine-support";
import { makeGif } from "./icons-support";

/** A body checked as the handlers check it: validated, then its draw list compiled. */
function validate(body: unknown, notification: boolean): StoredPayload | Failure {
  const r = checkPayloads([body], notification);
  return Array.isArray(r) ? r[0] : r;
}

installGraphics();

/** An 8x8 icon of one colour, as /ICONS/<id>.gif. */
function iconFile(rgb: number): string {
  return makeGif({ width: 8, height: 8, palette: [rgb, 0], frames: [{ w: 8, h: 8, pixels: new Array(64).fill(0) }] }).toString("latin1");
}
const ICON_RGB = 0x336699;

let restore = () => undefined as void;
test.before(() => {
  const unhost = installEngineHost();
  const files = Object.assign(fontFiles(), { "I/2422.gif": iconFile(ICON_RGB), "I/x.gif": iconFile(ICON_RGB) });
  const unserve = serveStorage(storageOf(files));
  restore = () => {
    unserve();
    unhost();
  };
});
test.after(() => restore());

const NOW = localTime(2026, 3, 10, 9, 5, 7);
const WHITE = 0xffffff;
const LONG = "A LONG HEADLINE THAT WILL NOT FIT";

function page(body: unknown, icon = false, notification = false): PayloadPage {
  const p = validate(body, notification);
  if (isFailure(p)) throw new Error("refused: " + JSON.stringify(p));
  if (icon && !(p as { k?: string }).k) throw new Error("an icon page needs an icon key");
  return makePage(p, { text: textKit(), width: 32 });
}

function settings(patch: Partial<Settings> = {}): Settings {
  return Object.assign(defaultSettings(), patch);
}

function render(pg: PayloadPage, shownMs = 0, s: Settings = settings()): Frame {
  return renderApp(pg, { local: NOW, settings: s, shownMs });
}

/** As the engine draws a page with a still key: the still part into a slot, copied, then the moving part. */
function renderCached(pg: PayloadPage, shownMs = 0, s: Settings = settings()): Frame {
  const ctx = frameContext({ local: NOW, settings: s, shownMs });
  const slot = blankGraphics();
  const out = blankGraphics();
  assert.is(typeof pg.stillKey, "function");
  pg.stillKey!(ctx);
  pg.drawStill!(ungradedCanvas(slot), ctx);
  out.drawImage({ width: 32, height: 8, bpp: 24, buffer: slot.buffer }, 0, 0);
  pg.drawMoving!(ungradedCanvas(out), ctx);
  return frameOf(out);
}

/** First and last lit column of a frame, [-1, -1] when it is dark. */
function litColumns(f: Frame, rgb?: number): [number, number] {
  let lo = -1;
  let hi = -1;
  for (let x = 0; x < f.width; x++) {
    for (let y = 0; y < f.height; y++) {
      const p = f.pixels[y * f.width + x];
      if (rgb === undefined ? p !== 0 : p === rgb) {
        if (lo < 0) lo = x;
        hi = x;
      }
    }
  }
  return [lo, hi];
}

/** Pixels of a colour inside columns lo..hi, rows top..bottom. */
function countIn(f: Frame, rgb: number, lo: number, hi: number, top = 0, bottom = 7): number {
  let n = 0;
  for (let y = top; y <= bottom; y++) for (let x = lo; x <= hi; x++) if (f.pixels[y * f.width + x] === rgb) n++;
  return n;
}

test("static text: centred on the panel, or right of the icon column; textCenter false left-aligns", () => {
  expectFrame("payload-center", render(page({ text: "HI" })));
  expectFrame("payload-center-icon", render(page({ text: "HI", icon: "2422" }, true)));
  const [lo, hi] = litColumns(render(page({ text: "HI" })));
  assert.ok(Math.abs(lo - (31 - hi)) <= 1, "as far from both edges");
  const [iconLo, iconHi] = litColumns(render(page({ text: "HI", icon: "2422" }, true)), WHITE);
  assert.ok(Math.abs((iconLo - 9) - (31 - iconHi)) <= 1, "centred in columns 9-31");
  assert.is(litColumns(render(page({ text: "HI", textCenter: false })))[0], 0);
  assert.is(litColumns(render(page({ text: "HI", textCenter: false, icon: "2422" }, true)), WHITE)[0], 9);
  assert.is(countIn(render(page({ text: "HI", icon: "2422" }, true)), ICON_RGB, 0, 7), 64, "the icon fills its column");
  // An icon that cannot be shown reserves no column.
  assert.equal(litColumns(render(page({ text: "HI", icon: "missing" }))), [lo, hi]);
});

test("textOffsetX shifts static text, centred or not, and the scroll's rest anchor", () => {
  const [lo] = litColumns(render(page({ text: "HI" })));
  assert.is(litColumns(render(page({ text: "HI", textOffsetX: 3 })))[0], lo + 3);
  assert.is(litColumns(render(page({ text: "HI", textOffsetX: -2, textCenter: false })))[0], 0, "clipped at the edge");
  assert.is(litColumns(render(page({ text: "HI", textOffsetX: 4, textCenter: false, icon: "x" }, true)), WHITE)[0], 13);
  assert.is(litColumns(render(page({ text: LONG, textOffsetX: 5 })))[0], 5, "a scrolling text rests at the offset");
  assert.is(litColumns(render(page({ text: LONG, textOffsetX: 5, icon: "x" }, true)), WHITE)[0], 14);
  // Entering from off the panel, the offset moves the entry anchor as well.
  const offscreen = { text: LONG, scroll: { entry: "offscreen" } };
  const plain = litColumns(render(page(offscreen), 500))[0];
  assert.is(litColumns(render(page(Object.assign({ textOffsetX: 3 }, offscreen)), 500))[0], plain + 3);
});

test("fragments: each in its colour, left to right; no colour is white; textColor is ignored", () => {
  const body = {
    text: [{ text: "AB", color: "#FF0000" }, { text: "C" }, { text: "D", color: [0, 255, 0] }],
    textColor: "#0000FF",
  };
  const f = render(page(body));
  expectFrame("payload-fragments", f);
  assert.is(countColor(f, 0x0000ff), 0);
  const red = litColumns(f, 0xff0000);
  const white = litColumns(f, WHITE);
  const green = litColumns(f, 0x00ff00);
  assert.ok(red[1] < white[0] && white[1] < green[0], "in order");
  // Drawn as one text: the same columns lit as the plain string.
  const plain = render(page({ text: "ABCD" }));
  assert.equal(f.pixels.map((p) => p !== 0), plain.pixels.map((p) => p !== 0));
});

test("fragments in eight colours scroll as one text", () => {
  const colors = ["#FF0000", "#00FF00", "#0000FF", "#FFFF00", "#00FFFF", "#FF00FF", "#FFAA00", "#666666"];
  const text = colors.map((c, i) => ({ text: "PART" + i + " ", color: c }));
  const pg = page({ text, scroll: { holdMs: 0 } });
  const f0 = render(pg, 0);
  const f1 = render(pg, 1000);
  assert.ok(countColor(f0, 0xff0000) > 0);
  assert.is(countColor(f0, 0x666666), 0, "the last fragment starts off the panel");
  assert.ok(litColumns(f1, 0x00ff00)[0] < litColumns(f0, 0x00ff00)[0], "moved left");
  expectFrame("payload-fragments-8-at-1s", f1);
});

test("colour priority of plain text: own colour, else the global one", () => {
  assert.ok(countColor(render(page({ text: "HI", textColor: "#FF8800" })), 0xff8800) > 10);
  const s = settings({ textColor: 0xff00ff });
  assert.ok(countColor(render(page({ text: "HI" }), 0, s), 0xff00ff) > 10);
  // "palette" without a palette keeps the normal colour, and blinks as it would.
  assert.ok(countColor(render(page({ text: "HI", textColor: "palette" }), 0, s), 0xff00ff) > 10);
  assert.is(countColor(render(page({ text: "HI", textColor: "palette", textBlinkMs: 1000 }), 100, s), 0xff00ff), 0);
});

test("blink: black in the first half of each period, the colour in the second; black glyphs cover the background", () => {
  const pg = page({ text: "HI", textColor: "#FF0000", textBlinkMs: 1000, backgroundColor: "#0000FF" });
  const lit = render(pg, 600);
  const lit2 = render(pg, 2999);
  const dark = render(pg, 100);
  const dark2 = render(pg, 2000);
  const glyphs = countColor(lit, 0xff0000);
  assert.ok(glyphs > 10);
  assert.is(countColor(lit2, 0xff0000), glyphs);
  for (const f of [dark, dark2]) {
    assert.is(countColor(f, 0xff0000), 0);
    assert.is(countColor(f, 0), glyphs, "the glyphs in black");
    assert.is(countColor(f, 0x0000ff), 256 - glyphs);
  }
  expectFrame("payload-blink-off", dark);
});

test("fade: full colour at the start of each period, black half way, in between on the way", () => {
  const pg = page({ text: "HI", textColor: "#FF0000", textFadeMs: 1000 });
  const full = render(pg, 0);
  const glyphs = countColor(full, 0xff0000);
  assert.ok(glyphs > 10);
  assert.is(countColor(render(pg, 2000), 0xff0000), glyphs);
  assert.equal(litColumns(render(pg, 500)), [-1, -1], "black at half period");
  const quarter = render(pg, 250);
  const shades = quarter.pixels.filter((p) => p !== 0);
  assert.is(shades.length, glyphs);
  const red = shades[0] >> 16;
  assert.ok(red > 100 && red < 150, "about half: " + red.toString(16));
  assert.ok(shades.every((p) => p === shades[0]));
});

test("fade beats blink; a palette beats both", () => {
  const both = page({ text: "HI", textColor: "#FF0000", textFadeMs: 4000, textBlinkMs: 1000 });
  assert.ok(countColor(render(both, 0), 0xff0000) > 10, "no blink while fading");
  const s = settings({ textColor: 0x00ffff });
  const ramp = page({ text: "HI", textColor: "palette", palette: "Lava", textFadeMs: 1000, textBlinkMs: 1000 });
  const faded = render(ramp, 500, s);
  assert.ok(faded.pixels.filter((p) => p !== 0).length > 10, "neither fade nor blink");
  assert.is(countColor(faded, 0x00ffff), 0, "painted from the palette, not the global colour");
  const frags = page({ text: [{ text: "H", color: "#FF0000" }, { text: "I" }], textColor: "palette", palette: ["#0000FF", "#00FF00"] });
  const f = render(frags, 0, s);
  assert.is(countColor(f, 0xff0000) + countColor(f, WHITE), 0, "fragment colours give way to the palette");
  assert.ok(countColor(f, 0x0000ff) > 0 && countColor(f, 0x00ff00) > 0, "first colour to last");
});

test("blink and fade apply to fragments", () => {
  const body = { text: [{ text: "H", color: "#FF0000" }, { text: "I", color: "#00FF00" }], textBlinkMs: 1000 };
  const pg = page(body);
  assert.is(countColor(render(pg, 100), 0xff0000) + countColor(render(pg, 100), 0x00ff00), 0);
  assert.ok(countColor(render(pg, 700), 0xff0000) > 0 && countColor(render(pg, 700), 0x00ff00) > 0);
});

test("textCase: inherit follows the global uppercase setting at draw time; upper and asTyped do not", () => {
  const upperOn = settings({ uppercase: true });
  const upperOff = settings({ uppercase: false });
  const caps = render(page({ text: "HELLO" }), 0, upperOn);
  const typed = render(page({ text: "Hello" }), 0, upperOff);
  assert.not.equal(caps.pixels, typed.pixels);
  const inherit = page({ text: "Hello" });
  assert.equal(render(inherit, 0, upperOn).pixels, caps.pixels);
  assert.equal(render(inherit, 0, upperOff).pixels, typed.pixels, "the same page after the setting changed");
  assert.equal(render(page({ text: "Hello", textCase: "upper" }), 0, upperOff).pixels, caps.pixels);
  assert.equal(render(page({ text: "Hello", textCase: "asTyped" }), 0, upperOn).pixels, typed.pixels);
});

test("font large", () => {
  expectFrame("payload-large", render(page({ text: utf8("21°C"), font: "large" })));
});

test("scroll: the payload's fields over the global setting as it is when drawn", () => {
  const pg = page({ text: LONG, scroll: { speed: 200 } });
  const held = settings();
  const scroll = (patch: object) => settings({ scroll: Object.assign({}, held.scroll, patch) });
  assert.is(litColumns(render(pg, 500, held))[0], 0, "still in the global 1 s hold");
  // The global setting changes after the page was made: no hold now, but the page's own speed stays.
  const f = render(pg, 500, scroll({ holdMs: 0, speed: 50 }));
  // 42 px/s for 0.5 s: 21 columns to the left.
  assert.equal(f.pixels, render(page({ text: LONG, textOffsetX: -21, scroll: "static" })).pixels);
  // Fields the payload left out follow the global value; those it set do not.
  assert.is(litColumns(render(pg, 0, scroll({ direction: "right" })))[1], 31, "rests flush right");
  const still = scroll({ mode: "static" });
  assert.equal(render(pg, 3000, still).pixels, render(pg, 0, still).pixels);
  const own = page({ text: LONG, scroll: { mode: "wrap", holdMs: 0 } });
  assert.not.equal(render(own, 3000, still).pixels, render(own, 0, still).pixels);
});

test("passes: completed scroll runs for repeat; -1 while the text does not move", () => {
  const pg = page({ text: LONG, scroll: { holdMs: 0 } });
  const s = settings();
  const ctx = (ms: number) => frameContext({ local: NOW, settings: s, shownMs: ms });
  assert.is(pg.passes(ctx(0)), 0);
  render(pg, 0, s);
  // A wrap run travels the text's width: from x 0 until it has left the panel.
  let first = 0;
  for (let ms = 0; ms < 60000 && !first; ms += 50) if (pg.passes(ctx(ms)) === 1) first = ms;
  assert.ok(first > 5000 && first < 10000, "one run in " + first + " ms");
  assert.is(pg.passes(ctx(first * 2 + 100)), 2);
  assert.is(page({ text: "HI" }).passes(ctx(60000)), -1);
  assert.is(page({ text: LONG, scroll: "static" }).passes(ctx(60000)), -1);
  assert.is(page({ text: LONG, scroll: { speed: 0 } }).passes(ctx(60000)), -1);
  assert.is(page({}).passes(ctx(60000)), -1);
});

test("backgroundColor fills the panel behind the text; an effect takes its place", () => {
  const f = render(page({ text: "HI", backgroundColor: "#202020", textColor: "#FFFF00" }));
  expectFrame("payload-background", f);
  assert.is(countColor(f, 0x202020) + countColor(f, 0xffff00), 256);
  assert.is(countColor(render(page({ text: "HI", backgroundColor: "#202020", effect: "Plasma" })), 0x202020), 0);
});

test("decorations: draw list, progress bar, bar chart and line chart right of the icon column", () => {
  const body = {
    draw: [["rect", 0, 0, 10, 8, "#FF0000"], ["pixel", 8, 4]],
    progress: 50, progressColor: "#00FF00", progressTrackColor: "#666666",
    barChart: [1, 3, 2, 4], lineChart: [4, 0, 4], chartColor: "#0000FF", chartAutoscale: true,
    icon: "2422", textColor: "#FFFF00",
  };
  const f = render(page(body, true));
  expectFrame("payload-decorations", f);
  assert.ok(countColor(f, 0xff0000) > 0, "the draw list is not indented: its rect starts under the icon");
  assert.is(countIn(f, ICON_RGB, 0, 7), 64, "the icon goes over the decorations");
  assert.is(countColor(f, 0xffff00), 1, "a draw command without a colour takes the text colour");
  assert.ok(countIn(f, 0x00ff00, 8, 31, 7, 7) > 0, "progress on the bottom row");
  assert.is(countIn(f, 0x00ff00, 0, 7, 0, 6) + countIn(f, 0x0000ff, 0, 8), 0, "no chart in the icon column");
});

test("decorations: defaults for the progress colours, the text colour for charts", () => {
  const f = render(page({ progress: 25, lineChart: [8, 8], chartAutoscale: false, textColor: "#FF00FF" }));
  assert.ok(countColor(f, 0x00ff00) > 0, "progress defaults to green");
  assert.ok(countColor(f, WHITE) > 0, "track defaults to white");
  assert.is(countColor(f, 0xff00ff), 32, "the chart in the text colour, along the top row");
});

test("textInFront: false puts the decorations over the text, true the text over them", () => {
  const cover = { text: "HI", textColor: "#FFFFFF", draw: [["rectFill", 0, 0, 32, 8, "#0000FF"]] };
  for (const draw of [render, renderCached]) {
    const behind = draw(page(cover));
    assert.is(countColor(behind, WHITE), 0, draw.name);
    assert.is(countColor(behind, 0x0000ff), 256, draw.name);
    const front = draw(page(Object.assign({ textInFront: true }, cover)));
    assert.ok(countColor(front, WHITE) > 10, draw.name);
    assert.is(countColor(front, WHITE) + countColor(front, 0x0000ff), 256, draw.name);
  }
});

test("the still/moving split draws what drawing whole draws, for every kind of page and time", () => {
  const deco = { draw: [["rectFill", 10, 2, 6, 3, "#FF0000"], ["pixel", 0, 0, "#000000"]], progress: 30, lineChart: [1, 5, 2] };
  const bodies: unknown[] = [
    { text: "HI" },
    { text: "HI", backgroundColor: "#101010" },
    Object.assign({ text: "HI" }, deco),
    Object.assign({ text: LONG, scroll: { holdMs: 0 } }, deco),
    Object.assign({ text: LONG, scroll: { holdMs: 0 }, textInFront: true, backgroundColor: "#101010" }, deco),
    Object.assign({ text: "HI", textBlinkMs: 800, backgroundColor: "#101010" }, deco),
    Object.assign({ text: "HI", textFadeMs: 800, textInFront: true }, deco),
    { text: [{ text: "RED ", color: "#FF0000" }, { text: "GREEN ", color: "#00FF00" }, { text: "BLUE", color: "#0000FF" }], scroll: "bounce" },
    Object.assign({}, deco),
  ];
  for (const body of bodies) {
    const pg = page(body);
    for (const ms of [0, 150, 500, 1234, 2600, 9000]) {
      assert.equal(renderCached(pg, ms).pixels, render(pg, ms).pixels, JSON.stringify(body) + " at " + ms);
    }
  }
});

test("the still key is one per page and stays while the page lives", () => {
  const ctx = frameContext({ local: NOW, settings: settings() });
  const a = page({ text: "A" });
  const b = page({ text: "A" });
  assert.is(a.stillKey!(ctx), a.stillKey!(ctx));
  assert.is.not(a.stillKey!(ctx), b.stillKey!(ctx));
});

test("a decoration whose graded colour is the key colour still covers the text", () => {
  // A canvas that grades nothing, so a decoration can ask for the key colour itself.
  const canvasOf = (g: Graphics): Canvas => ({ g, width: 32, height: 8, color: (rgb: number) => { g.setColor(rgb); } });
  const pg = page({ text: LONG, scroll: { holdMs: 0 }, draw: [["rectFill", 0, 0, 32, 8, "#010203"]] });
  const ctx = frameContext({ local: NOW, settings: settings(), shownMs: 300 });
  const slot = blankGraphics();
  const out = blankGraphics();
  pg.drawStill!(canvasOf(slot), ctx);
  out.drawImage({ width: 32, height: 8, bpp: 24, buffer: slot.buffer }, 0, 0);
  pg.drawMoving!(canvasOf(out), ctx);
  const f = frameOf(out);
  assert.is(countColor(f, WHITE), 0);
  assert.is(countColor(f, 0x010202), 256);
});

test("an empty payload draws nothing; a notification's page is made the same way", () => {
  assert.equal(litColumns(render(page({}))), [-1, -1]);
  assert.equal(litColumns(render(page({ text: "", hold: true }, false, true))), [-1, -1]);
  assert.ok(countColor(render(page({ text: "HI", wakeup: true }, false, true)), WHITE) > 0);
});

test("the module loads by its id and makes pages", () => {
  const make = loadModule<typeof makePage>("payload/page");
  const p = validate({ text: "HI" }, false);
  if (isFailure(p)) throw new Error("refused");
  const pg = make(p, { text: textKit() });
  assert.equal(render(pg).pixels, render(page({ text: "HI" })).pixels);
});

test("a stale mark frames the page the same drawn whole or from its still part, over scrolling text, under the icon", () => {
  const stale = (pg: PayloadPage) => {
    pg.markStale();
    return pg;
  };
  for (const body of [{ text: LONG, scroll: { holdMs: 0 }, draw: [["rectFill", 4, 2, 6, 3, "#0000FF"]] }, { text: "HI" }]) {
    for (const ms of [0, 700, 1900]) {
      const whole = render(stale(page(body)), ms);
      assert.equal(renderCached(stale(page(body)), ms), whole, JSON.stringify(body) + " at " + ms);
      const px = whole.pixels;
      assert.equal([px[0], px[31], px[7 * 32], px[7 * 32 + 31], px[3 * 32], px[3 * 32 + 31]], Array(6).fill(0x6e0700));
    }
  }
  const iconic = render(stale(page({ text: "HI", icon: "2422" }, true)));
  assert.is(iconic.pixels[0], ICON_RGB, "the icon paints over the mark");
  assert.is(iconic.pixels[31], 0x6e0700);
});

test.run();
