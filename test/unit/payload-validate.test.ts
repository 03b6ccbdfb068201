// The payload of pushed apps and notifications: what is refused (status, code, field, message),
// what is skipped, clamped and normalized, and the compact form that is kept.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkPayloads } from "../../firmware/payload/check";

import { payloadFields } from "../../firmware/payload/stored";
import type { PayloadFields, StoredPayload } from "../../firmware/payload/stored";
import { findKey, keyName } from "../../firmware/payload/schema";
import type { Failure } from "../../firmware/core/failure";
import { isFailure } from "../../firmware/core/failure";
import { loadModule } from "../../firmware/platform/modules";
import { serveStorage, storageOf, utf8 } from "./text-support";

// Palette names are looked up among the palette files first: an empty Storage holds none.
let unserve = () => {};
test.before(() => {
  unserve = serveStorage(storageOf({}));
});
test.after(() => unserve());

/** A body checked as the handlers check it: validated, then its draw list compiled. */
function validate(body: unknown, notification: boolean): StoredPayload | Failure {
  const r = checkPayloads([body], notification);
  return Array.isArray(r) ? r[0] : r;
}

function stored(body: unknown, notification = false): StoredPayload {
  const r = validate(body, notification);
  if (isFailure(r)) throw new Error("refused: " + JSON.stringify(r) + " for " + JSON.stringify(body));
  return r;
}

function fields(body: unknown, notification = false): PayloadFields {
  return payloadFields(stored(body, notification));
}

function refused(body: unknown, field: string, message: string, notification = false): Failure {
  const r = validate(body, notification);
  if (!isFailure(r)) throw new Error("accepted: " + JSON.stringify(body));
  assert.is(r.status, 422, JSON.stringify(body));
  assert.is(r.code, "validationFailed", JSON.stringify(body));
  assert.is(r.field, field, JSON.stringify(body));
  assert.is(r.message, message, JSON.stringify(body));
  return r;
}

const SHARED = [
  "text", "textCase", "font", "textColor", "textBlinkMs", "textFadeMs", "textCenter", "scroll", "textOffsetX",
  "textInFront", "icon", "iconMode", "iconOffsetX", "backgroundColor", "barChart", "lineChart", "chartAutoscale",
  "chartColor", "progress", "progressColor", "progressTrackColor", "draw", "effect", "effectSpeed", "palette",
  "paletteBlend", "paletteSpan", "paletteSpeed", "overlay", "lifetimeMs", "lifetimeExpiry", "durationMs", "repeat",
];
const NOTIFICATION_ONLY = ["hold", "stack", "wakeup", "name", "sound", "soundRtttl", "soundLoop"];

/** A value of the right type for every key. */
const EVERY_KEY: { [key: string]: unknown } = {
  text: "HELLO", textCase: "asTyped", font: "large", textColor: "#FF8800", textBlinkMs: 500, textFadeMs: 0,
  textCenter: false, scroll: { mode: "bounce" }, textOffsetX: 2, textInFront: true, icon: "2422", iconMode: "push",
  iconOffsetX: 1, backgroundColor: "#101010", barChart: [1, 2, 3], lineChart: [3, 2, 1], chartAutoscale: false,
  chartColor: "#00FF00", progress: 40, progressColor: "#0000FF", progressTrackColor: "#202020",
  draw: [["pixel", 1, 1, "#FF0000"]], effect: "Plasma", effectSpeed: 2, palette: "Lava", paletteBlend: false,
  paletteSpan: 24, paletteSpeed: 1, overlay: "snow", lifetimeMs: 60000, lifetimeExpiry: "mark", durationMs: 9000,
  repeat: 2, hold: true, stack: false, wakeup: true, name: "door", sound: "bell", soundRtttl: "d:d=4,o=5,b=120:c",
  soundLoop: true,
};

test("the schema: 33 shared keys and 7 for notifications only; nothing else", () => {
  assert.is(SHARED.length + NOTIFICATION_ONLY.length, 40);
  for (const k of SHARED) {
    assert.ok(findKey(k, false), k);
    assert.ok(findKey(k, true), k);
  }
  for (const k of NOTIFICATION_ONLY) {
    assert.is(findKey(k, false), null, k);
    assert.ok(findKey(k, true), k);
  }
  for (const k of ["", "Text", "tex", "text text", "textColor|", "#", "textAlign", "blinkText", "color", "duration"]) {
    assert.is(findKey(k, true), null, JSON.stringify(k));
  }
});

