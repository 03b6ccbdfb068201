// Notifications over HTTP: what a POST accepts and refuses, the queue of 32, hold, stack false,
// durationMs, dismissing by name and the active one, wakeup on a dark display, the select button,
// and the screen: the notification covers the loop's page and the loop's page comes back.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTarget, call, type Target } from "./target";
import { chip as esp32 } from "../../boards/esp32";

const t = suite("notifications");
let dut: Target;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Colours no built-in page uses (the clock's calendar header is red, its digits white).
const MAGENTA = 0xff00ff;
const CYAN = 0x00ffff;
const ORANGE = 0xff8000;

t.before(async () => {
  dut = await startTarget();
  const r = await call(dut, "PATCH", "/api/v1/settings", { body: { transitionDurationMs: 0, autoTransition: false, appDurationMs: 60000 } });
  assert.is(r.status, 200, r.text);
});
t.after(async () => { await dut.stop(); });

function error(code: string, message: string, field?: string) {
  return { error: field ? { code, message, field } : { code, message } };
}

async function notify(body: unknown) {
  return call(dut, "POST", "/api/v1/notifications", { body });
}

async function dismissAll(): Promise<void> {
  // Everything this suite queues is short or named; a held one goes with each call.
  for (let i = 0; i < 40; i++) await call(dut, "DELETE", "/api/v1/notifications/active");
}

/** Pixels of each colour the screen shows now (the logical picture, not graded). */
async function shows(): Promise<{ magenta: number; cyan: number; orange: number; lit: number }> {
  await sleep(80);
  const px = (await call(dut, "GET", "/api/v1/display/screen")).body.pixels as number[];
  const n = (c: number) => px.filter((p) => p === c).length;
  return { magenta: n(MAGENTA), cyan: n(CYAN), orange: n(ORANGE), lit: px.filter((p) => p !== 0).length };
}

async function device(): Promise<any> {
  return (await call(dut, "GET", "/api/v1/device")).body;
}

t("a notification covers the loop's page for its time; currentApp stays the loop's; the page comes back", async () => {
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Time", fast: true } });
  const before = await shows();
  assert.is(before.magenta, 0);
  const r = await notify({ text: "88", textColor: "#FF00FF", durationMs: 600 });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, { ok: true });
  const during = await shows();
  assert.ok(during.magenta > 10, "its text on screen");
  assert.is((await device()).currentApp, "Time");
  await sleep(800);
  const after = await shows();
  assert.is(after.magenta, 0);
  assert.ok(after.lit > 0, "the clock again");
});

t("an array may hold one payload; more is 422 and queues nothing; [] or one non-object is all defaults", async () => {
  let r = await notify([{ text: "88", textColor: "#FF00FF" }, { text: "2" }]);
  assert.is(r.status, 422);
  assert.equal(r.body, error("validationFailed", "send one notification per request; an array of more than one is not accepted"));
  assert.is((await shows()).magenta, 0, "nothing queued");
  r = await notify([{ text: "88", textColor: "#00FFFF", durationMs: 400 }]);
  assert.equal(r.body, { ok: true });
  assert.ok((await shows()).cyan > 10);
  await sleep(500);
  for (const body of [[], [5], ["text"]]) {
    r = await notify(body);
    assert.equal(r.body, { ok: true }, JSON.stringify(body));
    // All defaults: no text, black: the page covers the clock with nothing.
    assert.is((await shows()).lit, 0, JSON.stringify(body));
    await call(dut, "DELETE", "/api/v1/notifications/active");
  }
});

