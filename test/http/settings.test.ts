// The settings resource: read, partial update, persistence across a restart, reset.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTarget, call, type Answer, type Target } from "./target";
import { afterTornWrite, fillFlash } from "./flash-faults";

const COLOR_MSG = 'must be a color ("#RGB", "#RRGGBB", [r,g,b], ["HSV",h,s,v] or a packed integer)';

const DEFAULTS = {
  autoBrightness: false, brightness: 120, saturation: 100, gamma: 1.9, colorCorrection: null, colorTint: null,
  textColor: "#FFFFFF", uppercase: true,
  scroll: { mode: "wrap", direction: "left", entry: "inline", whenFits: "static", speed: 100, gap: 8, holdMs: 1000 },
  autoTransition: true, appDurationMs: 7000, transitionEffect: "Rain", transitionDirection: "normal",
  transitionDurationMs: 1000, timeMode: 1, timeColor: null, calendarHeaderColor: "#FF0000",
  calendarTextColor: "#000000", calendarBodyColor: "#FFFFFF", time24h: true, timeLeadingZero: true,
  timeShowSeconds: false, timeShowAmPm: false, timeSeparatorMode: "pulse", dateOrder: "dayMonthYear",
  dateSeparator: "dot", dateYearMode: "twoDigit", dateShowWeekday: false, dateMonthNames: false, dateColor: null,
  weekdayBar: {
    show: true, startOnMonday: true, weekendDays: ["sunday", "saturday"], activeColor: "#FFFFFF",
    inactiveColor: "#666666", weekendActiveColor: "#FFFFFF", weekendInactiveColor: "#666666",
  },
  useCelsius: true, temperatureColor: null, humidityColor: null, batteryColor: null, soundEnabled: true,
  buzzerVolume: 80, dfplayerVolume: 80, mp3Volume: 70, radioVolume: 60, radioMeta: true, blockNavigation: false,
};

function assertRefused(r: Answer, field: string, message: string): void {
  assert.is(r.status, 422, r.text);
  assert.equal(r.body, { error: { code: "validationFailed", message, field } });
}

async function getSettings(t: Target): Promise<any> {
  const r = await call(t, "GET", "/api/v1/settings");
  assert.is(r.status, 200, r.text);
  assert.is(r.headers.get("content-type"), "application/json");
  return r.body;
}

async function restart(t: Target, path: string): Promise<Answer> {
  const booted = t.nextBoot();
  const r = await call(t, "POST", path);
  await booted;
  await t.waitForServer();
  return r;
}

const t = suite("settings");
let dut: Target;

t.before(async () => { dut = await startTarget(); });
t.after(async () => { await dut.stop(); });

t("GET answers every key with its default, in order", async () => {
  const s = await getSettings(dut);
  assert.equal(s, DEFAULTS);
  assert.equal(Object.keys(s), Object.keys(DEFAULTS));
  assert.equal(Object.keys(s.weekdayBar), Object.keys(DEFAULTS.weekdayBar));
});

t("PATCH answers all settings after the change; any case and colour form in, canonical out", async () => {
  const r = await call(dut, "PATCH", "/api/v1/settings", {
    body: {
      brightness: 200, transitionEffect: "ripple", timeSeparatorMode: "BLINK", timeColor: [0, 170, 255],
      colorTint: "fd6", dateColor: ["HSV", 120, 100, 100], textColor: 16746496, gamma: 2,
      scroll: { mode: "loop", speed: 80 }, weekdayBar: { weekendDays: ["saturday", "friday"], weekendActiveColor: "#ffaa00" },
    },
  });
  assert.is(r.status, 200, r.text);
  const expected = Object.assign({}, DEFAULTS, {
    brightness: 200, transitionEffect: "Ripple", timeSeparatorMode: "blink", timeColor: "#00AAFF",
    colorTint: "#FFDD66", dateColor: "#00FF00", textColor: "#FF8800", gamma: 2,
    scroll: Object.assign({}, DEFAULTS.scroll, { mode: "loop", speed: 80 }),
    weekdayBar: Object.assign({}, DEFAULTS.weekdayBar, { weekendDays: ["friday", "saturday"], weekendActiveColor: "#FFAA00" }),
  });
  assert.equal(r.body, expected);
  assert.equal(await getSettings(dut), expected);
});

t("what GET returns, PATCH accepts unchanged", async () => {
  const before = await getSettings(dut);
  const r = await call(dut, "PATCH", "/api/v1/settings", { body: before });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, before);
});

