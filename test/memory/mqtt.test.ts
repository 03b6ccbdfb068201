// The MQTT budgets in the real interpreter ($ESPRUINO), the firmware booted as the clock boots it
// and talking to aedes in this process on 127.0.0.1:
// - connected and idle, the MQTT session (module mqtt/session, whose code a clock with MQTT off does
//   not hold), the client's connection and its subscriptions hold at most 600 variables over the
//   same firmware with MQTT off, the client and the surface at most 300 of them; the discovery
//   document's module is loaded only to publish it;
// - with the broker gone, frames keep their pace (none more than 100 ms after the one before) while
//   the client tries again and again, and once the broker is back the client reconnects and memory
//   is where it was;
// - 1,000 command messages leave no variable behind and are each answered at most 2 ms later than
//   the same body over HTTP (medians); a flood of 1,000 is answered whole and in order while the
//   display keeps running.
// Memory is read with the loop held still on the Time app: the figures are differences, and a page
// change inside a reading would add its transition's scratch to one side only. What stays is the
// usage most readings of a window show; what comes and goes is reported as the window's peak.
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { startEspruino, type EspruinoTarget } from "../espruino/launch";
import { SERVE_KEEP_MS, firmwareUsage, sleep } from "./probe";
import { Commander, frameGaps, heldBy, median, mostOften, settled, type Gaps } from "./mqtt-probe";
import { freePort, startAedes, type Broker } from "../unit/mqtt-support";

const bin = process.env.ESPRUINO;
/** What MQTT may add, connected and idle, to the firmware with MQTT off: its code included. */
const SESSION_BUDGET = 600;
/** What the client and the surface may hold of it (their objects, the socket, timers and listeners). */
const RESIDENT_BUDGET = 300;
/** "Back where it was": the tolerance of the other memory budgets (bench/README.md). */
const SAME = 10;
/** No frame may come later than this after the one before (the engine ticks every 25 ms). */
const LATE_MS = 100;
/** How much longer than over HTTP a command may take over MQTT (medians). */
const SLACK_MS = 2;
const COMMANDS = 1000;
/** A still clock's memory window: every periodic job but the statistics. */
const IDLE_WINDOW_MS = 3000;
/** Longer than statsInterval's default (10 s): the window holds one state/device publish. */
const STATS_WINDOW_MS = 10500;
/** Property names only the client (firmware/mqtt/client.ts) and the surface's state (state.ts) have. */
const CLIENT = ["retryMs", "owed", "sock"];
const SURFACE = ["seen", "shownApp", "statsMs"];

let t: EspruinoTarget;
let broker: Broker;
let cmd: Commander;
let uid = "";
/** Connected and idle (resident), from the first test; the second comes back to it. */
let connectedIdle = 0;
/** What stays after a period of the command mix, as the third test leaves the clock. */
let commandIdle = 0;

/**
 * aedes writes a packet in pieces; with Nagle's algorithm on its sockets every piece after the
 * first waits for the peer's delayed acknowledgement (40 ms on Linux), a cost of this broker's
 * writer and not of the clock (mosquitto writes a packet whole), so its sockets send at once.
 */
async function startBroker(port = 0): Promise<Broker> {
  const b = await startAedes({}, port);
  b.broker.on("client", (c) => (c.conn as Socket).setNoDelay(true));
  return b;
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const r = await fetch(t.url + path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await r.text();
  let json: any = null;
  try { json = JSON.parse(text); } catch (e) { /* not JSON */ }
  return { status: r.status, json };
}

async function device(): Promise<any> {
  return (await call("GET", "/api/v1/device")).json;
}

/** `what` names the condition in the error; a function of it is asked only then. */
async function waitUntil(what: string | (() => string), cond: () => Promise<boolean> | boolean, timeoutMs: number,
  everyMs = 100): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("timed out waiting for " + (typeof what === "function" ? what() : what) + "\n" + t.tail(20));
    await sleep(everyMs);
  }
}

/** A test client on the broker, watching everything the clock says. */
async function watchBroker(): Promise<Commander> {
  const c = await Commander.connect(broker.port, "bench");
  await c.subscribe(uid + "/#");
  await c.subscribe("homeassistant/#");
  return c;
}

