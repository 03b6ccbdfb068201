import { test } from "uvu";
import * as assert from "uvu/assert";
import { applySettingsPatch, weekdaysFrom } from "../../firmware/settings/validate";
import { eachField, defaultSettings, publicSettings, findField } from "../../firmware/settings/schema";
import type { Settings } from "../../firmware/settings/types";
import type { Failure } from "../../firmware/core/failure";
import { isFailure } from "../../firmware/core/failure";
import { TRANSITIONS } from "../../firmware/device/names";

const COLOR_MSG = 'must be a color ("#RGB", "#RRGGBB", [r,g,b], ["HSV",h,s,v] or a packed integer)';

function patch(body: unknown, base?: Settings): Settings {
  const r = applySettingsPatch(base || defaultSettings(), body);
  if (isFailure(r)) throw new Error("refused: " + JSON.stringify(r));
  return r;
}

function refusal(body: unknown, base?: Settings): Failure {
  const r = applySettingsPatch(base || defaultSettings(), body);
  if (!isFailure(r)) throw new Error("accepted: " + JSON.stringify(body));
  return r;
}

function refused(body: unknown, field: string, message: string): void {
  const f = refusal(body);
  assert.is(f.status, 422, JSON.stringify(body));
  assert.is(f.code, "validationFailed");
  assert.is(f.field, field, JSON.stringify(body));
  assert.is(f.message, message, JSON.stringify(body));
}

const TOP_KEYS = [
  "autoBrightness", "brightness", "saturation", "gamma", "colorCorrection", "colorTint", "textColor", "uppercase",
  "scroll", "autoTransition", "appDurationMs", "transitionEffect", "transitionDirection",
  "transitionDurationMs", "timeMode", "timeColor", "calendarHeaderColor", "calendarTextColor", "calendarBodyColor",
  "time24h", "timeLeadingZero", "timeShowSeconds", "timeShowAmPm", "timeSeparatorMode", "dateOrder", "dateSeparator",
  "dateYearMode", "dateShowWeekday", "dateMonthNames", "dateColor", "weekdayBar", "useCelsius", "temperatureColor",
  "humidityColor", "batteryColor", "soundEnabled", "buzzerVolume", "dfplayerVolume", "mp3Volume", "radioVolume",
  "radioMeta", "blockNavigation",
];

test("defaults: every key of the interface (42), in its order, with the documented values", () => {
  const d = defaultSettings();
  assert.is(TOP_KEYS.length, 42);
  assert.equal(Object.keys(d), TOP_KEYS);
  assert.equal(d, {
    autoBrightness: false, brightness: 120, saturation: 100, gamma: 1.9, colorCorrection: null, colorTint: null,
    textColor: 0xFFFFFF, uppercase: true,
    scroll: { mode: "wrap", direction: "left", entry: "inline", whenFits: "static", speed: 100, gap: 8, holdMs: 1000 },
    autoTransition: true, appDurationMs: 7000, transitionEffect: "Rain",
    transitionDirection: "normal", transitionDurationMs: 1000, timeMode: 1, timeColor: null,
    calendarHeaderColor: 0xFF0000, calendarTextColor: 0x000000, calendarBodyColor: 0xFFFFFF,
    time24h: true, timeLeadingZero: true, timeShowSeconds: false, timeShowAmPm: false, timeSeparatorMode: "pulse",
    dateOrder: "dayMonthYear", dateSeparator: "dot", dateYearMode: "twoDigit", dateShowWeekday: false,
    dateMonthNames: false, dateColor: null,
    weekdayBar: {
      show: true, startOnMonday: true, weekendDays: [0, 6], activeColor: 0xFFFFFF, inactiveColor: 0x666666,
      weekendActiveColor: 0xFFFFFF, weekendInactiveColor: 0x666666,
    },
    useCelsius: true, temperatureColor: null, humidityColor: null, batteryColor: null, soundEnabled: true,
    buzzerVolume: 80, dfplayerVolume: 80, mp3Volume: 70, radioVolume: 60, radioMeta: true, blockNavigation: false,
  });
  // Every call is a fresh object: changing one never reaches the next.
  d.scroll.speed = 5;
  d.weekdayBar.weekendDays.push(3);
  assert.is(defaultSettings().scroll.speed, 100);
  assert.equal(defaultSettings().weekdayBar.weekendDays, [0, 6]);
});

