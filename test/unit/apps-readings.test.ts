import { test } from "uvu";
import * as assert from "uvu/assert";
import { BATTERY, HUMIDITY, ReadingApp, TEMPERATURE, shownTemperature } from "../../firmware/apps/builtin/readings";
import type { ReadingKind } from "../../firmware/apps/builtin/readings";
import { batteryLevel, relativeHumidity, temperatureC } from "../../firmware/apps/builtin/sensors";
import { drawBattery, drawDroplet, drawThermometer } from "../../firmware/apps/builtin/icons";
import { builtinApps } from "../../firmware/apps/builtin/index";
import { isPresent } from "../../firmware/apps/present";
import { bareHost } from "./apps-support";
import { textKit } from "../../firmware/apps/text-kit";
import { AdcSampler } from "../../firmware/device/adc";
import type { Runtime } from "../../firmware/device/runtime";
import { defaultSettings } from "../../firmware/settings/schema";
import type { Settings } from "../../firmware/settings/types";
import { countColor, expectFrame, localTime, renderApp } from "../harness/frame-fixture";
import type { Frame } from "../harness/frame-fixture";
import { fontFiles, serveStorage, storageOf } from "./text-support";

let restore = () => undefined as void;
test.before(() => {
  restore = serveStorage(storageOf(fontFiles()));
});
test.after(() => restore());

const NOW = localTime(2026, 3, 10, 9, 5, 7);

/** Fixed readings for the pages under test, one per kind. */
interface SensorSource {
  temperatureC(): number | null;
  humidity(): number | null;
  batteryPercent(): number | null;
}

function source(values: Partial<{ t: number | null; h: number | null; b: number | null }> = {}): SensorSource {
  return {
    temperatureC: () => (values.t === undefined ? 21.46 : values.t),
    humidity: () => (values.h === undefined ? 42.4 : values.h),
    batteryPercent: () => (values.b === undefined ? 88 : values.b),
  };
}

/** The page of `kind` as its module makes it, reading from `src`. */
function page(kind: ReadingKind, src: SensorSource, decimals: number): ReadingApp {
  const read = kind === TEMPERATURE ? src.temperatureC : kind === HUMIDITY ? src.humidity : src.batteryPercent;
  const icon = kind === TEMPERATURE ? drawThermometer : kind === HUMIDITY ? drawDroplet : drawBattery;
  return new ReadingApp(kind, read, icon, () => ({ tempDecimals: decimals }), textKit());
}

function render(kind: ReadingKind, src: SensorSource, patch: Partial<Settings> = {}, decimals = 0): Frame {
  const app = page(kind, src, decimals);
  return renderApp(app, { local: NOW, settings: Object.assign(defaultSettings(), patch) });
}

test("shown temperature: unit, rounding, no negative zero", () => {
  assert.is(shownTemperature(21.46, true, 0), 21);
  assert.is(shownTemperature(21.46, true, 1), 21.5);
  assert.is(shownTemperature(21.456, true, 2), 21.46);
  assert.is(shownTemperature(21.46, false, 1), 70.6);
  assert.is(shownTemperature(-40, false, 0), -40);
  assert.is(Object.is(shownTemperature(-0.04, true, 1), 0), true);
  assert.is(Object.is(shownTemperature(-0.4, true, 0), 0), true);
});

test("temperature: thermometer and 21°C in temperatureColor", () => {
  const f = render(TEMPERATURE, source(), { temperatureColor: 0xffaa00 });
  expectFrame("temperature-celsius", f);
});

test("temperature: one decimal in °F; a text too wide for the icon drops it", () => {
  expectFrame("temperature-fahrenheit", render(TEMPERATURE, source(), { useCelsius: false }, 1));
  const wide = render(TEMPERATURE, source(), { useCelsius: false }, 2);
  expectFrame("temperature-fahrenheit-2dec", wide);
  assert.is(countColor(wide, 0xff0000), 0, "no mercury");
});

test("no reading yet: dashes", () => {
  expectFrame("temperature-no-reading", render(TEMPERATURE, source({ t: null })));
});

test("humidity: droplet and 42% in humidityColor", () => {
  expectFrame("humidity", render(HUMIDITY, source(), { humidityColor: 0x00ffff }));
});

