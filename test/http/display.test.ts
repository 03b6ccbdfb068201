// The display surface over HTTP: power and overlay, mood light, screen capture, indicators, and
// the app loop (inventory, next/previous, active).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTarget, call, type Target } from "./target";

const t = suite("display, indicators, apps");
let dut: Target;

t.before(async () => {
  dut = await startTarget();
  // Instant page changes and no automatic rotation keep the loop where the tests put it.
  const r = await call(dut, "PATCH", "/api/v1/settings", { body: { transitionDurationMs: 0, autoTransition: false } });
  assert.is(r.status, 200, r.text);
});
t.after(async () => { await dut.stop(); });

const COLOR_MSG = 'must be a color ("#RGB", "#RRGGBB", [r,g,b], ["HSV",h,s,v] or a packed integer)';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function error(code: string, message: string, field?: string) {
  return { error: field ? { code, message, field } : { code, message } };
}

async function device(): Promise<any> {
  return (await call(dut, "GET", "/api/v1/device")).body;
}

async function screen(): Promise<{ width: number; height: number; pixels: number[] }> {
  const r = await call(dut, "GET", "/api/v1/display/screen");
  assert.is(r.status, 200);
  assert.match(r.headers.get("content-type") || "", /application\/json/);
  return r.body;
}

t("GET /api/v1/display reports power, effective brightness, overlay and mood light", async () => {
  const r = await call(dut, "GET", "/api/v1/display");
  assert.is(r.status, 200);
  assert.equal(r.body, {
    power: true, brightness: 120, overlay: null,
    overlaySettings: { speed: 1, palette: null, blend: true }, moodlight: null,
  });
});

t("PATCH /api/v1/display validates everything before applying anything", async () => {
  let r = await call(dut, "PATCH", "/api/v1/display", { body: { overlay: "SNOW", power: "off" } });
  assert.is(r.status, 422);
  assert.equal(r.body, error("validationFailed", "must be a boolean", "power"));
  r = await call(dut, "PATCH", "/api/v1/display", { body: { power: false, overlay: "hail" } });
  assert.equal(r.body, error("validationFailed", "unknown overlay", "overlay"));
  r = await call(dut, "PATCH", "/api/v1/display", { body: { overlay: 7 } });
  assert.equal(r.body, error("validationFailed", "must be a string or null", "overlay"));
  r = await call(dut, "PATCH", "/api/v1/display", { body: { overlaySettings: "fast" } });
  assert.equal(r.body, error("validationFailed", "must be an object", "overlaySettings"));
  assert.is((await call(dut, "GET", "/api/v1/display")).body.power, true);

  r = await call(dut, "PATCH", "/api/v1/display", { body: { overlay: "Snow", overlaySettings: { speed: 20, palette: "lava" } } });
  assert.equal(r.body, { ok: true });
  let d = (await call(dut, "GET", "/api/v1/display")).body;
  assert.is(d.overlay, "snow");
  assert.equal(d.overlaySettings, { speed: 10, palette: "Lava", blend: true });
  await call(dut, "PATCH", "/api/v1/display", { body: { overlay: null } });
  d = (await call(dut, "GET", "/api/v1/display")).body;
  assert.is(d.overlay, null);
  assert.equal(d.overlaySettings, { speed: 1, palette: null, blend: true });
});

t("power off blanks the LEDs and device state shows it", async () => {
  const sim = dut.sim;
  await call(dut, "PATCH", "/api/v1/display", { body: { power: false } });
  assert.is((await device()).matrixPower, false);
  if (sim) {
    await sleep(100);
    const last = sim.device.frames[sim.device.frames.length - 1];
    assert.ok(last.data.every((b) => b === 0), "the last frame is all dark");
  }
  await call(dut, "PATCH", "/api/v1/display", { body: { power: true } });
  assert.is((await device()).matrixPower, true);
});

t("the mood light floods the screen with its colour; the capture is ungraded", async () => {
  let r = await call(dut, "PUT", "/api/v1/display/moodlight", { body: { color: "#FF8000", brightness: 10 } });
  assert.equal(r.body, { ok: true });
  const s = await screen();
  assert.is(s.width, 32);
  assert.is(s.height, 8);
  assert.is(s.pixels.length, 256);
  assert.ok(s.pixels.every((p) => p === 0xff8000), "every pixel is the mood light's colour");
  await sleep(60);
  const d = (await call(dut, "GET", "/api/v1/display")).body;
  assert.equal(d.moodlight, { color: "#FF8000", brightness: 10 });
  assert.is(d.brightness, 10, "the mood light's brightness is the effective one");
  assert.is((await device()).brightness, 10);
  if (dut.sim) {
    await sleep(80);
    const led = dut.sim.device.frames[dut.sim.device.frames.length - 1].data;
    // Dimmed to 10/255 and in the panel's GRB order: green is the small channel, red the large.
    assert.is(led.length, 768);
    assert.ok(led[1] > led[0] && led[0] > 0 && led[2] === 0, "GRB bytes " + Array.from(led.slice(0, 3)));
    assert.ok(led[1] <= 10);
  }
  r = await call(dut, "PUT", "/api/v1/display/moodlight", { body: {} });
  assert.is(r.status, 422);
  assert.equal(r.body, error("validationFailed", "a JSON body is required (use DELETE to turn the moodlight off)"));
  r = await call(dut, "PUT", "/api/v1/display/moodlight", { body: { color: "#12" } });
  assert.equal(r.body, error("validationFailed", COLOR_MSG, "color"));
  r = await call(dut, "DELETE", "/api/v1/display/moodlight");
  assert.equal(r.body, { ok: true });
  assert.is((await call(dut, "GET", "/api/v1/display")).body.moodlight, null);
  r = await call(dut, "POST", "/api/v1/display/moodlight", { body: {} });
  assert.is(r.status, 405);
  assert.equal(r.body, error("methodNotAllowed", "allowed method(s): PUT, DELETE"));
});