test("stored keys are named by one-letter codes, each for one key", () => {
  const codes = new Set<string>();
  for (const k of SHARED.concat(NOTIFICATION_ONLY)) {
    const spec = findKey(k, true)!;
    assert.is(spec.code.length, 1, k);
    assert.is(keyName(spec.code), k);
    codes.add(spec.code);
  }
  assert.is(codes.size, 40);
  for (const c of ["", "AB", "z", "#", "|", " "]) assert.is(keyName(c), "", JSON.stringify(c));
  assert.is(findKey("repeat", false)!.hi, 2147483647);
});

test("every key at once is accepted on a notification, and each is kept", () => {
  const p = stored(EVERY_KEY, true);
  const f = payloadFields(p);
  assert.is(p.t, "HELLO");
  assert.is(p.n, "door");
  assert.ok(p.d, "draw program kept");
  assert.ok(p.b && p.l, "charts kept");
  assert.equal(f, {
    textCase: "asTyped", font: "large", textColor: 0xff8800, textBlinkMs: 500, textCenter: false,
    scroll: { mode: "bounce" }, textOffsetX: 2, textInFront: true, icon: "2422", iconMode: "push", iconOffsetX: 1,
    backgroundColor: 0x101010, chartAutoscale: false, chartColor: 0x00ff00, progress: 40, progressColor: 0x0000ff,
    progressTrackColor: 0x202020, effect: "Plasma", effectSpeed: 2, palette: "Lava", paletteBlend: false,
    paletteSpan: 24, paletteSpeed: 1, overlay: "snow", durationMs: 9000, repeat: 2, hold: true, stack: false,
    wakeup: true, sound: "bell", soundRtttl: "d:d=4,o=5,b=120:c", soundLoop: true,
  });
});

test("a notification accepts lifetimeMs and lifetimeExpiry and keeps neither", () => {
  const f = fields({ text: "x", lifetimeMs: 5000, lifetimeExpiry: "mark" }, true);
  assert.equal(f, {});
  refused({ lifetimeExpiry: "never" }, "lifetimeExpiry", "must be one of: remove mark", true);
  assert.equal(fields({ lifetimeMs: 5000, lifetimeExpiry: "MARK" }), { lifetimeMs: 5000, lifetimeExpiry: "mark" });
});

test("unknown keys, notification keys on an app, older dialects: 422 unknown field naming the key", () => {
  refused({ text: "x", colour: "#FF0000" }, "colour", "unknown field");
  refused({ textAlign: "center" }, "textAlign", "unknown field");
  refused({ Text: "x" }, "Text", "unknown field");
  for (const k of NOTIFICATION_ONLY) refused({ text: "x", [k]: EVERY_KEY[k] }, k, "unknown field");
  refused({ duration: 5 }, "duration", "unknown field");
  refused({ blinkText: 500 }, "blinkText", "unknown field");
});

test("the first offending key in the body's order is the answer; nothing is returned with it", () => {
  refused({ text: "ok", effect: "Nope", overlay: "nope" }, "effect", "unknown effect");
  refused({ overlay: "nope", effect: "Nope" }, "overlay", "unknown overlay");
  refused({ textColor: "red", bogus: 1 }, "textColor", "\"textColor\" is not a valid color");
  refused({ bogus: 1, textColor: "red" }, "bogus", "unknown field");
});

test("a body that is not an object is refused", () => {
  for (const body of [null, 5, "text", true, [{ text: "x" }]]) {
    const r = validate(body, false);
    assert.ok(isFailure(r), JSON.stringify(body));
    assert.is((r as Failure).status, 422);
    assert.is((r as Failure).code, "validationFailed");
  }
});

test("colours: every form, on every colour key; packed integers kept", () => {
  assert.equal(fields({ textColor: "#ff8800" }), { textColor: 0xff8800 });
  assert.equal(fields({ textColor: "F80" }), { textColor: 0xff8800 });
  assert.equal(fields({ textColor: [255, 136, 0] }), { textColor: 0xff8800 });
  assert.equal(fields({ textColor: ["HSV", 0, 100, 100] }), { textColor: 0xff0000 });
  assert.equal(fields({ textColor: 16746496 }), { textColor: 0xff8800 });
  assert.equal(fields({ backgroundColor: "#000000" }), { backgroundColor: 0 });
  assert.equal(fields({ chartColor: "#123456", progressTrackColor: "#654321" }), { chartColor: 0x123456, progressTrackColor: 0x654321 });
});