/** The loop held on the Time app, so that two readings see the same page. */
async function stillOnTime(): Promise<void> {
  assert.is((await call("PUT", "/api/v1/apps/active", { name: "Time" })).status, 200);
}

/** One command of the mix: its topic under <P>/cmd/, its payload, and the HTTP request it stands for. */
interface Command { topic: string; payload: string; method: string; path: string }

const COLORS = ["#FF0000", "#00FF00", "#0000FF", "#FFAA00"];

/** Command `i` of the mix: notify, apps/pushed/<name>, settings, display, indicators/1, apps/next in turn. */
function command(i: number): Command {
  const v = Math.floor(i / 6);
  switch (i % 6) {
    case 0:
      // Held and in place of the one on screen: the queue stays at one, as it was before.
      return { topic: "notify", payload: JSON.stringify({ text: "Door " + (v % 10) + " open", hold: true, stack: false }),
        method: "POST", path: "/api/v1/notifications" };
    case 1: {
      const name = "room" + (v % 5);
      return { topic: "apps/pushed/" + name, payload: JSON.stringify({ text: "Room " + (v % 5) + " 2" + (v % 10) + ".5 C", durationMs: 5000 }),
        method: "PUT", path: "/api/v1/apps/pushed/" + name };
    }
    case 2:
      return { topic: "settings", payload: JSON.stringify({ textColor: COLORS[v % 4] }), method: "PATCH", path: "/api/v1/settings" };
    case 3:
      return { topic: "display", payload: JSON.stringify({ brightness: 100 + (v % 8) * 10 }), method: "PATCH", path: "/api/v1/display" };
    case 4:
      return { topic: "indicators/1", payload: JSON.stringify({ color: COLORS[v % 4], blinkMs: (v % 2) * 500 }),
        method: "PUT", path: "/api/v1/indicators/1" };
    default:
      return { topic: "apps/next", payload: "", method: "POST", path: "/api/v1/apps/next" };
  }
}

/**
 * The mix repeats every 240 commands (its variants cycle every 10, 5, 4, 8 and 2 rounds) and steps
 * the loop 40 times in a period, back to where it began.
 */
const PERIOD = 240;

/** Sends one command and waits for its result; resolves with the milliseconds from publish to result. */
async function viaMqtt(c: Command): Promise<number> {
  const topic = uid + "/cmd/" + c.topic;
  const result = cmd.next(topic + "/result");
  const sent = cmd.publish(topic, c.payload);
  const got = await result;
  assert.is(got.payload, "{\"ok\":true}", c.topic + " " + c.payload);
  return got.at - sent;
}

/** The same body over HTTP; resolves with the milliseconds from request to the whole answer. */
async function viaHttp(c: Command): Promise<number> {
  const start = performance.now();
  const r = await fetch(t.url + c.path, {
    method: c.method,
    headers: c.payload === "" ? {} : { "Content-Type": "application/json" },
    body: c.payload === "" ? undefined : c.payload,
  });
  await r.arrayBuffer();
  const ms = performance.now() - start;
  assert.is(r.status, 200, c.method + " " + c.path + " " + c.payload);
  return ms;
}

/**
 * What stays once the clock has taken one period of the mix from the Time app and is back on it.
 * Pages keep the settings they were made with, so what the clock holds depends on the order it
 * took commands in: both readings of a comparison come after the same period.
 */
async function afterPeriod(): Promise<number> {
  await stillOnTime();
  for (let i = 0; i < PERIOD; i++) await viaMqtt(command(i));
  await stillOnTime();
  return (await settled(t, IDLE_WINDOW_MS)).resident;
}

const signed = (n: number) => (n >= 0 ? "+" : "") + n;

test.before(async () => {
  if (!bin) return;
  broker = await startBroker();
  t = await startEspruino("esp32", { debug: true });
  uid = (await device()).uid;
  cmd = await watchBroker();
  assert.is((await call("PATCH", "/api/v1/settings", { autoTransition: false })).status, 200);
  await stillOnTime();
});

test.after(async () => {
  if (cmd) cmd.close();
  if (t) await t.stop();
  if (broker) await broker.close();
});