t("nullable colours: black is kept as black, null goes back to inherit", async () => {
  let r = await call(dut, "PATCH", "/api/v1/settings", { body: { timeColor: "#000000", colorCorrection: "#FFFFFF" } });
  assert.is(r.body.timeColor, "#000000");
  assert.is(r.body.colorCorrection, "#FFFFFF");
  r = await call(dut, "PATCH", "/api/v1/settings", { body: { timeColor: null, colorCorrection: null } });
  assert.is(r.body.timeColor, null);
  assert.is(r.body.colorCorrection, null);
});

t("a bare string for scroll sets the mode and keeps the other fields", async () => {
  await call(dut, "PATCH", "/api/v1/settings", { body: { scroll: { speed: 55, holdMs: 0 } } });
  const r = await call(dut, "PATCH", "/api/v1/settings", { body: { scroll: "bounce" } });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body.scroll, { mode: "bounce", direction: "left", entry: "inline", whenFits: "static", speed: 55, gap: 8, holdMs: 0 });
});

t("422 with the first offending key in the payload's order, and nothing changes", async () => {
  const before = await getSettings(dut);
  const cases: [unknown, string, string][] = [
    [{ brightness: 999 }, "brightness", "out of range"],
    [{ brightness: 120.5 }, "brightness", "must be an integer"],
    [{ brightness: true }, "brightness", "must be an integer"],
    [{ timeMode: 7 }, "timeMode", "out of range"],
    [{ saturation: 101 }, "saturation", "out of range"],
    [{ gamma: 0 }, "gamma", "out of range"],
    [{ appDurationMs: -1 }, "appDurationMs", "out of range"],
    [{ uppercase: "yes" }, "uppercase", "must be a boolean"],
    [{ colour: "#FFF" }, "colour", "unknown field"],
    [{ timeSeparatorMode: 1 }, "timeSeparatorMode", "must be one of: steady blink pulse"],
    [{ dateYearMode: "short" }, "dateYearMode", "must be one of: none twoDigit fourDigit"],
    [{ textColor: null }, "textColor", COLOR_MSG],
    [{ calendarBodyColor: "#FF00AA80" }, "calendarBodyColor", COLOR_MSG],
    [{ dateColor: "blue" }, "dateColor", "must be a color or null"],
    [{ weekdayBar: { weekendDays: ["Sunday"] } }, "weekdayBar.weekendDays", "must be an array of weekday names"],
    [{ weekdayBar: { startOnMonday: 1 } }, "weekdayBar.startOnMonday", "must be a boolean"],
    [{ weekdayBar: { activeColor: null } }, "weekdayBar.activeColor", "must be a color"],
    [{ weekdayBar: { today: "#FFF" } }, "weekdayBar.today", "unknown field"],
    [{ scroll: { speed: -1 } }, "scroll.speed", "out of range"],
    [{ scroll: { repeat: 2 } }, "scroll.repeat", "unknown field"],
    [{ scroll: { mode: "spin" } }, "scroll.mode", "must be one of: static wrap loop bounce"],
    [{ brightness: 10, saturation: 50, timeMode: 9, bogus: 1 }, "timeMode", "out of range"],
    [{ bogus: 1, timeMode: 9 }, "bogus", "unknown field"],
    [{ autoTransition: false, scroll: { mode: "loop", gap: -2 }, textColor: null }, "scroll.gap", "out of range"],
  ];
  for (const [body, field, message] of cases) {
    assertRefused(await call(dut, "PATCH", "/api/v1/settings", { body }), field, message);
  }
  const effect = await call(dut, "PATCH", "/api/v1/settings", { body: { transitionEffect: "Sparkle" } });
  assert.is(effect.status, 422);
  assert.is(effect.body.error.field, "transitionEffect");
  assert.ok(effect.body.error.message.startsWith("must be one of: Random Slide Dim"), effect.text);
  assert.ok(effect.body.error.message.endsWith("Rain Melt Interlace"), effect.text);
  assert.equal(await getSettings(dut), before);
});