test("a malformed colour anywhere is 422 naming its key", () => {
  const bad = ["#GGGGGG", "red", "#FF00AA80", [1, 2], ["hsv", 1, 2, 3], -1, 16777216, 1.5, true, {}, ["HSV", "a", 1, 1]];
  for (const key of ["textColor", "backgroundColor", "chartColor", "progressColor", "progressTrackColor"]) {
    for (const v of bad) refused({ [key]: v }, key, "\"" + key + "\" is not a valid color");
  }
  refused({ text: [{ text: "a", color: "#FF0000" }, { text: "b", color: "nope" }] }, "text", "\"text\" is not a valid color");
  refused({ text: [{ text: "", color: [300] }] }, "text", "\"text\" is not a valid color");
  refused({ palette: ["#FF0000", "#GG0000"] }, "palette", "\"palette\" is not a valid color");
  refused({ palette: [{ color: "x", pos: 0 }] }, "palette", "\"palette\" is not a valid color");
});

test("a null colour leaves the key at its default", () => {
  assert.equal(stored({ textColor: null, backgroundColor: null, progressColor: null }), {});
});

test("\"palette\" is a colour of textColor, chartColor and progressColor only, in any case", () => {
  assert.equal(fields({ textColor: "palette", chartColor: "Palette", progressColor: "PALETTE" }),
    { textColor: "palette", chartColor: "palette", progressColor: "palette" });
  refused({ backgroundColor: "palette" }, "backgroundColor", "\"backgroundColor\" is not a valid color");
  refused({ progressTrackColor: "palette" }, "progressTrackColor", "\"progressTrackColor\" is not a valid color");
});

test("mode keys: listed words in any case, kept as spelled in the list; another word is 422", () => {
  assert.equal(fields({ textCase: "UPPER", font: "Large", iconMode: "pushonce", lifetimeExpiry: "Mark" }),
    { textCase: "upper", font: "large", iconMode: "pushOnce", lifetimeExpiry: "mark" });
  refused({ textCase: "lower" }, "textCase", "must be one of: inherit upper asTyped");
  refused({ font: "huge" }, "font", "must be one of: small large");
  refused({ iconMode: "" }, "iconMode", "must be one of: fixed pushOnce push");
  refused({ lifetimeExpiry: "delete" }, "lifetimeExpiry", "must be one of: remove mark");
});

test("scroll: a bare mode, an object of fields, only the given fields kept; bad fields name scroll.<field>", () => {
  assert.equal(fields({ scroll: "bounce" }), { scroll: { mode: "bounce" } });
  assert.equal(fields({ scroll: { speed: 50, direction: "RIGHT" } }), { scroll: { speed: 50, direction: "right" } });
  assert.equal(stored({ scroll: {} }), {});
  refused({ scroll: { repeat: 2 } }, "scroll.repeat", "unknown field");
  refused({ scroll: { speed: -1 } }, "scroll.speed", "out of range");
  refused({ scroll: { gap: 1.5 } }, "scroll.gap", "must be an integer");
  refused({ scroll: { holdMs: "1000" } }, "scroll.holdMs", "must be an integer");
  refused({ scroll: { mode: "marquee" } }, "scroll.mode", "must be one of: static wrap loop bounce");
  refused({ scroll: "marquee" }, "scroll.mode", "must be one of: static wrap loop bounce");
  refused({ scroll: { entry: "top" } }, "scroll.entry", "must be one of: inline offscreen");
  refused({ scroll: { whenFits: true } }, "scroll.whenFits", "must be one of: static scroll");
  refused({ scroll: { speed: 10, nope: 1 } }, "scroll.nope", "unknown field");
});

test("effect and overlay: names in any case, kept as the API spells them; \"\" is none; unknown is 422", () => {
  assert.equal(fields({ effect: "plasmacloud", overlay: "SNOW" }), { effect: "PlasmaCloud", overlay: "snow" });
  assert.equal(stored({ effect: "", overlay: "" }), {});
  refused({ effect: "Lava" }, "effect", "unknown effect");
  refused({ overlay: "hail" }, "overlay", "unknown overlay");
});

