// GET /api/v1/logs: the newest log lines, {next, lines}, polled with ?after=<next>; refused in
// setup mode. What fills and empties the ring line by line is test/unit/logs-ring.test.ts.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTarget, call, type Target } from "./target";

type Logs = { next: number; lines: string[] };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The time prefix of a line once the clock is set (both targets run on the host's clock). */
const STAMPED = /^\d\d:\d\d:\d\d /;

async function logs(t: Target, after?: number): Promise<Logs> {
  const r = await call(t, "GET", "/api/v1/logs" + (after === undefined ? "" : "?after=" + after));
  assert.is(r.status, 200, r.text);
  assert.is(r.headers.get("content-type"), "application/json");
  assert.equal(Object.keys(r.body).sort(), ["lines", "next"]);
  assert.ok(Number.isInteger(r.body.next), r.text);
  assert.ok(Array.isArray(r.body.lines) && r.body.lines.every((l: unknown) => typeof l === "string"), r.text);
  return r.body;
}

const station = suite("logs in station mode");
let dut: Target;
station.before(async () => { dut = await startTarget(); });
station.after(async () => { await dut.stop(); });

station("the boot is in the log, with the time, numbered up to next", async () => {
  const l = await logs(dut);
  assert.ok(l.next >= 1, "next " + l.next);
  assert.ok(l.lines.length >= 1 && l.lines.length <= l.next);
  const up = l.lines.filter((x) => / up in station mode on port \d+$/.test(x));
  assert.is(up.length, 1, l.lines.join("\n"));
  assert.match(up[0], STAMPED);
  assert.match(up[0], /^\d\d:\d\d:\d\d pixloop \S+ up in station mode/);
});

station("after=next answers no lines; after=next-1 the newest one; next stays", async () => {
  const all = await logs(dut);
  assert.equal(await logs(dut, all.next), { next: all.next, lines: [] });
  assert.equal(await logs(dut, all.next - 1), { next: all.next, lines: [all.lines[all.lines.length - 1]] });
  assert.equal(await logs(dut, 0), all);
  assert.equal(await logs(dut, all.next + 100), { next: all.next, lines: [] });
});

station("GET only: other methods answer 405", async () => {
  for (const method of ["POST", "PUT", "DELETE"]) {
    const r = await call(dut, method, "/api/v1/logs", method === "PUT" ? { body: {} } : {});
    assert.is(r.status, 405, method);
    assert.equal(r.body, { error: { code: "methodNotAllowed", message: "allowed method(s): GET" } });
  }
});

station("an event shows up as the next lines, once, and a poll from the old next gets only them", async () => {
  const sim = dut.sim;
  if (!sim) return;
  const before = await logs(dut);
  // A module that no longer evaluates (of an app not preloaded as the next page): the loader and
  // the app loop both report it.
  const file = "a/m.apps.builtin.humidity"; // in the running slot (firmware/update/README.md)
  const good = sim.device.storage.read(file) as string;
  sim.device.storage.write(file, "(()=>{return {");
  try {
    assert.is((await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Humidity", fast: true } })).status, 200);
    await sleep(100);
    const now = await logs(dut, before.next);
    assert.ok(now.next > before.next, "next " + before.next + " -> " + now.next);
    assert.is(now.lines.length, now.next - before.next);
    assert.ok(now.lines.every((l) => STAMPED.test(l)), now.lines.join("\n"));
    assert.ok(now.lines.some((l) => l.includes("module apps/builtin/humidity is broken")), now.lines.join("\n"));
    assert.ok(now.lines.some((l) => l.includes("app Humidity cannot be shown")), now.lines.join("\n"));
    assert.ok(now.lines.every((l) => l.length <= 120));
    // Nothing repeats: the old lines are still where they were.
    const all = await logs(dut);
    assert.equal(all.lines.slice(all.lines.length - now.lines.length), now.lines);
  } finally {
    sim.device.storage.write(file, good);
  }
});

const setup = suite("logs in setup mode");
let fresh: Target;
setup.before(async () => { fresh = await startTarget({ setup: true }); });
setup.after(async () => { await fresh.stop(); });

setup("refused with 403 forbidden during provisioning", async () => {
  const r = await call(fresh, "GET", "/api/v1/logs");
  assert.is(r.status, 403, r.text);
  assert.is(r.body.error.code, "forbidden");
  assert.is((await call(fresh, "GET", "/api/v1/logs?after=0")).status, 403);
});

station.run();
setup.run();
