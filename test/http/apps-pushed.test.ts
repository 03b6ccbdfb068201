// Pushed apps over HTTP: create, replace, array families, all or nothing, the 50-app cap, names
// checked from the path before anything else, removal, and lifetimes (remove, and the stale mark).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTarget, call, type Target } from "./target";

const t = suite("pushed apps");
let dut: Target;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.before(async () => {
  dut = await startTarget();
  const r = await call(dut, "PATCH", "/api/v1/settings", { body: { transitionDurationMs: 0, autoTransition: false } });
  assert.is(r.status, 200, r.text);
});
t.after(async () => { await dut.stop(); });

function error(code: string, message: string, field?: string) {
  return { error: field ? { code, message, field } : { code, message } };
}

const REQUIRED = "a JSON body is required; use DELETE /api/v1/apps/{name} to remove the app";
const BAD_NAME = error("invalidName", "name must match [A-Za-z0-9_-]{1,32}", "name");
const RESERVED = error("invalidName", "name is reserved", "name");

async function apps(): Promise<any[]> {
  const r = await call(dut, "GET", "/api/v1/apps");
  assert.is(r.status, 200);
  return r.body;
}

async function pushedNames(): Promise<string[]> {
  return (await apps()).filter((a) => a.origin === "pushed").map((a) => a.name);
}

async function push(name: string, body: unknown) {
  return call(dut, "PUT", "/api/v1/apps/pushed/" + name, { body });
}

async function clear(): Promise<void> {
  for (const name of await pushedNames()) await call(dut, "DELETE", "/api/v1/apps/" + name);
}

t("a pushed app joins the loop after the built-ins, listed with its icon, and can be shown", async () => {
  const before = (await apps()).length;
  const r = await push("weather", { text: "21C", icon: "2422" });
  assert.is(r.status, 200, r.text);
  assert.equal(r.body, { ok: true });
  const list = await apps();
  assert.is(list.length, before + 1);
  assert.equal(list[before], { name: "weather", enabled: true, inLoop: true, slot: before, present: true, origin: "pushed", icon: "2422" });
  assert.equal((await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "weather", fast: true } })).body, { ok: true });
  await sleep(60);
  assert.is((await call(dut, "GET", "/api/v1/device")).body.currentApp, "weather");
  await clear();
});

t("a second PUT replaces the app wholesale and keeps its place; icon only when given", async () => {
  await push("a", { text: "one", icon: "1" });
  await push("b", { text: "two" });
  await push("a", { text: "three" });
  const list = await apps();
  assert.equal(list.filter((x) => x.origin === "pushed").map((x) => x.name), ["a", "b"]);
  assert.not.ok("icon" in list.find((x) => x.name === "a"), "the new payload has no icon");
  await clear();
});

t("the screen shows the app's payload at once, also after a replace while it is on screen", async () => {
  // Colours no built-in page uses.
  await push("shown", { text: "88", textColor: "#FF00FF" });
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "shown", fast: true } });
  await sleep(60);
  let px = (await call(dut, "GET", "/api/v1/display/screen")).body.pixels as number[];
  assert.ok(px.filter((p) => p === 0xff00ff).length > 10, "its text");
  await push("shown", { text: "88", textColor: "#00FFFF" });
  await sleep(60);
  px = (await call(dut, "GET", "/api/v1/display/screen")).body.pixels;
  assert.is(px.filter((p) => p === 0xff00ff).length, 0);
  assert.ok(px.filter((p) => p === 0x00ffff).length > 10, "the new colour at once");
  await clear();
});

t("an array makes <name>0, <name>1, ... of its objects; other elements take no number", async () => {
  const r = await push("stocks", [{ text: "A" }, 5, null, "x", { text: "B" }, [], { text: "C" }]);
  assert.equal(r.body, { ok: true });
  assert.equal(await pushedNames(), ["stocks0", "stocks1", "stocks2"]);
  await clear();
});