test("public view: colours #RRGGBB or null, weekend days by name, same key order", () => {
  const v = publicSettings(defaultSettings()) as any;
  assert.equal(Object.keys(v), TOP_KEYS);
  assert.is(v.textColor, "#FFFFFF");
  assert.is(v.calendarHeaderColor, "#FF0000");
  assert.is(v.calendarTextColor, "#000000");
  assert.is(v.timeColor, null);
  assert.is(v.colorCorrection, null);
  assert.equal(v.weekdayBar, {
    show: true, startOnMonday: true, weekendDays: ["sunday", "saturday"], activeColor: "#FFFFFF",
    inactiveColor: "#666666", weekendActiveColor: "#FFFFFF", weekendInactiveColor: "#666666",
  });
  assert.equal(v.scroll, { mode: "wrap", direction: "left", entry: "inline", whenFits: "static", speed: 100, gap: 8, holdMs: 1000 });
});

test("what the public view shows is accepted back and changes nothing", () => {
  const base = patch({ timeColor: "#00AAFF", colorTint: [255, 214, 170], weekdayBar: { weekendDays: ["friday"] } });
  const again = patch(JSON.parse(JSON.stringify(publicSettings(base))), base);
  assert.equal(again, base);
});

test("an empty object is accepted and changes nothing; a non-object body is refused without field", () => {
  assert.equal(patch({}), defaultSettings());
  for (const body of [[], [{ brightness: 1 }], "brightness", 5, null, true]) {
    const f = refusal(body);
    assert.is(f.status, 422);
    assert.is(f.code, "validationFailed");
    assert.is(f.field, undefined);
  }
});

test("unknown keys are refused with unknown field, group fields are not top-level keys", () => {
  refused({ brightnes: 5 }, "brightnes", "unknown field");
  refused({ clockFace: "sheet" }, "clockFace", "unknown field");
  refused({ "weekdayBar.show": false }, "weekdayBar.show", "unknown field");
  refused({ "scroll.speed": 5 }, "scroll.speed", "unknown field");
  refused({ Brightness: 5 }, "Brightness", "unknown field");
  refused({ "brightness int": 5 }, "brightness int", "unknown field");
  refused({ "autoBrightness bool false|brightness": 5 }, "autoBrightness bool false|brightness", "unknown field");
});

test("booleans take only true and false", () => {
  assert.is(patch({ autoBrightness: true }).autoBrightness, true);
  assert.is(patch({ uppercase: false }).uppercase, false);
  for (const v of [1, 0, "true", null, []]) refused({ uppercase: v }, "uppercase", "must be a boolean");
});

test("integers: type first, then range; bounds inclusive", () => {
  assert.is(patch({ brightness: 0 }).brightness, 0);
  assert.is(patch({ brightness: 255 }).brightness, 255);
  refused({ brightness: 256 }, "brightness", "out of range");
  refused({ brightness: 999 }, "brightness", "out of range");
  refused({ brightness: -1 }, "brightness", "out of range");
  refused({ brightness: 120.5 }, "brightness", "must be an integer");
  refused({ brightness: true }, "brightness", "must be an integer");
  refused({ brightness: "120" }, "brightness", "must be an integer");
  refused({ brightness: null }, "brightness", "must be an integer");
  assert.is(patch({ saturation: 0 }).saturation, 0);
  refused({ saturation: 101 }, "saturation", "out of range");
  assert.is(patch({ timeMode: 6 }).timeMode, 6);
  refused({ timeMode: 7 }, "timeMode", "out of range");
  refused({ timeMode: -1 }, "timeMode", "out of range");
  for (const k of ["buzzerVolume", "dfplayerVolume", "mp3Volume", "radioVolume"]) {
    assert.is((patch({ [k]: 100 }) as any)[k], 100);
    refused({ [k]: 101 }, k, "out of range");
  }
});

test("durations: 0 and up; appDurationMs has no upper bound, transitionDurationMs stops at 2^31-1", () => {
  assert.is(patch({ appDurationMs: 0 }).appDurationMs, 0);
  assert.is(patch({ appDurationMs: 86400000000 }).appDurationMs, 86400000000);
  refused({ appDurationMs: -1 }, "appDurationMs", "out of range");
  refused({ appDurationMs: 1.5 }, "appDurationMs", "must be an integer");
  assert.is(patch({ transitionDurationMs: 0 }).transitionDurationMs, 0);
  assert.is(patch({ transitionDurationMs: 2147483647 }).transitionDurationMs, 2147483647);
  refused({ transitionDurationMs: 2147483648 }, "transitionDurationMs", "out of range");
  refused({ transitionDurationMs: -5 }, "transitionDurationMs", "out of range");
});

