import { test } from "uvu";
import * as assert from "uvu/assert";
import { newIndicators } from "../../firmware/display/indicators";
import { applyIndicator, indicatorSlot, indicatorsView, resetIndicator } from "../../firmware/display/indicator-apply";
import { Moodlight } from "../../firmware/display/moodlight";
import { applyMoodlight, kelvinToRgb, moodlightView } from "../../firmware/display/moodlight-apply";
import { applyOverlayPatch, newOverlay } from "../../firmware/display/overlay";
import { serveStorage, storageOf } from "./text-support";

// Palette names are looked up among the palette files first: an empty Storage holds none.
let unserve = () => {};
test.before(() => {
  unserve = serveStorage(storageOf({}));
});
test.after(() => unserve());

const COLOR_MSG = 'must be a color ("#RGB", "#RRGGBB", [r,g,b], ["HSV",h,s,v] or a packed integer)';

test("indicator ids are exactly 1, 2 and 3", () => {
  assert.equal(["1", "2", "3", "0", "4", "10", "01", ""].map(indicatorSlot), [0, 1, 2, -1, -1, -1, -1, -1]);
});

test("a colour turns an indicator on; 0 or null turns it off and keeps the colour", () => {
  const ind = newIndicators();
  assert.is(applyIndicator(ind, 0, { color: "#ff0000", blinkMs: 500 }), null);
  assert.equal(indicatorsView(ind)[0], { on: true, color: "#FF0000", blinkMs: 500, fadeMs: 0 });
  assert.is(applyIndicator(ind, 0, { color: 0 }), null);
  assert.equal(indicatorsView(ind)[0], { on: false, color: "#FF0000", blinkMs: 500, fadeMs: 0 });
  applyIndicator(ind, 0, { color: "#00ff00" });
  applyIndicator(ind, 0, { color: null });
  assert.equal(indicatorsView(ind)[0], { on: false, color: "#00FF00", blinkMs: 500, fadeMs: 0 });
});

test("absent keys stay; a body without colour keeps on/off and colour", () => {
  const ind = newIndicators();
  applyIndicator(ind, 1, { color: [0, 0, 255], blinkMs: 300, fadeMs: 900 });
  applyIndicator(ind, 1, { fadeMs: 100 });
  assert.equal(indicatorsView(ind)[1], { on: true, color: "#0000FF", blinkMs: 300, fadeMs: 100 });
  applyIndicator(ind, 1, { color: "#FFFFFF" });
  assert.equal(indicatorsView(ind)[1], { on: true, color: "#FFFFFF", blinkMs: 300, fadeMs: 100 });
});

test("16-bit periods: outside 0-65535 or fractional is 422 on the key and changes nothing; wrong types are ignored", () => {
  const ind = newIndicators();
  assert.is(applyIndicator(ind, 2, { color: "#111111", blinkMs: 65535, fadeMs: 0 }), null);
  assert.equal(indicatorsView(ind)[2], { on: true, color: "#111111", blinkMs: 65535, fadeMs: 0 });
  const cases: [object, string, string][] = [
    [{ color: "#222222", fadeMs: 70000 }, "fadeMs", "out of range"],
    [{ blinkMs: -1 }, "blinkMs", "out of range"],
    [{ blinkMs: 65536, fadeMs: 5 }, "blinkMs", "out of range"],
    [{ fadeMs: 1.5 }, "fadeMs", "must be an integer"],
  ];
  for (const [body, field, message] of cases) {
    assert.equal(applyIndicator(ind, 2, body), { status: 422, code: "validationFailed", message, field });
    assert.equal(indicatorsView(ind)[2], { on: true, color: "#111111", blinkMs: 65535, fadeMs: 0 });
  }
  assert.is(applyIndicator(ind, 2, { blinkMs: "fast", fadeMs: 7 }), null);
  assert.equal(indicatorsView(ind)[2], { on: true, color: "#111111", blinkMs: 65535, fadeMs: 7 });
});

