// The loop's arrangement over HTTP: GET /api/v1/apps with every field, PUT /api/v1/apps/order by
// each of its rules, PUT /api/v1/apps/{name}/enabled, what survives a reboot (the arrangement, not
// the pushed apps), stepping through an arranged loop, and a pushed app's own dwell.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTarget, call, type Target } from "./target";
import { afterTornWrite, fillFlash } from "./flash-faults";

const t = suite("the app loop");
let dut: Target;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.before(async () => {
  dut = await startTarget();
  await still();
});
t.after(async () => { await dut.stop(); });

/** Instant page changes and no automatic rotation keep the loop where the tests put it. */
async function still(): Promise<void> {
  const r = await call(dut, "PATCH", "/api/v1/settings", { body: { transitionDurationMs: 0, autoTransition: false } });
  assert.is(r.status, 200, r.text);
}

function error(code: string, message: string, field?: string) {
  return { error: field ? { code, message, field } : { code, message } };
}

async function apps(): Promise<any[]> {
  const r = await call(dut, "GET", "/api/v1/apps");
  assert.is(r.status, 200);
  return r.body;
}

/** The built-ins this target has, in their order (the real interpreter has no sensor or battery). */
async function builtins(): Promise<string[]> {
  const d = (await call(dut, "GET", "/api/v1/device")).body;
  const names = ["Time", "Date"];
  if ("temperature" in d) names.push("Temperature");
  if ("humidity" in d) names.push("Humidity");
  if ("batteryPercent" in d) names.push("Battery");
  return names;
}

async function push(name: string, body: unknown): Promise<void> {
  const r = await call(dut, "PUT", "/api/v1/apps/pushed/" + name, { body });
  assert.is(r.status, 200, r.text);
}

async function order(body: unknown) {
  return call(dut, "PUT", "/api/v1/apps/order", { body });
}

async function current(): Promise<string> {
  await sleep(60);
  return (await call(dut, "GET", "/api/v1/device")).body.currentApp;
}

const row = (name: string, enabled: boolean, inLoop: boolean, slot: number | null, origin: string | null) =>
  ({ name, enabled, inLoop, slot, present: origin !== null, origin });

/** Back to the default loop: nothing arranged is not reachable, so the order names the defaults. */
async function reset(): Promise<void> {
  for (const a of await apps()) if (a.origin === "pushed") await call(dut, "DELETE", "/api/v1/apps/" + a.name);
}

t("default loop: the built-ins, then pushed apps by first arrival; a re-push after a delete goes last", async () => {
  const b = await builtins();
  await push("one", { text: "1" });
  await push("two", { text: "2" });
  await push("one", { text: "1 again" });
  let list = await apps();
  assert.equal(list.map((a) => a.name), b.concat(["one", "two"]));
  list.forEach((a, i) => assert.equal(a, row(a.name, true, true, i, i < b.length ? "builtin" : "pushed")));
  await call(dut, "DELETE", "/api/v1/apps/one");
  await push("one", { text: "back" });
  list = await apps();
  assert.equal(list.map((a) => a.name), b.concat(["two", "one"]));
  await reset();
});

t("order: bodies without disabled, or not objects, are 400; lists of anything but names are 422", async () => {
  for (const body of [{ order: ["Time"] }, ["Time", "Date"], "\"Time\"", {}]) {
    const r = await order(body);
    assert.is(r.status, 400, JSON.stringify(body));
    assert.equal(r.body, error("invalidJson", "body must be an object with a disabled list"));
  }
  let r = await call(dut, "PUT", "/api/v1/apps/order", { body: "{\"disabled\":", headers: { "Content-Type": "application/json" } });
  assert.equal(r.body, error("invalidJson", "request body is not valid JSON"));
  r = await order({ disabled: "Date" });
  assert.equal(r.body, error("validationFailed", "must be an array of app names", "disabled"));
  r = await order({ order: ["Time", 5], disabled: [] });
  assert.equal(r.body, error("validationFailed", "must be an array of app names", "order"));
  r = await order({ order: ["bad name"], disabled: [] });
  assert.equal(r.body, error("validationFailed", "must be an array of app names", "order"));
  r = await order({ order: new Array(101).fill("Time"), disabled: [] });
  assert.equal(r.body, error("validationFailed", "at most 100 names", "order"));
  r = await call(dut, "GET", "/api/v1/apps/order");
  assert.equal(r.body, error("methodNotAllowed", "allowed method(s): PUT"));
  assert.equal((await apps()).map((a) => a.name), await builtins(), "nothing changed");
});