test("gamma: any number above 0, integers too", () => {
  assert.is(patch({ gamma: 2 }).gamma, 2);
  assert.is(patch({ gamma: 0.01 }).gamma, 0.01);
  assert.is(patch({ gamma: 1000 }).gamma, 1000);
  refused({ gamma: 0 }, "gamma", "out of range");
  refused({ gamma: -1.5 }, "gamma", "out of range");
  refused({ gamma: "2" }, "gamma", "must be a number");
  refused({ gamma: null }, "gamma", "must be a number");
});

test("name strings: any case in, canonical spelling kept; the message lists every name", () => {
  assert.is(patch({ timeSeparatorMode: "PULSE" }).timeSeparatorMode, "pulse");
  assert.is(patch({ timeSeparatorMode: "Blink" }).timeSeparatorMode, "blink");
  assert.is(patch({ dateOrder: "MONTHDAYYEAR" }).dateOrder, "monthDayYear");
  assert.is(patch({ dateSeparator: "Slash" }).dateSeparator, "slash");
  assert.is(patch({ dateYearMode: "fourdigit" }).dateYearMode, "fourDigit");
  assert.is(patch({ transitionDirection: "REVERSE" }).transitionDirection, "reverse");
  refused({ timeSeparatorMode: 1 }, "timeSeparatorMode", "must be one of: steady blink pulse");
  refused({ timeSeparatorMode: "flash" }, "timeSeparatorMode", "must be one of: steady blink pulse");
  refused({ dateOrder: "dmy" }, "dateOrder", "must be one of: dayMonthYear monthDayYear yearMonthDay");
  refused({ dateSeparator: "." }, "dateSeparator", "must be one of: dot slash dash");
  refused({ dateYearMode: null }, "dateYearMode", "must be one of: none twoDigit fourDigit");
  refused({ transitionDirection: "backwards" }, "transitionDirection", "must be one of: normal reverse");
});

test("transitionEffect: one of the 22 transitions, any case", () => {
  assert.is(patch({ transitionEffect: "ripple" }).transitionEffect, "Ripple");
  assert.is(patch({ transitionEffect: "RANDOM" }).transitionEffect, "Random");
  assert.is(patch({ transitionEffect: "interlace" }).transitionEffect, "Interlace");
  for (const name of TRANSITIONS) assert.is(patch({ transitionEffect: name.toUpperCase() }).transitionEffect, name);
  const f = refusal({ transitionEffect: "Sparkle" });
  assert.is(f.field, "transitionEffect");
  assert.ok(f.message.startsWith("must be one of: "));
  assert.is(f.message, "must be one of: " + TRANSITIONS.join(" "));
  assert.is(refusal({ transitionEffect: 3 }).message, f.message);
});

test("required colours: every form, stored packed; null and junk refused with the long message", () => {
  assert.is(patch({ textColor: "#FF8800" }).textColor, 0xFF8800);
  assert.is(patch({ textColor: "f80" }).textColor, 0xFF8800);
  assert.is(patch({ textColor: [255, 136, 0] }).textColor, 0xFF8800);
  assert.is(patch({ textColor: ["HSV", 32, 100, 100] }).textColor, 0xFF8800);
  assert.is(patch({ textColor: 16746496 }).textColor, 0xFF8800);
  assert.is(patch({ calendarTextColor: "#000000" }).calendarTextColor, 0);
  for (const k of ["textColor", "calendarHeaderColor", "calendarTextColor", "calendarBodyColor"]) {
    refused({ [k]: null }, k, COLOR_MSG);
    refused({ [k]: "#FF00AA80" }, k, COLOR_MSG);
    refused({ [k]: [1.5, 0, 0] }, k, COLOR_MSG);
  }
});