t("DELETE removes an array's family by its base name, not an app pushed to such a name by itself", async () => {
  await push("fam", [{ text: "A" }, { text: "B" }]);
  await push("fam7", { text: "own" });
  await push("famous", { text: "other" });
  assert.equal(await pushedNames(), ["fam0", "fam1", "fam7", "famous"]);
  assert.equal((await call(dut, "DELETE", "/api/v1/apps/fam")).body, { ok: true });
  assert.equal(await pushedNames(), ["fam7", "famous"]);
  assert.equal((await call(dut, "DELETE", "/api/v1/apps/fam7")).body, { ok: true });
  assert.equal(await pushedNames(), ["famous"]);
  await clear();
});

t("all or nothing: one bad element refuses the whole array, with the offending key", async () => {
  await push("keep", { text: "k" });
  let r = await push("batch", [{ text: "fine" }, { text: "x", bogus: 1 }]);
  assert.is(r.status, 422);
  assert.equal(r.body, error("validationFailed", "unknown field", "bogus"));
  r = await push("batch", [{ text: "fine" }, { textColor: "#12" }]);
  assert.is(r.status, 422);
  assert.is(r.body.error.field, "textColor");
  r = await push("keep", { text: "new", effect: "NoSuchEffect" });
  assert.is(r.status, 422);
  assert.is(r.body.error.field, "effect");
  assert.equal(await pushedNames(), ["keep"], "nothing created, nothing replaced");
  r = await push("note", { text: "x", hold: true });
  assert.equal(r.body, error("validationFailed", "unknown field", "hold"), "notification keys are not app keys");
  await clear();
});

t("empty, {} and [] are 422 (DELETE removes); a scalar or broken JSON is 400; the app stays", async () => {
  await push("stay", { text: "s" });
  for (const body of ["", "{}", "[]", "[1, \"x\"]", " { } "]) {
    const r = await call(dut, "PUT", "/api/v1/apps/pushed/stay", { body, headers: { "Content-Type": "application/json" } });
    assert.is(r.status, 422, JSON.stringify(body));
    assert.equal(r.body, error("validationFailed", REQUIRED));
  }
  for (const body of ["5", "\"text\"", "true", "null"]) {
    const r = await call(dut, "PUT", "/api/v1/apps/pushed/stay", { body, headers: { "Content-Type": "application/json" } });
    assert.is(r.status, 400, body);
    assert.is(r.body.error.code, "invalidJson");
  }
  const r = await call(dut, "PUT", "/api/v1/apps/pushed/stay", { body: "{\"text\":", headers: { "Content-Type": "application/json" } });
  assert.equal(r.body, error("invalidJson", "request body is not valid JSON"));
  assert.equal(await pushedNames(), ["stay"]);
  await clear();
});

t("other methods on the pushed path are 405; a body over 8192 bytes is 413", async () => {
  for (const method of ["GET", "POST", "DELETE", "PATCH"]) {
    const r = await call(dut, method, "/api/v1/apps/pushed/x");
    assert.is(r.status, 405, method);
    assert.equal(r.body, error("methodNotAllowed", "allowed method(s): PUT"));
  }
  const big = JSON.stringify({ text: "x".repeat(8200) });
  const r = await call(dut, "PUT", "/api/v1/apps/pushed/big", { body: big });
  assert.is(r.status, 413);
  assert.is(r.body.error.code, "payloadTooLarge");
  assert.equal(await pushedNames(), []);
});

t("names come from the path and are checked first: pattern, length, reserved words, built-ins", async () => {
  const bad = ["bad.name", "a%20b", "x".repeat(33), "caf%C3%A9"];
  for (const name of bad) {
    const r = await push(name, { text: "x" });
    assert.is(r.status, 400, name);
    assert.equal(r.body, BAD_NAME);
  }
  let r = await call(dut, "PUT", "/api/v1/apps/pushed/", { body: { text: "x" } });
  assert.equal(r.body, BAD_NAME, "an empty tail");
  assert.is((await push("x".repeat(32), { text: "x" })).status, 200, "32 characters are fine");
  for (const name of ["active", "next", "previous", "order", "pushed", "Time", "date", "BATTERY", "Temperature"]) {
    r = await push(name, { text: "x" });
    assert.is(r.status, 400, name);
    assert.equal(r.body, RESERVED);
  }
  // Before the body: a broken or oversized body, or a wrong method, still answers for the name.
  r = await call(dut, "PUT", "/api/v1/apps/pushed/bad.name", { body: "{", headers: { "Content-Type": "application/json" } });
  assert.equal(r.body, BAD_NAME);
  r = await call(dut, "PUT", "/api/v1/apps/pushed/bad.name", { body: JSON.stringify({ text: "x".repeat(9000) }) });
  assert.equal(r.body, BAD_NAME);
  r = await call(dut, "DELETE", "/api/v1/apps/pushed/bad.name");
  assert.equal(r.body, BAD_NAME);
  r = await call(dut, "DELETE", "/api/v1/apps/bad.name");
  assert.equal(r.body, BAD_NAME);
  r = await call(dut, "PUT", "/api/v1/apps/bad.name/enabled", { body: true });
  assert.equal(r.body, BAD_NAME);
  await clear();
});