t("transport rules: empty body 400, {} changes nothing, wrong type 415, method override, 405", async () => {
  const before = await getSettings(dut);
  const empty = await call(dut, "PATCH", "/api/v1/settings", { body: "", headers: { "Content-Type": "application/json" } });
  assert.is(empty.status, 400);
  assert.is(empty.body.error.code, "invalidJson");
  const bad = await call(dut, "PATCH", "/api/v1/settings", { body: "{brightness:1}" });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.code, "invalidJson");
  const none = await call(dut, "PATCH", "/api/v1/settings", { body: {} });
  assert.is(none.status, 200);
  assert.equal(none.body, before);
  const form = await call(dut, "PATCH", "/api/v1/settings", { body: "brightness=5", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  assert.is(form.status, 415);
  assert.is(form.body.error.code, "unsupportedMediaType");
  const arr = await call(dut, "PATCH", "/api/v1/settings", { body: [{ brightness: 5 }] });
  assert.is(arr.status, 422);
  assert.is(arr.body.error.code, "validationFailed");
  assert.is(arr.body.error.field, undefined);
  const over = await call(dut, "POST", "/api/v1/settings", { body: { brightness: 77 }, headers: { "X-HTTP-Method-Override": "patch" } });
  assert.is(over.status, 200, over.text);
  assert.is(over.body.brightness, 77);
  const wrong = await call(dut, "PUT", "/api/v1/settings", { body: { brightness: 5 } });
  assert.is(wrong.status, 405);
  assert.equal(wrong.body, { error: { code: "methodNotAllowed", message: "allowed method(s): GET, PATCH" } });
  const resetGet = await call(dut, "GET", "/api/v1/settings/reset");
  assert.is(resetGet.status, 405);
  assert.is(resetGet.body.error.message, "allowed method(s): POST");
  assert.is((await getSettings(dut)).brightness, 77);
});

t("settings survive a reboot", async () => {
  const r = await call(dut, "PATCH", "/api/v1/settings", {
    body: { brightness: 42, transitionEffect: "Fade", dateColor: "#123456", weekdayBar: { weekendDays: [] }, scroll: { direction: "right" } },
  });
  assert.is(r.status, 200, r.text);
  const before = r.body;
  const boot = await restart(dut, "/api/v1/device/reboot");
  assert.equal(boot.body, { ok: true });
  const after = await getSettings(dut);
  assert.equal(after, before);
  assert.is(after.brightness, 42);
  assert.equal(after.weekdayBar.weekendDays, []);
});

t("reset answers first, erases the stored settings and reboots into the defaults; the rest stays", async () => {
  assert.is((await call(dut, "PUT", "/api/v1/system", { body: { hostname: "hall-clock" } })).status, 200);
  assert.is((await call(dut, "PATCH", "/api/v1/settings", { body: { brightness: 9 } })).status, 200);
  const r = await restart(dut, "/api/v1/settings/reset");
  assert.is(r.status, 200);
  assert.equal(r.body, { ok: true });
  assert.equal(await getSettings(dut), DEFAULTS);
  const d = (await call(dut, "GET", "/api/v1/device")).body;
  assert.is(d.resetReason, "software");
  assert.is(d.wifi.state, "connected");
  assert.is((await call(dut, "GET", "/api/v1/system")).body.hostname, "hall-clock");
  if (dut.sim) assert.equal(dut.sim.device.storage.list(/^set\./), []);
});

t.run();

// ---------------------------------------------------------------------------------------------
const store = suite("settings storage");

store("a copy torn by a power cut is passed over: the previous settings come back", async () => {
  await afterTornWrite("set", async (first) => {
    assert.is((await call(first, "PATCH", "/api/v1/settings", { body: { brightness: 11 } })).status, 200);
    assert.is((await call(first, "PATCH", "/api/v1/settings", { body: { brightness: 22 } })).status, 200);
  }, async (second) => {
    assert.is((await getSettings(second)).brightness, 11);
  });
});

store("a full flash answers 507 and nothing changes", async () => {
  const dut = await startTarget();
  if (!dut.sim) { await dut.stop(); return; }
  fillFlash(dut.sim.device.storage);
  const r = await call(dut, "PATCH", "/api/v1/settings", { body: { brightness: 3, timeMode: 4 } });
  assert.is(r.status, 507, r.text);
  assert.equal(r.body, { error: { code: "insufficientStorage", message: "storage capacity reached" } });
  const s = await getSettings(dut);
  assert.is(s.brightness, 120);
  assert.is(s.timeMode, 1);
  await dut.stop();
});

store.run();

// ---------------------------------------------------------------------------------------------
const setup = suite("settings in setup mode");

setup("the settings routes are closed during provisioning", async () => {
  const fresh = await startTarget({ setup: true });
  for (const [method, p, body] of [["GET", "/api/v1/settings", undefined], ["PATCH", "/api/v1/settings", { brightness: 1 }],
    ["POST", "/api/v1/settings/reset", undefined]] as [string, string, unknown][]) {
    const r = await call(fresh, method, p, body === undefined ? {} : { body });
    assert.is(r.status, 403, method + " " + p);
    assert.equal(r.body, { error: { code: "forbidden", message: "not available during provisioning" } });
  }
  await fresh.stop();
});

setup.run();