test("nullable colours: null is distinct from black, white is a value", () => {
  const black = patch({ timeColor: "#000000" });
  assert.is(black.timeColor, 0);
  assert.is((publicSettings(black) as any).timeColor, "#000000");
  assert.is(patch({ timeColor: null }, black).timeColor, null);
  assert.is(patch({ colorCorrection: "#FFFFFF" }).colorCorrection, 0xFFFFFF);
  assert.is(patch({ colorTint: "#FFD6AA" }).colorTint, 0xFFD6AA);
  for (const k of ["colorCorrection", "colorTint", "timeColor", "dateColor", "temperatureColor", "humidityColor", "batteryColor"]) {
    assert.is((patch({ [k]: [0, 0, 1] }) as any)[k], 1);
    refused({ [k]: "nope" }, k, "must be a color or null");
    refused({ [k]: 2700.5 }, k, "must be a color or null");
    refused({ [k]: false }, k, "must be a color or null");
  }
});

test("weekdayBar merges field by field; weekend days as lowercase names, calendar order, no repeats", () => {
  const s = patch({ weekdayBar: { weekendDays: ["saturday", "friday", "friday"] } });
  assert.equal(s.weekdayBar, Object.assign({}, defaultSettings().weekdayBar, { weekendDays: [5, 6] }));
  assert.equal((publicSettings(s) as any).weekdayBar.weekendDays, ["friday", "saturday"]);
  assert.equal(patch({ weekdayBar: { weekendDays: [] } }).weekdayBar.weekendDays, []);
  const t = patch({ weekdayBar: { show: false, weekendActiveColor: "#FFAA00", weekendInactiveColor: [102, 68, 0] } }, s);
  assert.equal(t.weekdayBar, {
    show: false, startOnMonday: true, weekendDays: [5, 6], activeColor: 0xFFFFFF, inactiveColor: 0x666666,
    weekendActiveColor: 0xFFAA00, weekendInactiveColor: 0x664400,
  });
  assert.equal(patch({ weekdayBar: {} }).weekdayBar, defaultSettings().weekdayBar);
});

test("weekdayBar refusals name the field inside the group", () => {
  refused({ weekdayBar: true }, "weekdayBar", "must be an object");
  refused({ weekdayBar: null }, "weekdayBar", "must be an object");
  refused({ weekdayBar: [] }, "weekdayBar", "must be an object");
  refused({ weekdayBar: { colour: "#FFF" } }, "weekdayBar.colour", "unknown field");
  refused({ weekdayBar: { startOnMonday: "yes" } }, "weekdayBar.startOnMonday", "must be a boolean");
  refused({ weekdayBar: { show: 1 } }, "weekdayBar.show", "must be a boolean");
  for (const days of ["sunday", ["Sunday"], ["sun"], ["SATURDAY"], [0], [null], { 0: "sunday" }]) {
    refused({ weekdayBar: { weekendDays: days } }, "weekdayBar.weekendDays", "must be an array of weekday names");
  }
  for (const k of ["activeColor", "inactiveColor", "weekendActiveColor", "weekendInactiveColor"]) {
    refused({ weekdayBar: { [k]: null } }, "weekdayBar." + k, "must be a color");
    refused({ weekdayBar: { [k]: "#12" } }, "weekdayBar." + k, "must be a color");
  }
  // The first bad field in the group's own order wins.
  refused({ weekdayBar: { show: 2, bogus: 1 } }, "weekdayBar.show", "must be a boolean");
  refused({ weekdayBar: { bogus: 1, show: 2 } }, "weekdayBar.bogus", "unknown field");
});

test("scroll merges field by field; a bare string is the mode", () => {
  const s = patch({ scroll: { mode: "loop", speed: 80 } });
  assert.equal(s.scroll, { mode: "loop", direction: "left", entry: "inline", whenFits: "static", speed: 80, gap: 8, holdMs: 1000 });
  const t = patch({ scroll: { direction: "RIGHT" } }, s);
  assert.is(t.scroll.mode, "loop");
  assert.is(t.scroll.speed, 80);
  assert.is(t.scroll.direction, "right");
  assert.equal(patch({ scroll: "bounce" }, s).scroll, Object.assign({}, s.scroll, { mode: "bounce" }));
  assert.is(patch({ scroll: { speed: 0, gap: 0, holdMs: 0 } }).scroll.speed, 0);
  assert.is(patch({ scroll: { speed: 100000 } }).scroll.speed, 100000);
  assert.is(patch({ scroll: { entry: "offscreen", whenFits: "scroll" } }).scroll.whenFits, "scroll");
  assert.is(s.scroll.direction, "left", "the base is not modified");
});