t("indicators: partial updates, off keeps the colour, DELETE resets, ids 1-3 only", async () => {
  let r = await call(dut, "PUT", "/api/v1/indicators/1", { body: { color: "#00FF00", blinkMs: 500 } });
  assert.equal(r.body, { ok: true });
  r = await call(dut, "PUT", "/api/v1/indicators/1", { body: { fadeMs: 800 } });
  assert.equal((await device()).indicators[0], { on: true, color: "#00FF00", blinkMs: 500, fadeMs: 800 });
  await call(dut, "PUT", "/api/v1/indicators/1", { body: { color: null } });
  assert.equal((await device()).indicators[0], { on: false, color: "#00FF00", blinkMs: 500, fadeMs: 800 });
  r = await call(dut, "PUT", "/api/v1/indicators/3", { body: {} });
  assert.equal(r.body, error("validationFailed", "a JSON body is required (use DELETE to turn the indicator off)"));
  r = await call(dut, "PUT", "/api/v1/indicators/3", { body: { color: "green-ish" } });
  assert.equal(r.body, error("validationFailed", COLOR_MSG, "color"));
  for (const id of ["0", "4", "10"]) {
    r = await call(dut, "PUT", "/api/v1/indicators/" + id, { body: { color: "#FFFFFF" } });
    assert.is(r.status, 404);
    assert.equal(r.body, error("notFound", "indicator id must be 1..3"));
  }
  r = await call(dut, "GET", "/api/v1/indicators/2");
  assert.equal(r.body, error("methodNotAllowed", "allowed method(s): PUT, DELETE"));
  r = await call(dut, "DELETE", "/api/v1/indicators/1");
  assert.equal(r.body, { ok: true });
  assert.equal((await device()).indicators[0], { on: false, color: "#000000", blinkMs: 0, fadeMs: 0 });
});

t("an indicator is drawn in the top right corner of the screen", async () => {
  await call(dut, "PUT", "/api/v1/indicators/1", { body: { color: "#0000FF" } });
  const s = await screen();
  assert.is(s.pixels[31], 0x0000ff);
  assert.is(s.pixels[30], 0x0000ff);
  assert.is(s.pixels[32 + 31], 0x0000ff);
  await call(dut, "DELETE", "/api/v1/indicators/1");
});

/** The built-ins this hardware has, as device state shows the parts behind them. */
async function builtins(): Promise<string[]> {
  const d = await device();
  const names = ["Time", "Date"];
  if ("temperature" in d) names.push("Temperature");
  if ("humidity" in d) names.push("Humidity");
  if ("batteryPercent" in d) names.push("Battery");
  return names;
}

t("GET /api/v1/apps lists the built-ins this hardware has, in loop order", async () => {
  const r = await call(dut, "GET", "/api/v1/apps");
  assert.is(r.status, 200);
  const names = r.body.map((a: any) => a.name);
  assert.equal(names, await builtins());
  // The simulated clock has a BME280 (temperature and humidity) and a battery divider.
  if (dut.sim) assert.equal(names, ["Time", "Date", "Temperature", "Humidity", "Battery"]);
  assert.equal(r.body[0], { name: "Time", enabled: true, inLoop: true, slot: 0, present: true, origin: "builtin" });
  r.body.forEach((a: any, i: number) => assert.is(a.slot, i));
});

t("next, previous and active move the loop; currentApp follows", async () => {
  const names = await builtins();
  const last = names[names.length - 1];
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Time", fast: true } });
  assert.is((await device()).currentApp, "Time");
  assert.equal((await call(dut, "POST", "/api/v1/apps/next")).body, { ok: true });
  await sleep(60);
  assert.is((await device()).currentApp, "Date");
  await call(dut, "POST", "/api/v1/apps/previous");
  await call(dut, "POST", "/api/v1/apps/previous");
  await sleep(60);
  assert.is((await device()).currentApp, last, "back past the first app to the last");
  let r = await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Date" } });
  assert.equal(r.body, { ok: true });
  await sleep(60);
  assert.is((await device()).currentApp, "Date");
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Time", fast: true } });
  r = await call(dut, "PUT", "/api/v1/apps/active", { body: "Date" });
  assert.equal(r.body, { ok: true });
  await sleep(60);
  assert.is((await device()).currentApp, "Date", "a body without a brace is the name");
  for (const body of [{ name: "Weather" }, "{\"name\":", "{}", "Weather"]) {
    r = await call(dut, "PUT", "/api/v1/apps/active", { body });
    assert.is(r.status, 404, JSON.stringify(body));
    assert.equal(r.body, error("notFound", "app not found"));
  }
  r = await call(dut, "GET", "/api/v1/apps/next");
  assert.equal(r.body, error("methodNotAllowed", "allowed method(s): POST"));
});

t("device state reports the measured frame rate", async () => {
  await sleep(1200);
  const fps = (await device()).fps;
  assert.ok(fps >= 20 && fps <= 41, "fps " + fps);
});

t.run();