t("refusals: no body or a scalar is 400, a bad payload 422 with its key; nothing is queued", async () => {
  let r = await call(dut, "POST", "/api/v1/notifications");
  assert.equal(r.body, error("invalidJson", "request body is not valid JSON"));
  r = await call(dut, "POST", "/api/v1/notifications", { body: "{\"text\":", headers: { "Content-Type": "application/json" } });
  assert.equal(r.body, error("invalidJson", "request body is not valid JSON"));
  for (const body of ["5", "\"hello\"", "null"]) {
    r = await call(dut, "POST", "/api/v1/notifications", { body, headers: { "Content-Type": "application/json" } });
    assert.is(r.status, 400, body);
    assert.equal(r.body, error("invalidJson", "a notification must be a JSON object"));
  }
  r = await notify({ text: "x", textColor: "#FF00FF", bogus: true });
  assert.equal(r.body, error("validationFailed", "unknown field", "bogus"));
  r = await notify({ text: "x", textColor: "#FF00FF", effect: "Nope" });
  assert.is(r.status, 422);
  assert.is(r.body.error.field, "effect");
  r = await notify({ text: "x".repeat(9000) });
  assert.is(r.status, 413);
  assert.is(r.body.error.code, "payloadTooLarge");
  assert.is((await shows()).magenta, 0);
  r = await notify({ text: "ok", lifetimeMs: 100, lifetimeExpiry: "mark", durationMs: 200 });
  assert.equal(r.body, { ok: true }, "lifetime keys are accepted, and unused");
  await sleep(300);
});

t("methods: POST only on the collection, DELETE only on active and on a name", async () => {
  for (const method of ["GET", "PUT", "DELETE"]) {
    const r = await call(dut, method, "/api/v1/notifications");
    assert.equal(r.body, error("methodNotAllowed", "allowed method(s): POST"), method);
  }
  for (const path of ["/api/v1/notifications/active", "/api/v1/notifications/someName"]) {
    const r = await call(dut, "POST", path);
    assert.equal(r.body, error("methodNotAllowed", "allowed method(s): DELETE"), path);
  }
});

t("hold: the notification stays past its time and the queue waits; DELETE active lets the next come", async () => {
  await notify({ text: "88", textColor: "#FF00FF", hold: true, durationMs: 100 });
  await notify({ text: "88", textColor: "#00FFFF", durationMs: 300 });
  await sleep(400);
  assert.ok((await shows()).magenta > 10, "held");
  assert.equal((await call(dut, "DELETE", "/api/v1/notifications/active")).body, { ok: true });
  assert.ok((await shows()).cyan > 10, "the next one at once");
  await sleep(400);
  const s = await shows();
  assert.is(s.cyan + s.magenta, 0);
  assert.equal((await call(dut, "DELETE", "/api/v1/notifications/active")).body, { ok: true }, "200 with nothing shown");
});

t("durationMs 0 or negative falls back to appDurationMs", async () => {
  await call(dut, "PATCH", "/api/v1/settings", { body: { appDurationMs: 500 } });
  for (const durationMs of [0, -20]) {
    await notify({ text: "88", textColor: "#FF00FF", durationMs });
    await sleep(250);
    assert.ok((await shows()).magenta > 10, "still there at 250 ms: " + durationMs);
    await sleep(400);
    assert.is((await shows()).magenta, 0, "gone after appDurationMs: " + durationMs);
  }
  await call(dut, "PATCH", "/api/v1/settings", { body: { appDurationMs: 60000 } });
});

t("stack false replaces the one on screen, which starts afresh; those waiting stay", async () => {
  await notify({ text: "88", textColor: "#FF00FF", hold: true });
  await notify({ text: "88", textColor: "#00FFFF", hold: true });
  await notify({ text: "88", textColor: "#FF8000", hold: true, stack: false });
  let s = await shows();
  assert.ok(s.orange > 10 && s.magenta === 0, "the new one replaced the one on screen");
  await call(dut, "DELETE", "/api/v1/notifications/active");
  s = await shows();
  assert.ok(s.cyan > 10, "the waiting one stayed");
  await call(dut, "DELETE", "/api/v1/notifications/active");
  await notify({ text: "88", textColor: "#FF8000", durationMs: 300, stack: false });
  assert.ok((await shows()).orange > 10, "on an empty queue it simply shows");
  await sleep(400);
});

t("the queue holds 32 with the one on screen; the 33rd is 507; stack false still replaces", async () => {
  for (let i = 0; i < 32; i++) {
    const r = await notify({ text: "" + i, hold: true, name: "q" + i });
    assert.is(r.status, 200, i + ": " + r.text);
  }
  let r = await notify({ text: "one more" });
  assert.is(r.status, 507);
  assert.equal(r.body, error("insufficientStorage", "the notification queue is full"));
  r = await notify({ text: "88", textColor: "#FF00FF", hold: true, stack: false });
  assert.equal(r.body, { ok: true });
  assert.ok((await shows()).magenta > 10);
  assert.is((await notify({ text: "still full" })).status, 507);
  assert.equal((await call(dut, "DELETE", "/api/v1/notifications/q5")).body, { ok: true });
  assert.equal((await notify({ text: "room again", hold: true })).body, { ok: true });
  await dismissAll();
  assert.is((await shows()).magenta, 0);
});

