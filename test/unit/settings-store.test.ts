import { test } from "uvu";
import * as assert from "uvu/assert";
import { SettingsStore, wipeSettings } from "../../firmware/settings/store";
import { patchSettings } from "../../firmware/settings/patch";
import { defaultSettings } from "../../firmware/settings/schema";
import type { Settings } from "../../firmware/settings/types";
import { MemFlash } from "./mem-flash";

/** Writes one stored copy the way AtomicRecord lays it out. */
function plant(flash: MemFlash, slot: number, seq: number, value: unknown): void {
  flash.plant("set", slot, seq, value);
}

function loaded(flash: MemFlash): SettingsStore {
  const s = new SettingsStore(flash);
  s.load();
  return s;
}

function withChange(s: Settings, over: object): Settings {
  return Object.assign({}, s, over) as Settings;
}

test("empty flash: the defaults", () => {
  const s = loaded(new MemFlash());
  assert.equal(s.current, defaultSettings());
});

test("save then load round-trips; colours and weekdays are stored as numbers", () => {
  const flash = new MemFlash();
  const s = loaded(flash);
  const next = withChange(s.current, {
    brightness: 33, timeColor: 0x00AAFF, colorTint: 0, transitionEffect: "Fade", gamma: 2.4,
    scroll: Object.assign({}, s.current.scroll, { mode: "loop", speed: 80 }),
    weekdayBar: Object.assign({}, s.current.weekdayBar, { weekendDays: [5, 6], weekendActiveColor: 0xFFAA00 }),
  });
  assert.ok(s.save(next));
  assert.is(s.current, next);
  const stored = flash.files["set.0"];
  assert.ok(stored.indexOf('"timeColor":43775') > 0, stored);
  assert.ok(stored.indexOf('"weekendDays":[5,6]') > 0, stored);
  assert.ok(stored.indexOf('"colorCorrection":null') > 0, stored);
  assert.equal(loaded(flash).current, next);
  // The next save goes to the other copy; the newest wins.
  assert.ok(s.save(withChange(next, { brightness: 44 })));
  assert.ok(flash.files["set.0"] !== undefined && flash.files["set.1"] !== undefined);
  assert.is(loaded(flash).current.brightness, 44);
});

test("refused write: false, nothing changes in memory or on flash, no listener call", () => {
  const flash = new MemFlash();
  const s = loaded(flash);
  const first = withChange(s.current, { brightness: 10 });
  assert.ok(s.save(first));
  let calls = 0;
  s.onChange(() => { calls++; });
  flash.refuse = true;
  assert.is(s.save(withChange(first, { brightness: 20 })), false);
  assert.is(s.current, first);
  assert.is(calls, 0);
  flash.refuse = false;
  assert.is(loaded(flash).current.brightness, 10);
});

test("a torn newest copy is passed over: the older one comes back", () => {
  const flash = new MemFlash();
  const s = loaded(flash);
  assert.ok(s.save(withChange(s.current, { brightness: 11 })));
  assert.ok(s.save(withChange(s.current, { brightness: 22 })));
  const newest = flash.files["set.1"].indexOf('"brightness":22') > 0 ? "set.1" : "set.0";
  flash.files[newest] = flash.files[newest].slice(0, flash.files[newest].length - 9);
  assert.is(loaded(flash).current.brightness, 11);
  // Both copies damaged: the defaults.
  const other = newest === "set.1" ? "set.0" : "set.1";
  flash.files[other] = flash.files[other].replace("11", "12");
  assert.equal(loaded(flash).current, defaultSettings());
});