test("connected and idle: the session at most 600 variables, client and surface 300 of them; discovery loaded only to publish", async () => {
  if (!bin) return console.log("  skipped: set ESPRUINO to measure MQTT in the real interpreter");
  const off = await settled(t, IDLE_WINDOW_MS);
  // First a port nobody listens on: the interpreter makes its InternalError class for the first
  // refused connection (6 variables, once), so the reading after the broker's outage later
  // compares like with like.
  const closed = await freePort();
  assert.is((await call("PUT", "/api/v1/system", { mqttEnabled: true, mqttHost: "127.0.0.1", mqttPort: closed })).status, 200);
  await waitUntil("a refused connection", async () => (await device()).mqtt.error === "refused", 5000);
  assert.is((await call("PUT", "/api/v1/system", { mqttPort: broker.port })).status, 200);
  await waitUntil("the clock online", () => cmd.on(uid + "/availability").includes("online"), 15000);
  // Everything a connect publishes has gone out once state/device has.
  await waitUntil("state/device", () => cmd.on(uid + "/state/device").length > 0, 5000);
  assert.is((await device()).mqtt.state, "connected");
  await stillOnTime();
  const on = await settled(t, STATS_WINDOW_MS);

  const dump = await t.requestDump("mqtt-connected");
  const client = heldBy(dump, CLIENT);
  const surface = heldBy(dump, SURFACE);
  const both = heldBy(dump, CLIENT, SURFACE);
  const socket = client.parts["\"sock\""] || 0;
  const timers = surface.parts["timers and watches"] || 0;

  // Discovery: the document goes out, and nothing of what made it stays.
  assert.is((await call("PUT", "/api/v1/system", { haDiscovery: true })).status, 200);
  const docTopic = "homeassistant/device/" + uid + "/config";
  await waitUntil("the discovery document", () => cmd.on(docTopic).length > 0, 5000);
  assert.ok(Object.keys(JSON.parse(cmd.on(docTopic)[0]).cmps).length > 5, "discovery components");
  const afterDiscovery = await settled(t, IDLE_WINDOW_MS);

  console.log("  MQTT off " + off.resident + ", connected and idle " + on.resident + ": " + signed(on.resident - off.resident) +
    " (budget " + SESSION_BUDGET + "); peak over " + STATS_WINDOW_MS / 1000 + " s " + on.peak + ": " + signed(on.peak - off.resident) +
    " while state/device goes out");
  console.log("  held connected (variable dump): client " + client.total + " (its socket " + socket + "), surface " +
    surface.total + " (its timer and button watches " + timers + "), both " + both.total);
  console.log("  after publishing discovery (" + cmd.on(docTopic)[0].length + " bytes): " + afterDiscovery.resident + ", " +
    signed(afterDiscovery.resident - on.resident));
  assert.ok(on.resident - off.resident <= SESSION_BUDGET, "connected " + signed(on.resident - off.resident));
  assert.ok(both.total <= RESIDENT_BUDGET, "client and surface hold " + both.total);
  assert.ok(client.total > 0 && socket > 0, "the dump shows the client and its socket");
  assert.ok(Math.abs(afterDiscovery.resident - on.resident) <= SAME, "after discovery " + signed(afterDiscovery.resident - on.resident));
  connectedIdle = afterDiscovery.resident;
});