t("order: what rotates in its order, duplicates and waiting names included; the rest follow", async () => {
  const b = await builtins();
  await push("weather", { text: "w", icon: "77" });
  await push("bus", { text: "b" });
  const r = await order({ order: ["weather", "Time", "co2", "weather"], disabled: ["bus"] });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, { ok: true });
  const rest = b.filter((n) => n !== "Time").map((n) => row(n, true, true, null, "builtin"));
  const weather = Object.assign(row("weather", true, true, 0, "pushed"), { icon: "77" });
  assert.equal(await apps(), ([
    weather,
    row("Time", true, true, 1, "builtin"),
    row("co2", true, false, 2, null),
    Object.assign({}, weather, { slot: 3 }),
  ] as object[]).concat(rest, [row("bus", false, false, null, "pushed")]));

  // Stepping follows the order, the duplicate too, then the unnamed apps.
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "weather", fast: true } });
  const seen = [await current()];
  for (let i = 0; i < 3 + rest.length; i++) {
    await call(dut, "POST", "/api/v1/apps/next");
    seen.push(await current());
  }
  assert.equal(seen, ["weather", "Time", "weather"].concat(b.filter((n) => n !== "Time"), ["weather"]));
  // A switched-off app cannot be brought on screen.
  assert.is((await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "bus" } })).status, 404);

  // The waiting name takes its place when the app arrives.
  await push("co2", { text: "c" });
  const list = await apps();
  assert.equal(list[2], row("co2", true, true, 2, "pushed"));
  await reset();
  await order({ order: b, disabled: [] });
});

t("order: disabled alone keeps the arrangement; a name in neither list keeps its state", async () => {
  const b = await builtins();
  await order({ order: ["Date", "Time"], disabled: [] });
  await order({ disabled: ["Date"] });
  let list = await apps();
  assert.equal(list.slice(0, 2), [row("Date", false, false, 0, "builtin"), row("Time", true, true, 1, "builtin")]);
  // Date is in neither list: it stays off.
  await order({ order: ["Time"], disabled: [] });
  list = await apps();
  assert.equal(list[0], row("Time", true, true, 0, "builtin"));
  assert.equal(list.find((a) => a.name === "Date"), row("Date", false, false, null, "builtin"));
  // Named in order (and not in disabled): on again.
  await order({ order: ["Time", "Date"], disabled: [] });
  assert.equal((await apps()).slice(0, 2), [row("Time", true, true, 0, "builtin"), row("Date", true, true, 1, "builtin")]);
  // A switched-off name that is not here is listed as waiting.
  await order({ disabled: ["ghost"] });
  assert.equal((await apps()).pop(), row("ghost", false, false, null, null));
  await call(dut, "PUT", "/api/v1/apps/ghost/enabled", { body: true });
  await order({ order: b, disabled: [] });
});

t("order: built-ins without their hardware cannot be arranged", async () => {
  const b = await builtins();
  const missing = ["Temperature", "Humidity", "Battery"].filter((n) => !b.includes(n));
  await order({ order: ["Date"].concat(missing), disabled: missing });
  const names = (await apps()).map((a) => a.name);
  for (const n of missing) assert.not.ok(names.includes(n), n);
  assert.is(names[0], "Date");
  await order({ order: b, disabled: [] });
});