test("battery: cell filled in fifths and 88%; low charge turns the fill red", () => {
  expectFrame("battery", render(BATTERY, source()));
  expectFrame("battery-low", render(BATTERY, source({ b: 14 }), { batteryColor: 0xff0000 }));
  const full = render(BATTERY, source({ b: 100 }));
  assert.is(countColor(full, 0x00ff00), 15);
});

test("null colours inherit textColor", () => {
  for (const kind of [TEMPERATURE, HUMIDITY, BATTERY] as ReadingKind[]) {
    assert.ok(countColor(render(kind, source(), { textColor: 0xff00ff }), 0xff00ff) >= 10, "kind " + kind);
  }
});

test("the text is laid out again only when the shown value changes", () => {
  let t = 21.46;
  const src = Object.assign(source(), { temperatureC: () => t });
  const app = page(TEMPERATURE, src, 0) as unknown as { line: unknown };
  const s = defaultSettings();
  const draw = () => renderApp(app as unknown as ReadingApp, { local: NOW, settings: s });
  draw();
  const line = app.line;
  t = 21.3;
  draw();
  assert.ok(app.line === line, "still 21");
  t = 21.6;
  draw();
  assert.ok(app.line !== line, "now 22");
});

test("present only with the hardware, from the runtime's parts; the built-in list and its order", () => {
  const apps = builtinApps(bareHost());
  assert.equal(apps.map((a) => a.name), ["Time", "Date", "Temperature", "Humidity", "Battery"]);
  assert.equal(apps.map((a) => isPresent(a)), [true, true, false, false, false]);
  assert.ok(apps.every((a) => a.origin === "builtin"));
  const env = { valid: false, t: 0, h: 0, sensor: { humidity: true } };
  const fitted = builtinApps(bareHost({ env, battery: new AdcSampler(34) } as unknown as Partial<Runtime>));
  assert.equal(fitted.map((a) => isPresent(a)), [true, true, true, true, true]);
  env.sensor.humidity = false;
  assert.equal(fitted.map((a) => isPresent(a)), [true, true, true, false, true], "a sensor without humidity");
});

test("the reading apps' modules make pages that read the runtime, calibrated by the config", () => {
  const env = { valid: true, t: 30.04, h: 40.2, sensor: { humidity: true } };
  const battery = new AdcSampler(34);
  battery.push(2912);
  const host = bareHost({ env, battery } as unknown as Partial<Runtime>, { tempOffset: -9, humOffset: 2 });
  const s = Object.assign(defaultSettings(), { temperatureColor: 0xffaa00 });
  const page = (name: string) => {
    const app = builtinApps(host).find((a) => a.name === name)!;
    assert.ok(app.load!(), name + " loads");
    return app;
  };
  // 21.04 degrees: the same frame as the fixture's 21.46.
  expectFrame("temperature-celsius", renderApp(page("Temperature"), { local: NOW, settings: s }));
  assert.equal(renderApp(page("Humidity"), { local: NOW, settings: s }),
    render(HUMIDITY, source({ h: 42.2 }), {}), "42%");
  assert.equal(renderApp(page("Battery"), { local: NOW, settings: s }), render(BATTERY, source({ b: 100 })), "100%");
});

test("runtime readings: offsets as the device state applies them, humidity clamped, battery curve", () => {
  const env = { valid: true, t: 30.04, h: 97, sensor: { humidity: true } };
  const battery = new AdcSampler(34);
  const rt = { env, battery } as unknown as Runtime;
  const cal = { tempOffset: -9, humOffset: 5, batteryDividerRatio: 1.79 };
  const config = () => cal;
  assert.ok(Math.abs((temperatureC(rt, config) as number) - 21.04) < 1e-9);
  assert.is(relativeHumidity(rt, config), 100);
  assert.is(batteryLevel(rt, config), null, "no sample yet");
  battery.push(2912); // 2347 mV at the pin: 4.20 V on the stock divider
  assert.is(batteryLevel(rt, config), 100);
  env.valid = false;
  assert.is(temperatureC(rt, config), null);
  env.valid = true;
  env.sensor.humidity = false;
  assert.is(relativeHumidity(rt, config), null);
  const bare = { env: null, battery: null } as unknown as Runtime;
  assert.is(temperatureC(bare, config), null);
  assert.is(relativeHumidity(bare, config), null);
  assert.is(batteryLevel(bare, config), null);
});

test.run();