t("DELETE: always 200 for a valid name; a built-in stays; other methods 405", async () => {
  const names = (await apps()).map((a) => a.name);
  for (const name of ["neverPushed", "Time", "Date"]) {
    const r = await call(dut, "DELETE", "/api/v1/apps/" + name);
    assert.is(r.status, 200, name);
    assert.equal(r.body, { ok: true });
  }
  assert.equal((await apps()).map((a) => a.name), names);
  const r = await call(dut, "GET", "/api/v1/apps/Time");
  assert.equal(r.body, error("methodNotAllowed", "allowed method(s): DELETE"));
  assert.equal((await call(dut, "DELETE", "/api/v1/apps/next")).body, error("methodNotAllowed", "allowed method(s): POST"),
    "a route word is its route");
});

t("at most 50 pushed apps: the 51st is 507, an update is not; an array past the cap creates nothing", async () => {
  for (let i = 0; i < 50; i++) {
    const r = await push("p" + i, { text: "" + i });
    assert.is(r.status, 200, "app " + i + ": " + r.text);
  }
  let r = await push("one-more", { text: "x" });
  assert.is(r.status, 507);
  assert.equal(r.body, error("insufficientStorage", "at most 50 pushed apps; delete one first"));
  assert.is((await push("p7", { text: "updated" })).status, 200);
  await call(dut, "DELETE", "/api/v1/apps/p0");
  await call(dut, "DELETE", "/api/v1/apps/p1");
  r = await push("arr", [{ text: "a" }, { text: "b" }, { text: "c" }]);
  assert.is(r.status, 507);
  let names = await pushedNames();
  assert.is(names.length, 48);
  assert.not.ok(names.includes("arr0"));
  assert.is((await push("arr", [{ text: "a" }, { text: "b" }])).status, 200);
  names = await pushedNames();
  assert.is(names.length, 50);
  assert.equal(names.slice(-2), ["arr0", "arr1"]);
  await clear();
  assert.equal(await pushedNames(), []);
});

t("lifetimeMs with remove: the app leaves the loop once it has lived that long", async () => {
  await push("short", { text: "s", lifetimeMs: 400 });
  await push("forever", { text: "f", lifetimeMs: 0 });
  assert.equal(await pushedNames(), ["short", "forever"]);
  await sleep(900);
  assert.equal(await pushedNames(), ["forever"]);
  await clear();
});

t("lifetimeMs with mark: the app stays, framed in dark red; a new push clears the mark", async () => {
  await push("stale", { text: "1", lifetimeMs: 300, lifetimeExpiry: "mark" });
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "stale", fast: true } });
  const frame = async () => {
    await sleep(60);
    const px = (await call(dut, "GET", "/api/v1/display/screen")).body.pixels as number[];
    return [px[0], px[31], px[7 * 32], px[7 * 32 + 31], px[3 * 32]];
  };
  assert.ok((await frame()).every((p) => p !== 0x6e0700));
  await sleep(700);
  assert.equal(await pushedNames(), ["stale"]);
  assert.equal(await frame(), [0x6e0700, 0x6e0700, 0x6e0700, 0x6e0700, 0x6e0700]);
  await push("stale", { text: "1" });
  assert.ok((await frame()).every((p) => p !== 0x6e0700));
  await clear();
});

t.run();