test("an unreadable colour is 422 on color and changes nothing", () => {
  const ind = newIndicators();
  applyIndicator(ind, 0, { color: "#123456", blinkMs: 10 });
  const f = applyIndicator(ind, 0, { color: "nope", blinkMs: 99 });
  assert.equal(f, { status: 422, code: "validationFailed", message: COLOR_MSG, field: "color" });
  assert.equal(indicatorsView(ind)[0], { on: true, color: "#123456", blinkMs: 10, fadeMs: 0 });
});

test("empty bodies are refused; DELETE resets everything", () => {
  const ind = newIndicators();
  for (const body of [undefined, {}, [], "x"]) {
    assert.equal(applyIndicator(ind, 0, body), {
      status: 422, code: "validationFailed", message: "a JSON body is required (use DELETE to turn the indicator off)",
    });
  }
  applyIndicator(ind, 0, { color: "#ABCDEF", blinkMs: 1, fadeMs: 2 });
  resetIndicator(ind, 0);
  assert.equal(indicatorsView(ind)[0], { on: false, color: "#000000", blinkMs: 0, fadeMs: 0 });
});

test("mood light: sticky fields, kelvin wins, brightness wraps to 8 bits", () => {
  const m = new Moodlight();
  assert.is(moodlightView(m), null);
  assert.is(applyMoodlight(m, { brightness: 30 }), null);
  assert.equal(moodlightView(m), { color: "#FFFFFF", brightness: 30 });
  applyMoodlight(m, { color: "#FF0000" });
  assert.equal(moodlightView(m), { color: "#FF0000", brightness: 30 });
  applyMoodlight(m, { kelvin: 2700, color: "#0000FF", brightness: 300 });
  assert.equal(moodlightView(m), { color: "#FFA757", brightness: 44 });
  assert.equal(applyMoodlight(m, { color: "#12345" }), { status: 422, code: "validationFailed", message: COLOR_MSG, field: "color" });
  assert.equal(moodlightView(m), { color: "#FFA757", brightness: 44 });
  assert.equal(applyMoodlight(m, {}), {
    status: 422, code: "validationFailed", message: "a JSON body is required (use DELETE to turn the moodlight off)",
  });
  m.on = false;
  assert.is(moodlightView(m), null);
});

test("kelvin: warm is orange, 6600 K is white, clamped at both ends", () => {
  assert.is(kelvinToRgb(6600), 0xffffff);
  assert.is(kelvinToRgb(1000) >> 16, 255);
  assert.ok((kelvinToRgb(1000) & 0xff) === 0);
  assert.ok((kelvinToRgb(40000) & 0xff) === 255 && (kelvinToRgb(40000) >> 16) < 200);
});

test("overlay patch: names case-insensitive, null or empty clears settings, errors name the field", () => {
  const o = newOverlay();
  assert.is(applyOverlayPatch({ overlay: "SNOW", overlaySettings: { speed: 50, blend: false } }, o), null);
  assert.equal(o, { name: "snow", speed: 10, palette: null, blend: false });
  assert.is(applyOverlayPatch({ overlay: null }, o), null);
  assert.equal(o, newOverlay());
  assert.equal(applyOverlayPatch({ overlay: 3 }, o), { status: 422, code: "validationFailed", message: "must be a string or null", field: "overlay" });
  assert.equal(applyOverlayPatch({ overlay: "hail" }, o), { status: 422, code: "validationFailed", message: "unknown overlay", field: "overlay" });
  assert.equal(applyOverlayPatch({ overlaySettings: [] }, o), { status: 422, code: "validationFailed", message: "must be an object", field: "overlaySettings" });
  assert.is(applyOverlayPatch({ overlaySettings: { palette: "lava", speed: 0 } }, o), null);
  assert.is(o.speed, 0.1);
  assert.is(applyOverlayPatch({ overlaySettings: { palette: ["#FF0000", [0, 0, 255]] } }, o), null);
  assert.is(applyOverlayPatch({ overlaySettings: { palette: "nope" } }, o)!.field, "overlaySettings.palette");
  assert.is(applyOverlayPatch({ overlaySettings: { palette: [{ color: "#FF0000", pos: 0 }, "#00FF00"] } }, o)!.field, "overlaySettings.palette");
});

test.run();