test("broker down: frames keep their pace while the client retries; back, it reconnects to the same memory", async () => {
  if (!bin) return;
  const port = broker.port;
  let worst = 0;
  let worstOwn = 0;
  let late = 0;
  let last: Gaps = await frameGaps(t);
  const framesAtStart = last.frames;
  const tick = async () => {
    await sleep(250);
    const g = await frameGaps(t);
    worst = Math.max(worst, g.maxMs);
    worstOwn = Math.max(worstOwn, g.ownMs);
    late += g.over50;
    last = g;
  };

  const start = Date.now();
  cmd.close();
  await broker.close();
  // The back-off (5 s, 5 s, then doubling up to a minute, each shortened by up to a fifth:
  // firmware/mqtt/client.ts) has no knob, so the broker stays away until just before the fifth
  // attempt: four attempts refused, 64 to 80 s. Ten minutes would add about ten more attempts,
  // 48 to 60 s apart (the back-off's cap), each the same refused connect with only a timer between
  // them; memory read after the third and after the fourth attempt shows that nothing piles up
  // from one to the next. Device state is asked only to place the readings.
  const between: { [attempt: number]: number[] } = {};
  let reading = 0;
  let readFrom = 0;
  let readTo = 0;
  let ask = start + 21000;
  let restartAt = 0;
  while (!restartAt || Date.now() < restartAt) {
    await tick();
    const now = Date.now();
    if (reading && now >= readFrom && now < readTo) (between[reading] = between[reading] || []).push(await firmwareUsage(t));
    if (restartAt || now < ask || now < readTo) continue;
    const s = (await device()).mqtt;
    const due = Date.now() + s.retryInMs;
    if (s.state === "disconnected" && (s.attempts === 3 || s.attempts === 4) && !between[s.attempts] && s.retryInMs > 8000) {
      reading = s.attempts;
      readFrom = Date.now() + SERVE_KEEP_MS + 200;
      readTo = readFrom + 2000;
      if (s.attempts === 4) restartAt = due - 2000;
      else ask = due + 1000;
    } else {
      assert.ok(s.attempts <= 4 && s.state !== "connected", "attempts " + s.attempts + ", " + s.state);
      ask = Date.now() + 2000;
    }
  }
  const downMs = Date.now() - start;
  const downFrames = last.frames - framesAtStart;
  const attempts = (await device()).mqtt.attempts;

  broker = await startBroker(port);
  cmd = await watchBroker();
  await waitUntil("the clock online again", () => cmd.on(uid + "/availability").includes("online"), 15000, 20);
  await waitUntil("discovery again", () => cmd.on("homeassistant/device/" + uid + "/config").length > 0, 5000, 20);
  await sleep(1000);
  const rejoin = await frameGaps(t);
  const s = (await device()).mqtt;
  assert.equal([s.state, s.connects], ["connected", 2]);
  await stillOnTime();
  const back = await settled(t, IDLE_WINDOW_MS);
  const mem3 = mostOften(between[3] || [NaN]);
  const mem4 = mostOften(between[4] || [NaN]);

  console.log("  broker down " + (downMs / 1000).toFixed(1) + " s, " + attempts + " attempts refused (" + s.lastError + "); " +
    downFrames + " frames (" + (downFrames / (downMs / 1000)).toFixed(1) + " a second), the longest gap " + worstOwn +
    " ms (" + worst + " ms with the waits for a processor this machine's other processes caused), " + late + " over 50 ms");
  console.log("  reconnecting (everything retained published again, discovery included): the longest gap " + rejoin.ownMs +
    " ms (" + rejoin.maxMs + " ms with the waits)");
  console.log("  memory while down: after attempt 3 " + mem3 + ", after attempt 4 " + mem4 + "; connected again " +
    back.resident + " (before " + connectedIdle + ", " + signed(back.resident - connectedIdle) + ")");
  assert.is(attempts, 4);
  assert.ok(worstOwn <= LATE_MS, "a frame came " + worstOwn + " ms after the one before (" + worst + " ms with the waits)");
  assert.ok(Math.abs(mem4 - mem3) <= SAME, "attempt 3 " + mem3 + ", attempt 4 " + mem4);
  assert.ok(Math.abs(back.resident - connectedIdle) <= SAME, "connected again " + signed(back.resident - connectedIdle));
});