test("missing keys take defaults; invalid or unknown ones are dropped key by key", () => {
  const flash = new MemFlash();
  plant(flash, 0, 4, {
    brightness: 999, saturation: 50, gamma: 0, textColor: "junk", timeColor: 255, dateColor: null,
    colorTint: -4, transitionEffect: "fade", timeSeparatorMode: "Blink", timeMode: 2.5, bogus: true,
    scroll: { mode: "bounce", holdMs: 5 },
    weekdayBar: { show: false, weekendDays: ["friday"], inactiveColor: 0x123456, activeColor: null, extra: 1 },
  });
  const s = loaded(flash).current as Settings & { [k: string]: unknown };
  const d = defaultSettings();
  assert.is(s.brightness, 120);
  assert.is(s.saturation, 50);
  assert.is(s.gamma, 1.9);
  assert.is(s.textColor, 0xFFFFFF);
  assert.is(s.timeColor, 255);
  assert.is(s.dateColor, null);
  assert.is(s.colorTint, null);
  assert.is(s.transitionEffect, "Fade");
  assert.is(s.timeSeparatorMode, "blink");
  assert.is(s.timeMode, 1);
  assert.is(s.bogus, undefined);
  assert.equal(s.scroll, Object.assign({}, d.scroll, { mode: "bounce", holdMs: 5 }));
  assert.equal(s.weekdayBar, Object.assign({}, d.weekdayBar, { show: false, inactiveColor: 0x123456 }));
  assert.is(Object.keys(s).length, 42);
});

test("a stored value that is not an object, or a group that is not one, leaves the defaults", () => {
  const flash = new MemFlash();
  plant(flash, 1, 2, [1, 2, 3]);
  assert.equal(loaded(flash).current, defaultSettings());
  plant(flash, 1, 3, { weekdayBar: "yes", scroll: 7, brightness: 9 });
  const s = loaded(flash).current;
  assert.is(s.brightness, 9);
  assert.equal(s.weekdayBar, defaultSettings().weekdayBar);
  assert.equal(s.scroll, defaultSettings().scroll);
});

test("patch: validates, saves, tells listeners; refusals change nothing", () => {
  const flash = new MemFlash();
  const s = loaded(flash);
  const seen: Settings[] = [];
  s.onChange((c) => { seen.push(c); });
  assert.is(patchSettings(s, { body: { brightness: 200, scroll: "loop" } }), null);
  assert.is(s.current.brightness, 200);
  assert.is(s.current.scroll.mode, "loop");
  assert.is(seen.length, 1);
  assert.is(seen[0], s.current);
  assert.is(loaded(flash).current.brightness, 200);

  const before = s.current;
  const f = patchSettings(s, { body: { brightness: 5, timeMode: 9 } });
  assert.equal(f, { status: 422, code: "validationFailed", message: "out of range", field: "timeMode" });
  assert.is(s.current, before);
  assert.is(s.current.brightness, 200);
  assert.is(seen.length, 1);

  flash.refuse = true;
  const full = patchSettings(s, { body: { brightness: 7 } });
  assert.equal(full, { status: 507, code: "insufficientStorage", message: "storage capacity reached" });
  assert.is(s.current, before);
  assert.is(seen.length, 1);
  // An empty object is no change at all, not even a write.
  assert.is(patchSettings(s, { body: {} }), null);
  assert.is(seen.length, 1);
});

test("wipeSettings erases both copies and returns to the defaults", () => {
  const flash = new MemFlash();
  const s = loaded(flash);
  assert.ok(s.save(withChange(s.current, { brightness: 1 })));
  assert.ok(s.save(withChange(s.current, { brightness: 2 })));
  let calls = 0;
  s.onChange(() => { calls++; });
  wipeSettings(s);
  assert.equal(Object.keys(flash.files), []);
  assert.equal(s.current, defaultSettings());
  assert.is(calls, 1);
  assert.equal(loaded(flash).current, defaultSettings());
});

test("other records on the same flash are not touched", () => {
  const flash = new MemFlash();
  flash.files["sys.0"] = "keep";
  const s = loaded(flash);
  assert.ok(s.save(withChange(s.current, { brightness: 3 })));
  wipeSettings(s);
  assert.equal(flash.files, { "sys.0": "keep" });
});

test.run();