t("enabled: true or false switches one app; anything else is 422; names may wait", async () => {
  let r = await call(dut, "PUT", "/api/v1/apps/Date/enabled", { body: false });
  assert.equal(r.body, { ok: true });
  // Arranged by the tests before: switched off, it keeps its place.
  assert.equal((await apps()).find((a) => a.name === "Date"), row("Date", false, false, 1, "builtin"));
  assert.is((await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Date" } })).status, 404);
  for (const body of ["\"yes\"", "1", "{\"enabled\":true}", "null"]) {
    r = await call(dut, "PUT", "/api/v1/apps/Date/enabled", { body, headers: { "Content-Type": "application/json" } });
    assert.equal(r.body, error("validationFailed", "must be true or false", "enabled"), body);
  }
  r = await call(dut, "PUT", "/api/v1/apps/Date/enabled", { body: true });
  assert.equal(r.body, { ok: true });
  assert.equal((await apps()).find((a) => a.name === "Date"), row("Date", true, true, 1, "builtin"));
  await call(dut, "PUT", "/api/v1/apps/later/enabled", { body: false });
  await push("later", { text: "l" });
  assert.equal((await apps()).find((a) => a.name === "later"), row("later", false, false, null, "pushed"));
  await call(dut, "PUT", "/api/v1/apps/later/enabled", { body: true });
  assert.equal((await apps()).find((a) => a.name === "later"), row("later", true, true, null, "pushed"));
  r = await call(dut, "GET", "/api/v1/apps/Date/enabled");
  assert.equal(r.body, error("methodNotAllowed", "allowed method(s): PUT"));
  await reset();
});

t("a pushed app's durationMs decides how long it stays; 0 uses appDurationMs", async () => {
  await push("quick", { text: "q", durationMs: 300 });
  await push("zero", { text: "z", durationMs: 0 });
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "quick", fast: true } });
  await call(dut, "PATCH", "/api/v1/settings", { body: { autoTransition: true, appDurationMs: 1500 } });
  assert.is(await current(), "quick");
  await sleep(400);
  assert.is(await current(), "zero", "gone after its own 300 ms");
  await sleep(700);
  assert.is(await current(), "zero", "zero uses appDurationMs");
  await sleep(900);
  assert.is.not(await current(), "zero");
  await still();
  await reset();
});

t("after a reboot the arrangement is back and the pushed apps are gone", async () => {
  const b = await builtins();
  await push("kept", { text: "k" });
  await push("loose", { text: "l" });
  assert.equal((await order({ order: ["kept", "Date", "Time"], disabled: ["Date"] })).body, { ok: true });
  await call(dut, "PUT", "/api/v1/apps/loose/enabled", { body: false });
  const booted = dut.nextBoot();
  await call(dut, "POST", "/api/v1/device/reboot");
  await booted;
  await dut.waitForServer();
  await still();
  const list = await apps();
  assert.equal(list.slice(0, 3), [
    row("kept", true, false, 0, null),
    row("Date", false, false, 1, "builtin"),
    row("Time", true, true, 2, "builtin"),
  ]);
  assert.equal(list.pop(), row("loose", false, false, null, null), "switched off, kept while away");
  assert.not.ok(list.some((a) => a.origin === "pushed"));
  await push("kept", { text: "k" });
  assert.equal((await apps())[0], row("kept", true, true, 0, "pushed"), "it lands in the place kept for it");
  await call(dut, "PUT", "/api/v1/apps/loose/enabled", { body: true });
  await order({ order: b, disabled: [] });
  await reset();
});

t("a full flash: the order is in force but 507 says it was not saved", async () => {
  const sim = dut.sim;
  if (!sim) return;
  fillFlash(sim.device.storage);
  try {
    // Long enough a record not to fit in what the filler leaves.
    const waiting = Array.from({ length: 40 }, (_, i) => "waiting-for-an-app-number-" + i);
    const r = await order({ order: ["Date", "Time"].concat(waiting), disabled: [] });
    assert.is(r.status, 507);
    assert.equal(r.body, error("insufficientStorage", "the order is in force but could not be saved"));
    assert.equal((await apps()).slice(0, 2).map((a) => a.name), ["Date", "Time"]);
  } finally {
    for (const name of sim.device.storage.list(/^filler/)) sim.device.storage.erase(name);
  }
  assert.equal((await order({ order: await builtins(), disabled: [] })).body, { ok: true });
});

t("a copy torn by a power cut: the arrangement before it comes back", async () => {
  await afterTornWrite("apploop", async (first) => {
    assert.is((await call(first, "PUT", "/api/v1/apps/order", { body: { order: ["Date"], disabled: [] } })).status, 200);
    assert.is((await call(first, "PUT", "/api/v1/apps/order", { body: { order: ["Time"], disabled: ["Date"] } })).status, 200);
  }, async (second) => {
    const list = (await call(second, "GET", "/api/v1/apps")).body;
    assert.equal(list[0], row("Date", true, true, 0, "builtin"));
  });
});

t.run();