test("1,000 commands: no growth; each at most 2 ms slower over MQTT than over HTTP (medians)", async () => {
  if (!bin) return;
  const before = await afterPeriod();
  const mqttMs: { [kind: string]: number[] } = {};
  const httpMs: { [kind: string]: number[] } = {};
  const kind = (c: Command) => c.topic.startsWith("apps/pushed/") ? "apps/pushed/<name>" : c.topic;
  // Each command over MQTT and its twin over HTTP one after the other, so both meet the clock in the
  // same state. What a command leaves to do after its answer (apps/next changes the page) slows
  // whatever comes next, so the twins take turns going first: each way follows its own twin in
  // one round and the command before it in the next.
  for (let i = 0; i < COMMANDS; i++) {
    const c = command(i);
    const m = (mqttMs[kind(c)] = mqttMs[kind(c)] || []);
    const h = (httpMs[kind(c)] = httpMs[kind(c)] || []);
    if (Math.floor(i / 6) % 2 === 0) {
      m.push(await viaMqtt(c));
      h.push(await viaHttp(c));
    } else {
      h.push(await viaHttp(c));
      m.push(await viaMqtt(c));
    }
  }
  const after = await afterPeriod();
  commandIdle = after;

  console.log("  idle before " + before + ", after " + COMMANDS + " commands (and as many over HTTP) " + after + ": " +
    signed(after - before));
  const rows: string[] = [];
  const slower: string[] = [];
  for (const k of Object.keys(mqttMs)) {
    const m = median(mqttMs[k]);
    const h = median(httpMs[k]);
    rows.push("    " + k.padEnd(20) + " MQTT " + m.toFixed(2).padStart(6) + " ms, HTTP " + h.toFixed(2).padStart(6) + " ms (" +
      mqttMs[k].length + " each)");
    if (m > h + SLACK_MS) slower.push(k + " " + m.toFixed(2) + " > " + h.toFixed(2) + " + " + SLACK_MS);
  }
  const all = (x: { [k: string]: number[] }) => ([] as number[]).concat(...Object.values(x));
  rows.push("    " + "all".padEnd(20) + " MQTT " + median(all(mqttMs)).toFixed(2).padStart(6) + " ms, HTTP " +
    median(all(httpMs)).toFixed(2).padStart(6) + " ms (medians: publish to result, request to answer)");
  console.log(rows.join("\n"));
  assert.ok(Math.abs(after - before) <= SAME, "after " + COMMANDS + " commands " + signed(after - before));
  assert.equal(slower, []);
});

test("a flood of 1,000 commands: every result, in order; no growth; the display keeps running", async () => {
  if (!bin) return;
  const before = commandIdle || await afterPeriod();
  const from = cmd.received.length;
  const counted = (await device()).messageCount;
  let published = 0;
  const count = (p: { topic: string }, c: unknown) => {
    if (c && (c as { id: string }).id === uid && p.topic.endsWith("/result")) published++;
  };
  broker.broker.on("publish", count);
  const expected: string[] = [];
  const framesBefore = (await frameGaps(t)).frames;
  const t0 = performance.now();
  for (let i = 0; i < COMMANDS; i++) {
    const c = command(i);
    cmd.publish(uid + "/cmd/" + c.topic, c.payload);
    expected.push(uid + "/cmd/" + c.topic + "/result");
  }
  const results = () => cmd.received.slice(from).filter((m) => m.topic.endsWith("/result"));
  // Done when all are in, or when none has come for three seconds.
  let seen = 0;
  let quietSince = Date.now();
  let lastAt = t0;
  while (results().length < COMMANDS && Date.now() - quietSince < 3000) {
    await sleep(50);
    const n = results().length;
    if (n !== seen) {
      seen = n;
      quietSince = Date.now();
      lastAt = results()[n - 1].at;
    }
  }
  const ms = lastAt - t0;
  const g = await frameGaps(t);
  broker.broker.removeListener("publish", count);
  const got = results();
  // Whether what did arrive came in the order sent.
  let k = 0;
  let inOrder = true;
  for (const m of got) {
    while (k < expected.length && expected[k] !== m.topic) k++;
    if (k++ >= expected.length) inOrder = false;
  }
  const d = await device();
  const after = await afterPeriod();

  console.log("  flood: " + got.length + " of " + COMMANDS + " results" + (inOrder ? ", in order" : ", out of order") +
    " (the clock took " + (d.messageCount - counted) + " commands and published " + published + " results) in " +
    (ms / 1000).toFixed(2) + " s; meanwhile " + (g.frames - framesBefore) + " frames, the longest gap " +
    g.ownMs + " ms (" + g.maxMs + " ms with the waits for a processor), " + g.over50 + " over 50 ms; fps after " + d.fps);
  console.log("  idle before " + before + ", after the flood " + after + ": " + signed(after - before));
  assert.is(d.messageCount - counted, COMMANDS, "commands taken");
  assert.ok(g.frames - framesBefore >= ms / 25 / 2, (g.frames - framesBefore) + " frames in " + ms.toFixed(0) + " ms");
  assert.ok(d.fps >= 30, "fps " + d.fps);
  assert.ok(Math.abs(after - before) <= SAME, "after the flood " + signed(after - before));
  assert.ok(got.every((m) => m.payload === "{\"ok\":true}"), "every result ok");
  assert.ok(inOrder, "results out of order");
  assert.is(got.length, COMMANDS, "results");
  assert.equal(got.map((m) => m.topic), expected);
});

test.run();