test("palette: a built-in name in any case, 1-16 colours, or positioned stops sorted", () => {
  assert.equal(fields({ palette: "rainbow" }), { palette: "Rainbow" });
  assert.equal(fields({ palette: ["#FF0000", [0, 0, 255]] }), { palette: [0xff0000, 0x0000ff] });
  const many = [];
  for (let i = 0; i < 20; i++) many.push(i);
  assert.equal(fields({ palette: many }).palette, many.slice(0, 16));
  assert.equal(fields({ palette: [{ color: "#0000FF", pos: 100 }, { color: "#FF0000", pos: -5 }, { pos: 50, color: 255 }, { color: 1, pos: 50 }] }),
    { palette: [[0, 0xff0000], [50, 255], [50, 1], [100, 0x0000ff]] });
  assert.equal(stored({ palette: "" }), {});
  assert.equal(stored({ palette: null }), {});
  refused({ palette: "Sunset" }, "palette", "unknown palette");
  refused({ palette: [] }, "palette", "must hold 1 to 16 colours");
  refused({ palette: ["#FF0000", { color: "#00FF00", pos: 5 }] }, "palette", "either every stop has a pos or none has");
  refused({ palette: [{ color: "#FF0000", pos: 0 }, "#00FF00"] }, "palette", "either every stop has a pos or none has");
  refused({ palette: [{ color: "#FF0000" }] }, "palette", "a stop needs both color and pos");
  refused({ palette: [{ pos: 3 }] }, "palette", "a stop needs both color and pos");
  refused({ palette: [{ color: "#FF0000", pos: "3" }] }, "palette", "pos must be a number from 0 to 100");
});

test("values of the wrong JSON type are skipped: the key keeps its default", () => {
  const body = {
    durationMs: "5000", textCenter: "false", textInFront: 1, textCase: 3, font: null, icon: 2422, effect: 5,
    overlay: true, effectSpeed: "2", progress: "50", repeat: [1], scroll: 7, palette: 3, draw: "pixel",
    barChart: "1,2", text: 42, hold: "yes", name: 5,
  };
  assert.equal(stored(body, true), {});
  assert.equal(stored({ text: true }), {});
  assert.equal(stored({ scroll: ["bounce"] }), {});
  assert.equal(stored({ scroll: null }), {});
});

test("numbers outside their range are clamped; integers rounded; what means the default is not kept", () => {
  assert.equal(fields({ effectSpeed: 0 }), { effectSpeed: 0.1 });
  assert.equal(fields({ effectSpeed: -3 }), { effectSpeed: 0.1 });
  assert.equal(fields({ effectSpeed: 25 }), { effectSpeed: 10 });
  assert.equal(fields({ effectSpeed: 2.5 }), { effectSpeed: 2.5 });
  assert.equal(fields({ progress: 150 }), { progress: 100 });
  assert.equal(fields({ progress: 0 }), { progress: 0 });
  assert.equal(fields({ progress: 33.5 }), { progress: 33.5 });
  assert.equal(stored({ progress: -5 }), {});
  assert.equal(fields({ paletteSpeed: 11, paletteSpan: -4 }), { paletteSpeed: 10 });
  assert.equal(fields({ textBlinkMs: 499.6 }), { textBlinkMs: 500 });
  assert.equal(stored({ textBlinkMs: -100, textFadeMs: 0, durationMs: -1, lifetimeMs: 0, repeat: -2 }), {});
  assert.equal(fields({ textOffsetX: -5 }), { textOffsetX: -5 });
  assert.equal(fields({ textOffsetX: 1e9, iconOffsetX: -1e9 }), { textOffsetX: 32767, iconOffsetX: -32768 });
  assert.equal(stored({
    textCase: "inherit", font: "small", textCenter: true, textInFront: false, iconMode: "fixed", chartAutoscale: true,
    progressColor: "#00FF00", progressTrackColor: "#FFFFFF", effectSpeed: 1, paletteBlend: true, lifetimeExpiry: "remove",
  }), {});
  assert.equal(stored({ hold: false, stack: true, wakeup: false, soundLoop: false, name: "" }, true), {});
});

test("text: a string kept whole; numbers and booleans ignored", () => {
  assert.equal(stored({ text: "Hello" }), { t: "Hello" });
  const umlauts = utf8("Grüße 5 €");
  assert.equal(stored({ text: umlauts }), { t: umlauts });
  assert.equal(stored({ text: "" }), {});
});