t("DELETE by name ends every notification of that name, waiting or shown; 404 when none has it", async () => {
  await notify({ text: "88", textColor: "#FF00FF", hold: true, name: "door" });
  await notify({ text: "88", textColor: "#00FFFF", hold: true, name: "backup" });
  await notify({ text: "88", textColor: "#FF8000", hold: true, name: "later" });
  let r = await call(dut, "DELETE", "/api/v1/notifications/backup");
  assert.equal(r.body, { ok: true });
  assert.ok((await shows()).magenta > 10, "removing a waiting one leaves the one on screen");
  r = await call(dut, "DELETE", "/api/v1/notifications/door");
  assert.equal(r.body, { ok: true });
  const s = await shows();
  assert.ok(s.orange > 10 && s.cyan === 0, "the shown one went; the retracted one does not come");
  r = await call(dut, "DELETE", "/api/v1/notifications/door");
  assert.is(r.status, 404);
  assert.equal(r.body, error("notFound", "not found"));
  r = await call(dut, "DELETE", "/api/v1/notifications/nobody");
  assert.equal(r.body, error("notFound", "not found"));
  await call(dut, "DELETE", "/api/v1/notifications/later");
  assert.is((await shows()).orange, 0);
});

t("wakeup lights a dark display for its notification only; without it nothing lights", async () => {
  const sim = dut.sim;
  await call(dut, "PATCH", "/api/v1/display", { body: { power: false } });
  await notify({ text: "88", textColor: "#FF00FF", durationMs: 300 });
  await sleep(100);
  assert.is((await device()).matrixPower, false);
  if (sim) assert.ok(sim.device.frames[sim.device.frames.length - 1].data.every((b) => b === 0), "dark");
  await sleep(300);
  await notify({ text: "88", textColor: "#FF00FF", durationMs: 500, wakeup: true });
  await sleep(150);
  assert.is((await device()).matrixPower, true);
  if (sim) assert.ok(sim.device.frames[sim.device.frames.length - 1].data.some((b) => b !== 0), "lit");
  await sleep(600);
  assert.is((await device()).matrixPower, false, "dark again afterwards");
  if (sim) assert.ok(sim.device.frames[sim.device.frames.length - 1].data.every((b) => b === 0));
  await call(dut, "PATCH", "/api/v1/display", { body: { power: true } });
});

t("the select button dismisses the notification on screen, a held one too", async () => {
  const sim = dut.sim;
  if (!sim) return;
  const pin = esp32.defaults.pinBtnSelect;
  await notify({ text: "88", textColor: "#FF00FF", hold: true });
  await notify({ text: "88", textColor: "#00FFFF", hold: true });
  assert.ok((await shows()).magenta > 10);
  await call(dut, "PATCH", "/api/v1/settings", { body: { blockNavigation: true } });
  sim.device.setPin(pin, false);
  sim.device.setPin(pin, true);
  assert.ok((await shows()).cyan > 10, "dismissed even with navigation blocked");
  sim.device.setPin(pin, false);
  sim.device.setPin(pin, true);
  assert.is((await shows()).cyan, 0);
  await call(dut, "PATCH", "/api/v1/settings", { body: { blockNavigation: false } });
});

t("the loop keeps turning behind a notification", async () => {
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Time", fast: true } });
  await notify({ text: "88", textColor: "#FF00FF", hold: true });
  await call(dut, "POST", "/api/v1/apps/next");
  await sleep(60);
  assert.is((await device()).currentApp, "Date");
  assert.ok((await shows()).magenta > 10, "the notification still covers it");
  await call(dut, "DELETE", "/api/v1/notifications/active");
  assert.is((await shows()).magenta, 0);
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Time", fast: true } });
});

t.run();
