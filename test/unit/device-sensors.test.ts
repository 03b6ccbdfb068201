import { test } from "uvu";
import * as assert from "uvu/assert";
import { SimBme280, SimHtu21df, SimI2C, SimSht31, boschRaw, DEFAULT_TRIM } from "../harness/sensors";
import { detectSensor, SENSORS } from "../../firmware/device/sensors/detect";
import { sampleEnv } from "../../firmware/device/sensors/index";
import { compensatePressure, fineTemperature, parseCalibration } from "../../firmware/device/sensors/bosch";

const SDA = 21;
const SCL = 22;

function bus(sda = SDA, scl = SCL): I2C {
  const b = new SimI2C();
  b.setup({ sda, scl, bitrate: 100000 });
  return b as unknown as I2C;
}

function near(actual: number, expected: number, tol: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected} (tolerance ${tol})`);
}

test.before.each(() => SimI2C.reset());

test("table lists the sensors in probe order", () => {
  assert.equal(SENSORS.map((s) => s.name), ["BME280", "BMP280", "HTU21DF", "SHT31"]);
  assert.equal(SENSORS[0].addrs, [0x76, 0x77]);
});

test("BME280 at 0x76: detected, readings within tolerance", () => {
  const chip = new SimBme280();
  SimI2C.attach(chip, 0x76, SDA, SCL);
  const envs = [
    { temperature: 22.5, humidity: 45, pressureHpa: 1013.25 },
    { temperature: -10.37, humidity: 88.8, pressureHpa: 955.4 },
    { temperature: 41.02, humidity: 3.5, pressureHpa: 1040.7 },
    { temperature: 0, humidity: 60, pressureHpa: 700 },
  ];
  const s = detectSensor(bus());
  assert.ok(s, "detected");
  assert.is(s!.sensor.name, "BME280");
  assert.is(s!.addr, 0x76);
  for (const env of envs) {
    chip.setEnvironment(env);
    sampleEnv(s!);
    assert.ok(s!.valid);
    near(s!.t, env.temperature, 0.01, "temperature");
    near(s!.h, env.humidity, 0.01, "humidity");
    near(s!.p, env.pressureHpa, 0.01, "pressure");
  }
});

test("BME280 is configured: normal mode, x1 oversampling, humidity on", () => {
  SimI2C.attach(new SimBme280(), 0x76, SDA, SCL);
  detectSensor(bus());
  const writes = SimI2C.log.filter((l) => l.startsWith("w 76 ") && l.length > 8);
  assert.equal(writes, ["w 76 f2 01", "w 76 f5 a0", "w 76 f4 27"]);
});

test("the harness and the firmware formulas agree on the raw words", () => {
  const env = { temperature: 25, humidity: 50, pressureHpa: 1000 };
  const raw = boschRaw(DEFAULT_TRIM, env);
  const t = DEFAULT_TRIM;
  const a = new Uint8Array(26);
  [t.T1, t.T2, t.T3, t.P1, t.P2, t.P3, t.P4, t.P5, t.P6, t.P7, t.P8, t.P9].forEach((w, i) => {
    a[2 * i] = w & 0xff;
    a[2 * i + 1] = (w >> 8) & 0xff;
  });
  const c = parseCalibration(a, null);
  const tf = fineTemperature(c, raw.adcT);
  near(tf / 5120, 25, 0.01, "temperature");
  near(compensatePressure(c, raw.adcP, tf) / 100, 1000, 0.01, "pressure");
});

test("BMP280 (chip id 0x58) at 0x77: temperature and pressure only", () => {
  const chip = new SimBme280({ chipId: 0x58, env: { temperature: 18.3, humidity: 0, pressureHpa: 990.1 } });
  SimI2C.attach(chip, 0x77, SDA, SCL);
  const s = detectSensor(bus());
  assert.ok(s);
  assert.is(s!.sensor.name, "BMP280");
  assert.is(s!.addr, 0x77);
  assert.is(s!.sensor.humidity, false);
  assert.is(s!.sensor.pressure, true);
  sampleEnv(s!);
  assert.ok(s!.valid);
  near(s!.t, 18.3, 0.01, "temperature");
  near(s!.p, 990.1, 0.01, "pressure");
});

test("no sensor when nothing answers (software bus reads 0xFF)", () => {
  assert.is(detectSensor(bus()), null);
});

test("no sensor when nothing answers (hardware bus throws on NACK)", () => {
  SimI2C.mode = "hardware";
  assert.is(detectSensor(bus()), null);
});

test("no sensor when the chip sits on other pins", () => {
  SimI2C.attach(new SimBme280(), 0x76, 4, 5);
  assert.is(detectSensor(bus()), null);
});

test("probe order: a BME280 wins over an SHT31 and an HTU21DF", () => {
  SimI2C.attach(new SimSht31(), 0x44, SDA, SCL);
  SimI2C.attach(new SimHtu21df(), 0x40, SDA, SCL);
  SimI2C.attach(new SimBme280(), 0x77, SDA, SCL);
  const s = detectSensor(bus());
  assert.is(s!.sensor.name, "BME280");
  assert.is(s!.addr, 0x77);
  // 0x76 was asked first, then 0x77.
  const ids = SimI2C.log.filter((l) => l.endsWith(" d0"));
  assert.equal(ids.slice(0, 2), ["w 76 d0", "w 77 d0"]);
});

test("probe order: HTU21DF before SHT31", () => {
  SimI2C.attach(new SimSht31(), 0x44, SDA, SCL);
  SimI2C.attach(new SimHtu21df(), 0x40, SDA, SCL);
  assert.is(detectSensor(bus())!.sensor.name, "HTU21DF");
});

test("probe order: BME280 before BMP280 at the same address pair", () => {
  SimI2C.attach(new SimBme280({ chipId: 0x58 }), 0x76, SDA, SCL);
  SimI2C.attach(new SimBme280(), 0x77, SDA, SCL);
  const s = detectSensor(bus());
  assert.is(s!.sensor.name, "BME280");
  assert.is(s!.addr, 0x77);
});

for (const mode of ["software", "hardware"] as const) {
  test(`SHT31 at 0x45 (${mode} bus): one conversion per read`, () => {
    SimI2C.mode = mode;
    const chip = new SimSht31({ temperature: 23.4, humidity: 51.2, pressureHpa: 0 });
    SimI2C.attach(chip, 0x45, SDA, SCL);
    const s = detectSensor(bus());
    assert.is(s!.sensor.name, "SHT31");
    assert.is(s!.addr, 0x45);
    assert.is(s!.sensor.pressure, false);
    sampleEnv(s!);
    assert.ok(s!.valid);
    near(s!.t, 23.4, 0.01, "temperature");
    near(s!.h, 51.2, 0.01, "humidity");
    chip.setEnvironment({ temperature: -5, humidity: 90 });
    sampleEnv(s!); // collects the conversion started before the change
    sampleEnv(s!);
    near(s!.t, -5, 0.01, "temperature");
    near(s!.h, 90, 0.01, "humidity");
  });

  test(`HTU21DF (${mode} bus): temperature and humidity alternate`, () => {
    SimI2C.mode = mode;
    SimI2C.attach(new SimHtu21df({ temperature: 19.5, humidity: 63, pressureHpa: 0 }), 0x40, SDA, SCL);
    const s = detectSensor(bus());
    assert.is(s!.sensor.name, "HTU21DF");
    sampleEnv(s!);
    assert.is(s!.valid, false, "temperature only so far");
    near(s!.t, 19.5, 0.01, "temperature");
    sampleEnv(s!);
    assert.ok(s!.valid);
    near(s!.h, 63, 0.01, "humidity");
  });
}

test("a sensor that disappears keeps its last values", () => {
  SimI2C.mode = "hardware";
  SimI2C.attach(new SimBme280({ env: { temperature: 21, humidity: 40, pressureHpa: 1000 } }), 0x76, SDA, SCL);
  const s = detectSensor(bus());
  sampleEnv(s!);
  SimI2C.wiring = [];
  sampleEnv(s!);
  assert.ok(s!.valid);
  near(s!.t, 21, 0.01, "temperature");
});

test("a floating bus after detection does not produce readings", () => {
  SimI2C.attach(new SimBme280({ env: { temperature: 21, humidity: 40, pressureHpa: 1000 } }), 0x76, SDA, SCL);
  const s = detectSensor(bus());
  sampleEnv(s!);
  SimI2C.wiring = []; // software bus: reads turn into 0xFF
  sampleEnv(s!);
  near(s!.t, 21, 0.01, "temperature kept");
  near(s!.p, 1000, 0.01, "pressure kept");
});

test.run();