test("fragments: joined, with a run per colour change; no colour is white; non-string text is empty", () => {
  const p = stored({
    text: [
      { text: "CPU ", color: "#888888" }, { text: "87", color: [255, 0, 0] }, { text: "!", color: "#FF0000" },
      { text: 5, color: "#00FF00" }, { color: "#0000FF" }, "loose", null, { text: "%" }, { text: "", color: "#123456" },
    ],
  });
  assert.is(p.t, "CPU 87!%");
  const r = p.r as string;
  assert.is(r.length, 15);
  const run = (i: number) => [(r.charCodeAt(i * 5) << 8) | r.charCodeAt(i * 5 + 1),
    (r.charCodeAt(i * 5 + 2) << 16) | (r.charCodeAt(i * 5 + 3) << 8) | r.charCodeAt(i * 5 + 4)];
  assert.equal([run(0), run(1), run(2)], [[4, 0x888888], [7, 0xff0000], [8, 0xffffff]]);
  assert.equal(stored({ text: [] }), {});
  assert.equal(stored({ text: [{ text: "" }, { color: "#FF0000" }] }), {});
  const one = stored({ text: [{ text: "plain" }] });
  assert.is(one.t, "plain");
  assert.is(one.r, "\x00\x05\xff\xff\xff");
});

test("fragments: a long text keeps offsets past 255 bytes", () => {
  const a = "A".repeat(300);
  const p = stored({ text: [{ text: a, color: "#FF0000" }, { text: "B", color: "#00FF00" }] });
  assert.is(p.t, a + "B");
  assert.is(p.r, "\x01\x2c\xff\x00\x00" + "\x01\x2d\x00\xff\x00");
});

test("sound keys are kept as sent, unchecked", () => {
  assert.equal(fields({ sound: { rtttl: "x", loop: true } }, true), { sound: { rtttl: "x", loop: true } });
  assert.equal(fields({ sound: 5 }, true), { sound: 5 });
  assert.equal(fields({ sound: [{ status: 1, code: "x" }] }, true), { sound: [{ status: 1, code: "x" }] });
  assert.equal(fields({ sound: { status: 404, code: "notFound" } }, true), { sound: { status: 404, code: "notFound" } });
  assert.equal(fields({ soundRtttl: "not rtttl at all", soundLoop: true }, true), { soundRtttl: "not rtttl at all", soundLoop: true });
});

test("the notification's name is kept outside the JSON; UTF-8 stays raw bytes in it", () => {
  const p = stored({ name: "backup-job", icon: utf8("ÄÖ") }, true);
  assert.is(p.n, "backup-job");
  assert.is(p.k, "{\"K\":\"" + utf8("ÄÖ") + "\"}");
});

test("charts and draw lists are kept as compiled; empty ones not at all", () => {
  assert.equal(stored({ barChart: [], lineChart: [], draw: [] }), {});
  const p = stored({ barChart: [1, 2, 3], lineChart: [4, 5], draw: [["pixel", 0, 0, "#FFFFFF"]] });
  assert.ok(p.b && p.b.length > 0);
  assert.ok(p.l && p.l.length > 0);
  assert.ok(p.d instanceof Uint8Array && p.d.length > 0);
  assert.is(p.k, undefined);
});

test("a bad draw element is 422 naming draw[<i>]", () => {
  const ok = ["pixel", 1, 1, "#FF0000"];
  const cases: unknown[] = [["nope", 1, 2], "pixel", ["pixel", 1], ["pixel", "a", 1, "#FF0000"], ["pixels", "#FF0000", 1, 2, 3]];
  for (const bad of cases) {
    const r = validate({ draw: [ok, bad] }, false);
    assert.ok(isFailure(r), JSON.stringify(bad));
    assert.is((r as Failure).status, 422);
    assert.is((r as Failure).code, "validationFailed");
    assert.is((r as Failure).field, "draw[1]", JSON.stringify(bad));
  }
});

test("the module loads by its id, as the core reaches it", () => {
  const v = loadModule<typeof validate>("payload/validate");
  assert.equal(v({ text: "hi", textColor: "#FF0000" }, false), { k: "{\"D\":16711680}", t: "hi" });
});

test.run();