test("scroll refusals: unknown field, unknown word, negative or fractional number, repeat", () => {
  refused({ scroll: { repeat: 2 } }, "scroll.repeat", "unknown field");
  refused({ scroll: { speed: -1 } }, "scroll.speed", "out of range");
  refused({ scroll: { gap: -8 } }, "scroll.gap", "out of range");
  refused({ scroll: { holdMs: 1.5 } }, "scroll.holdMs", "must be an integer");
  refused({ scroll: { speed: "fast" } }, "scroll.speed", "must be an integer");
  refused({ scroll: { mode: "zigzag" } }, "scroll.mode", "must be one of: static wrap loop bounce");
  refused({ scroll: "zigzag" }, "scroll.mode", "must be one of: static wrap loop bounce");
  refused({ scroll: { direction: "up" } }, "scroll.direction", "must be one of: left right");
  refused({ scroll: { entry: 1 } }, "scroll.entry", "must be one of: inline offscreen");
  refused({ scroll: { whenFits: "never" } }, "scroll.whenFits", "must be one of: static scroll");
  refused({ scroll: 5 }, "scroll", "must be an object of scroll fields or a mode name");
  refused({ scroll: null }, "scroll", "must be an object of scroll fields or a mode name");
  refused({ scroll: ["loop"] }, "scroll", "must be an object of scroll fields or a mode name");
});

test("the first offending key in the payload's own order is the answer", () => {
  refused({ brightness: 999, bogus: 1, timeMode: 9 }, "brightness", "out of range");
  refused({ bogus: 1, brightness: 999 }, "bogus", "unknown field");
  refused({ timeMode: 9, brightness: 999 }, "timeMode", "out of range");
  refused({ uppercase: false, scroll: { speed: -1 }, textColor: null }, "scroll.speed", "out of range");
  refused({ textColor: null, scroll: { speed: -1 } }, "textColor", COLOR_MSG);
});

test("a refused patch leaves the current settings untouched", () => {
  const base = defaultSettings();
  const before = JSON.stringify(base);
  refusal({ brightness: 10, scroll: { speed: 5 }, weekdayBar: { show: false }, timeMode: 99 }, base);
  refusal({ weekdayBar: { show: false, weekendDays: ["x"] } }, base);
  refusal({ scroll: { mode: "loop", speed: -1 } }, base);
  assert.is(JSON.stringify(base), before);
  // An accepted one returns a new object and leaves the old one (and its groups) alone.
  const next = patch({ brightness: 10, scroll: { speed: 5 }, weekdayBar: { show: false } }, base);
  assert.is.not(next, base);
  assert.is(JSON.stringify(base), before);
  assert.is(next.brightness, 10);
});

test("weekdaysFrom: names on the wire, numbers in the store", () => {
  assert.equal(weekdaysFrom(["saturday", "sunday", "wednesday"], false), [0, 3, 6]);
  assert.equal(weekdaysFrom([6, 0, 6], true), [0, 6]);
  assert.is(weekdaysFrom([7], true), null);
  assert.is(weekdaysFrom([1.5], true), null);
  assert.is(weekdaysFrom(["sunday"], true), null);
  assert.is(weekdaysFrom([0], false), null);
  assert.is(weekdaysFrom("sunday", false), null);
});

test("every row of the table parses into a known kind and is found by its name", () => {
  const kinds = ["bool", "int", "positive", "enum", "transition", "color", "ncolor", "days", "scroll", "group"];
  const names: string[] = [];
  eachField((spec) => {
    names.push(spec.name);
    assert.ok(kinds.includes(spec.kind), spec.name);
    if (spec.kind === "int") assert.ok(spec.lo <= spec.hi && !isNaN(spec.lo), spec.name);
    assert.equal(findField(spec.name), spec);
  });
  assert.is(names.length, 42 + 7);
  assert.is(findField("weekdayBar.weekendDays")!.def, "0,6");
  assert.is(findField("appDurationMs")!.hi, Infinity);
  assert.is(findField("weekday"), null);
  assert.is(findField("Brightness"), null);
  assert.is(findField(""), null);
  assert.is(findField("autoBrightness bool false|brightness"), null);
});

test.run();
