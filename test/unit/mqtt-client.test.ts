// The MQTT client against real brokers on 127.0.0.1: aedes in this process (its hooks see what the
// client sends), a few hand-made ones that misbehave, and Debian's mosquitto when installed. The
// client's `net` and `tls` are the harness's stand-ins for Espruino's over real sockets.
import Module from "node:module";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as mqtt from "mqtt-packet";
import { HostSockets } from "../harness/net";
import { crc32 } from "../harness/crc32";
import { Observer, freePort, mosquittoBinary, sleep, startAedes, startMosquitto, waitFor } from "./mqtt-support";
import type { Broker } from "./mqtt-support";

// ---- Espruino's world for the client ------------------------------------------------------------

const sockets = new HostSockets();
/** What the firmware's require("net") and require("tls") give; a test may stand in a module of its own. */
let espruinoModule = (name: "net" | "tls"): unknown => sockets.module(name === "tls");
type Load = (request: string, parent: { filename?: string } | null, ...rest: unknown[]) => unknown;
const loader = Module as unknown as { _load: Load };
const printed: string[] = [];
const g = globalThis as unknown as { [k: string]: unknown };
// Other suites in this process set these their own way (a fixed clock, loaders of their own) and
// put back what they found: this suite's are installed for its own tests only.
const saved: { [k: string]: unknown } = {};
let savedLoad: Load | null = null;
test.before(() => {
  const nodeLoad = savedLoad = loader._load;
  // Only the firmware's require("net") gets Espruino's sockets: aedes and the tests keep Node's.
  loader._load = function (this: unknown, request, parent, ...rest) {
    if ((request === "net" || request === "tls") && parent && /[\\/]firmware[\\/]/.test(parent.filename || "")) {
      return espruinoModule(request);
    }
    return nodeLoad.call(this, request, parent, ...rest);
  };
  for (const k of ["getTime", "print", "E"]) saved[k] = g[k];
  g.getTime = () => Date.now() / 1000;
  g.print = (...a: unknown[]) => { printed.push(a.join(" ")); };
  g.E = Object.assign({}, g.E, { CRC32: (s: string) => crc32(Buffer.from(s, "latin1")) });
});
test.after(() => {
  if (savedLoad) loader._load = savedLoad;
  for (const k of Object.keys(saved)) g[k] = saved[k];
});

const { MqttClient } = require("../../firmware/mqtt/client") as typeof import("../../firmware/mqtt/client");
const { ConnectionStatus, statusView } = require("../../firmware/net/status") as typeof import("../../firmware/net/status");
type MqttConfig = import("../../firmware/mqtt/client").MqttConfig;
type Client = InstanceType<typeof MqttClient>;
type Status = InstanceType<typeof ConnectionStatus>;

const UID = "a4cf12ab34cd";

function config(port: number, extra: Partial<MqttConfig> = {}): MqttConfig {
  return Object.assign({
    mqttEnabled: true, mqttHost: "127.0.0.1", mqttPort: port, mqttUser: "", mqttPass: "",
    mqttTls: false, mqttTlsPin: "", mqttPrefix: "",
  }, extra);
}

interface Device {
  client: Client;
  status: Status;
  cfg: MqttConfig;
  messages: [string, string][];
  /** Switches the client off (and so closes its connection). */
  stop(): void;
}

function device(cfg: MqttConfig, retryMs = 100): Device {
  const status = new ConnectionStatus();
  const client = new MqttClient(status, UID, () => cfg);
  client.retryMs = retryMs;
  client.connectWaitMs = 1000;
  const messages: [string, string][] = [];
  client.onMessage = (topic, payload) => { messages.push([topic, payload]); };
  return {
    client, status, cfg, messages,
    stop: () => {
      cfg.mqttEnabled = false;
      client.reconfigure();
    },
  };
}

/** The device's connection dropped without a word, as when Wi-Fi goes. */
function cutDeviceSocket(): void {
  for (const s of sockets.open) s.destroy();
}

async function withAedes(opts: Parameters<typeof startAedes>[0], fn: (b: Broker) => Promise<void>): Promise<void> {
  const b = await startAedes(opts);
  try {
    await fn(b);
  } finally {
    await b.close();
  }
}

/** A broker written by hand: `answer` sees each packet of each connection and may reply. */
async function handMade(answer: (p: mqtt.Packet, s: net.Socket, n: number) => void): Promise<{ port: number; connections: number; closedByClient: number; close(): Promise<void> }> {
  const state = { port: 0, connections: 0, closedByClient: 0, close: async () => undefined as void };
  const open = new Set<net.Socket>();
  const server = net.createServer((s) => {
    const n = ++state.connections;
    open.add(s);
    const parser = mqtt.parser({ protocolVersion: 4 });
    parser.on("packet", (p) => answer(p, s, n));
    s.on("data", (b) => parser.parse(b));
    s.on("end", () => { state.closedByClient++; });
    s.on("error", () => undefined);
    s.on("close", () => open.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  state.port = (server.address() as net.AddressInfo).port;
  state.close = async () => {
    for (const s of open) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return state;
}

// ---- connecting -----------------------------------------------------------------------------

test("connects with credentials: client id, clean session, will, subscription, online retained", async () => {
  let connect: mqtt.IConnectPacket | null = null;
  let subscribed: [string, number][] = [];
  await withAedes({
    preConnect: (_c, packet, cb) => {
      if ((packet as mqtt.IConnectPacket).clientId === UID) connect = packet as mqtt.IConnectPacket;
      cb(null, true);
    },
    authenticate: (c, user, pass, done) => done(null, c.id !== UID || (user === "clock" && String(pass) === "pa55")),
  }, async (b) => {
    b.broker.on("subscribe", (subs, c) => { if (c.id === UID) subscribed = subs.map((s) => [s.topic, s.qos]); });
    const d = device(config(b.port, { mqttUser: "clock", mqttPass: "pa55" }));
    let connects = 0;
    d.client.onConnect = () => { connects++; };
    assert.is(d.client.connected(), false);
    d.client.reconfigure();
    assert.is(d.status.state, "connecting");
    await waitFor("connected", () => d.client.connected());
    assert.is(connects, 1);
    assert.equal(statusView(d.status, Date.now()), {
      enabled: true, state: "connected", host: "127.0.0.1", endpoint: "127.0.0.1:" + b.port,
      attempts: 0, retryInMs: 0, connects: 1, error: null, lastError: null,
    });
    const c = connect as unknown as mqtt.IConnectPacket;
    assert.is(c.clientId, UID);
    assert.is(c.clean, true);
    assert.is(c.keepalive, 60);
    assert.is(c.username, "clock");
    assert.equal([c.will!.topic, String(c.will!.payload), c.will!.qos, c.will!.retain], [UID + "/availability", "offline", 1, true]);
    await waitFor("subscription", () => subscribed.length > 0);
    assert.equal(subscribed, [[UID + "/cmd/#", 1]]);
    assert.is(d.client.prefix(), UID);
    // A late subscriber gets "online" from the broker's retained store.
    const watch = await Observer.connect(b.port, "watch");
    await watch.subscribe(UID + "/availability");
    await waitFor("retained online", () => watch.received.length > 0);
    assert.equal(watch.received[0], { topic: UID + "/availability", payload: "online", qos: 1, retain: true });
    watch.close();
    d.stop();
  });
});

test("wrong credentials: badCredentials, retries later each time, no busy loop", async () => {
  const tries: number[] = [];
  await withAedes({
    authenticate: (_c, _u, _p, done) => {
      tries.push(Date.now());
      const e = Object.assign(new Error("no"), { returnCode: 4 as const });
      done(e, false);
    },
  }, async (b) => {
    const d = device(config(b.port, { mqttUser: "clock", mqttPass: "wrong" }));
    d.client.reconfigure();
    await waitFor("first refusal", () => d.status.error !== null);
    const view = statusView(d.status, Date.now()) as { [k: string]: unknown };
    assert.equal([view.state, view.error, view.lastError, view.connects], ["disconnected", "badCredentials", "badCredentials", 0]);
    assert.ok((view.retryInMs as number) > 0 && (view.retryInMs as number) <= 100, "retry in " + view.retryInMs);
    assert.is(d.client.publish(UID + "/state/x", "v", false, 0), false);
    await sleep(1700);
    assert.ok(d.status.attempts >= 3);
    assert.is(d.status.connects, 0);
    d.stop();
    // Waits of 100, 200, 400, 800 ms, each up to 20% shorter: five attempts at most in 1.7 s.
    assert.ok(tries.length >= 3 && tries.length <= 5, tries.length + " attempts");
    for (let i = 2; i < tries.length; i++) {
      const ratio = (tries[i] - tries[i - 1]) / (tries[i - 1] - tries[i - 2]);
      assert.ok(ratio > 1.3 && ratio < 3, "wait grew " + ratio.toFixed(2) + " times");
    }
  });
});

test("the broker publishes the will when the connection drops; the client comes back online", async () => {
  await withAedes({}, async (b) => {
    const watch = await Observer.connect(b.port, "watch");
    await watch.subscribe(UID + "/availability");
    const d = device(config(b.port));
    d.client.reconfigure();
    await waitFor("online", () => watch.on(UID + "/availability").includes("online"));
    cutDeviceSocket();
    await waitFor("will", () => watch.on(UID + "/availability").includes("offline"));
    await waitFor("reconnected", () => d.status.connects === 2);
    await waitFor("online again", () => watch.on(UID + "/availability").join() === "online,offline,online");
    assert.equal([d.status.state, d.status.error, d.status.lastError], ["connected", null, "lost"]);
    watch.close();
    d.stop();
  });
});

test("commands under <P>/cmd/ reach onMessage with their topic and bytes; nothing else does", async () => {
  await withAedes({}, async (b) => {
    const d = device(config(b.port));
    d.client.reconfigure();
    await waitFor("connected", () => d.client.connected());
    await sleep(50);
    const send = await Observer.connect(b.port, "sender");
    const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i)).toString("latin1");
    await send.publish(UID + "/cmd/notify", binary, 1);
    await send.publish(UID + "/cmd", "bare", 1);
    await send.publish(UID + "/cmd/", "empty rest", 1);
    await send.publish(UID + "/state/device", "{}", 1);
    await send.publish("other/cmd/notify", "{}", 1);
    await send.publish(UID + "/cmd/apps/next", "", 1);
    await send.publish(UID + "/cmd/end", "end", 1);
    await waitFor("last command", () => d.messages.length > 0 && d.messages[d.messages.length - 1][0] === UID + "/cmd/end");
    assert.equal(d.messages, [[UID + "/cmd/notify", binary], [UID + "/cmd/apps/next", ""], [UID + "/cmd/end", "end"]]);
    send.close();
    d.stop();
  });
});

test("QoS 1 both ways: the client acknowledges, and its own QoS 1 publish arrives as QoS 1", async () => {
  let acked = 0;
  const published: { topic: string; qos: number; retain: boolean; id: number }[] = [];
  await withAedes({}, async (b) => {
    // aedes 1.2 reports the PUBACK, not which message it acknowledged (see the hand-made broker below).
    b.broker.on("ack", (_p, c) => { if (c && c.id === UID) acked++; });
    b.broker.on("publish", (p, c) => {
      if (c && c.id === UID) published.push({ topic: p.topic, qos: p.qos, retain: p.retain, id: p.messageId || 0 });
    });
    const d = device(config(b.port));
    d.client.reconfigure();
    await waitFor("connected", () => d.client.connected());
    const watch = await Observer.connect(b.port, "watch");
    await watch.subscribe(UID + "/state/#", 1);
    await watch.publish(UID + "/cmd/q", "one", 1);
    await waitFor("ack", () => acked === 1);
    assert.equal(d.messages, [[UID + "/cmd/q", "one"]]);
    assert.is(d.client.publish(UID + "/state/x", "two", false, 1), true);
    assert.is(d.client.publish(UID + "/state/y", "three", true, 0), true);
    await waitFor("delivered", () => watch.received.length === 2);
    // The broker may pass a QoS 0 message before a QoS 1 one: order holds within a QoS only.
    assert.equal(watch.received.map((m) => [m.topic, m.payload, m.qos]).sort(), [[UID + "/state/x", "two", 1], [UID + "/state/y", "three", 0]]);
    const mine = published.filter((p) => p.topic.startsWith(UID + "/state/")).sort((x, y) => (x.topic < y.topic ? -1 : 1));
    assert.equal(mine.map((p) => [p.qos, p.retain]), [[1, false], [0, true]]);
    assert.ok(mine[0].id > 0);
    watch.close();
    d.stop();
  });
});

test("keep-alive: a PINGREQ each period, and the session stays up", async () => {
  let pings = 0;
  await withAedes({}, async (b) => {
    b.broker.on("ping", (_p, c) => { if (c.id === UID) pings++; });
    const d = device(config(b.port));
    d.client.keepAliveS = 1;
    d.client.reconfigure();
    await waitFor("connected", () => d.client.connected());
    await sleep(3300);
    assert.ok(pings >= 3 && pings <= 4, pings + " pings");
    assert.equal([d.client.connected(), d.status.connects], [true, 1]);
    d.stop();
  });
});

test("an unanswered ping ends the session as lost, and the client connects again", async () => {
  const fake = await handMade((p, s) => {
    if (p.cmd === "connect") s.write(mqtt.generate({ cmd: "connack", returnCode: 0, sessionPresent: false }));
  });
  try {
    const d = device(config(fake.port));
    d.client.keepAliveS = 1;
    d.client.reconfigure();
    await waitFor("connected", () => d.client.connected());
    await waitFor("lost", () => d.status.lastError === "lost", 4000);
    await waitFor("second connection", () => fake.connections === 2, 2000);
    d.stop();
  } finally {
    await fake.close();
  }
});

test("a server that never answers CONNECT: timeout, then retried", async () => {
  const fake = await handMade(() => undefined);
  try {
    const d = device(config(fake.port));
    d.client.connectWaitMs = 300;
    d.client.reconfigure();
    await waitFor("timeout", () => d.status.error === "timeout", 2000);
    assert.is(d.status.state, "disconnected");
    await waitFor("retried", () => fake.connections === 2, 2000);
    d.stop();
  } finally {
    await fake.close();
  }
});

test("malformed bytes from the broker close the connection cleanly; the client retries later", async () => {
  const fake = await handMade((p, s, n) => {
    if (p.cmd !== "connect") return;
    s.write(mqtt.generate({ cmd: "connack", returnCode: 0, sessionPresent: false }));
    // A remaining length of five bytes, on the first connection only.
    if (n === 1) setTimeout(() => s.write(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01])), 50);
  });
  try {
    const d = device(config(fake.port));
    d.client.reconfigure();
    await waitFor("first session", () => d.status.connects === 1);
    await waitFor("closed by the client", () => fake.closedByClient === 1);
    assert.is(d.status.lastError, "lost");
    assert.ok(printed.some((l) => l.startsWith("mqtt: malformed packet from 127.0.0.1:" + fake.port)));
    await waitFor("second session", () => d.status.connects === 2);
    assert.is(d.client.connected(), true);
    d.stop();
  } finally {
    await fake.close();
  }
});

test("a QoS 2 message, never granted, is a protocol error: the session ends and starts again", async () => {
  const fake = await handMade((p, s, n) => {
    if (p.cmd === "connect") s.write(mqtt.generate({ cmd: "connack", returnCode: 0, sessionPresent: false }));
    if (p.cmd === "subscribe") {
      s.write(mqtt.generate({ cmd: "suback", messageId: p.messageId, granted: [1] }));
      if (n === 1) {
        s.write(mqtt.generate({ cmd: "publish", topic: UID + "/cmd/a", payload: Buffer.from("2"), qos: 2, messageId: 5, retain: false, dup: false }));
      } else {
        s.write(mqtt.generate({ cmd: "publish", topic: UID + "/cmd/b", payload: Buffer.from("1"), qos: 1, messageId: 6, retain: false, dup: false }));
      }
    }
  });
  try {
    const d = device(config(fake.port));
    d.client.reconfigure();
    await waitFor("second session", () => d.status.connects === 2);
    await waitFor("the QoS 1 message", () => d.messages.length === 1);
    assert.equal(d.messages, [[UID + "/cmd/b", "1"]]);
    assert.equal([fake.closedByClient, d.status.lastError], [1, "lost"]);
    d.stop();
  } finally {
    await fake.close();
  }
});

test("a broker down at start: refused, retried, connected once it is up", async () => {
  const port = await freePort();
  const d = device(config(port));
  d.client.reconfigure();
  await waitFor("refused", () => d.status.error === "refused");
  await waitFor("a retry", () => d.status.attempts >= 2);
  const b = await startAedes({}, port);
  try {
    await waitFor("connected", () => d.client.connected(), 3000);
    assert.equal([d.status.connects, d.status.attempts, d.status.error, d.status.lastError], [1, 0, null, "refused"]);
    d.stop();
  } finally {
    await b.close();
  }
});

test("a broker restart: lost, then connected again (connects counts both)", async () => {
  const first = await startAedes({});
  const port = first.port;
  const d = device(config(port));
  d.client.reconfigure();
  await waitFor("connected", () => d.client.connected());
  await first.close();
  await waitFor("lost", () => d.status.error === "lost");
  assert.is(d.client.connected(), false);
  const second = await startAedes({}, port);
  try {
    await waitFor("reconnected", () => d.client.connected(), 3000);
    assert.equal([d.status.connects, d.status.lastError], [2, "lost"]);
    const watch = await Observer.connect(port, "watch");
    await watch.publish(UID + "/cmd/after", "restart", 1);
    await waitFor("command after restart", () => d.messages.length === 1);
    watch.close();
    d.stop();
  } finally {
    await second.close();
  }
});

test("reconfigure: another broker and prefix without a restart; unchanged is a no-op; off stops", async () => {
  const a = await startAedes({});
  const wills: string[] = [];
  const b = await startAedes({
    preConnect: (_c, p, cb) => {
      const c = p as mqtt.IConnectPacket;
      if (c.clientId === UID) wills.push(c.will!.topic);
      cb(null, true);
    },
  });
  try {
    const watchA = await Observer.connect(a.port, "watchA");
    await watchA.subscribe(UID + "/availability");
    const watchB = await Observer.connect(b.port, "watchB");
    await watchB.subscribe("kitchen/availability");
    const d = device(config(a.port));
    d.client.reconfigure();
    await waitFor("online at A", () => watchA.on(UID + "/availability").includes("online"));
    d.cfg.mqttPort = b.port;
    d.cfg.mqttPrefix = "kitchen";
    d.client.reconfigure();
    assert.is(d.client.prefix(), "kitchen");
    await waitFor("goodbye at A", () => watchA.on(UID + "/availability").join() === "online,offline");
    await waitFor("online at B", () => watchB.on("kitchen/availability").includes("online"));
    assert.equal(wills, ["kitchen/availability"]);
    assert.equal([d.status.endpoint, d.status.connects], ["127.0.0.1:" + b.port, 2]);
    await watchB.publish("kitchen/cmd/hello", "B", 1);
    await waitFor("command at B", () => d.messages.length === 1);
    assert.equal(d.messages, [["kitchen/cmd/hello", "B"]]);
    // The same parameters again: the session stays.
    d.client.reconfigure();
    await sleep(200);
    assert.equal([wills.length, d.status.connects, d.client.connected()], [1, 2, true]);
    d.stop();
    assert.equal([d.client.connected(), d.status.enabled, d.status.state, d.status.error], [false, false, "disabled", null]);
    await waitFor("goodbye at B", () => watchB.on("kitchen/availability").join() === "online,offline");
    await sleep(300);
    assert.is(wills.length, 1);
    watchA.close();
    watchB.close();
  } finally {
    await a.close();
    await b.close();
  }
});

test("a flood of 1,000 commands at QoS 1, then 1,000 at QoS 0, all delivered in order", async () => {
  let acked = 0;
  await withAedes({}, async (b) => {
    b.broker.on("ack", (_p, c) => { if (c && c.id === UID) acked++; });
    const d = device(config(b.port));
    d.client.reconfigure();
    await waitFor("connected", () => d.client.connected());
    await sleep(50);
    const send = await Observer.connect(b.port, "sender");
    const expect: string[] = [];
    for (const qos of [1, 0] as const) {
      const acks: Promise<void>[] = [];
      for (let i = 0; i < 1000; i++) {
        expect.push(qos + ":" + i);
        acks.push(send.publish(UID + "/cmd/n", qos + ":" + i, qos));
      }
      await Promise.all(acks);
      await waitFor("all " + expect.length, () => d.messages.length === expect.length, 10000);
    }
    assert.equal(d.messages.map((m) => m[1]), expect);
    assert.is(acked, 1000);
    assert.equal([d.status.connects, d.client.connected()], [1, true]);
    send.close();
    d.stop();
  });
});

test("a slow consumer: every command waits its turn, none lost, the session stays", async () => {
  await withAedes({}, async (b) => {
    const d = device(config(b.port));
    const got: string[] = [];
    const block = new Int32Array(new SharedArrayBuffer(4));
    d.client.onMessage = (_t, payload) => {
      // 15 ms of work in the handler, as a command that writes flash would take.
      Atomics.wait(block, 0, 0, 15);
      got.push(payload);
    };
    d.client.reconfigure();
    await waitFor("connected", () => d.client.connected());
    await sleep(50);
    const send = await Observer.connect(b.port, "sender");
    const acks: Promise<void>[] = [];
    for (let i = 0; i < 150; i++) acks.push(send.publish(UID + "/cmd/slow", String(i), 1));
    await waitFor("all 150", () => got.length === 150, 10000);
    await Promise.all(acks);
    assert.equal(got, Array.from({ length: 150 }, (_, i) => String(i)));
    assert.equal([d.status.connects, d.client.connected()], [1, true]);
    send.close();
    d.stop();
  });
});

test("oversize commands are dropped; the connection stays", async () => {
  let acked = 0;
  await withAedes({}, async (b) => {
    b.broker.on("ack", (_p, c) => { if (c && c.id === UID) acked++; });
    const d = device(config(b.port));
    d.client.reconfigure();
    await waitFor("connected", () => d.client.connected());
    await sleep(50);
    const send = await Observer.connect(b.port, "sender");
    await send.publish(UID + "/cmd/notify", "a".repeat(8192), 1);
    await send.publish(UID + "/cmd/notify", "b".repeat(8193), 1);
    await send.publish(UID + "/cmd/notify", "c".repeat(50000), 1);
    await send.publish(UID + "/cmd/notify", "d".repeat(20000), 0);
    await send.publish(UID + "/cmd/notify", "small", 1);
    await waitFor("small", () => d.messages.length === 2);
    assert.equal(d.messages.map((m) => m[1].length), [8192, 5]);
    await waitFor("acks", () => acked === 4);
    assert.equal([d.status.connects, d.client.connected()], [1, true]);
    send.close();
    d.stop();
  });
});

test("each PUBACK names its message, a dropped oversize one included", async () => {
  const pubacks: number[] = [];
  const big = (n: number, id: number) => mqtt.generate({ cmd: "publish", topic: UID + "/cmd/notify", payload: Buffer.alloc(n, 65), qos: 1, messageId: id, retain: false, dup: false });
  const fake = await handMade((p, s) => {
    if (p.cmd === "connect") s.write(mqtt.generate({ cmd: "connack", returnCode: 0, sessionPresent: false }));
    if (p.cmd === "subscribe") {
      s.write(mqtt.generate({ cmd: "suback", messageId: p.messageId, granted: [1] }));
      s.write(Buffer.concat([big(10, 4242), big(20000, 777), big(9000, 778), big(3, 65535)]));
    }
    if (p.cmd === "puback") pubacks.push(p.messageId!);
  });
  try {
    const d = device(config(fake.port));
    d.client.reconfigure();
    await waitFor("four acknowledgements", () => pubacks.length === 4);
    assert.equal(pubacks, [4242, 777, 778, 65535]);
    assert.equal(d.messages.map((m) => m[1]), ["A".repeat(10), "AAA"]);
    d.stop();
  } finally {
    await fake.close();
  }
});

test("publish: refused while not connected and while the socket is behind; accepted again once it drained", async () => {
  await withAedes({}, async (b) => {
    const d = device(config(b.port));
    assert.is(d.client.publish(UID + "/state/x", "v", false, 0), false);
    d.client.reconfigure();
    await waitFor("connected", () => d.client.connected());
    await sleep(100);
    const watch = await Observer.connect(b.port, "watch");
    await watch.subscribe(UID + "/state/#", 0);
    const kb = "k".repeat(1000);
    const topic = UID + "/state/big";
    let accepted = 0;
    while (d.client.publish(topic, kb, false, 0)) accepted++;
    // Refused once 6,144 bytes wait: a packet is 1,000 bytes, the topic and 5 bytes of header.
    assert.is(accepted, Math.ceil(6144 / (kb.length + topic.length + 5)));
    await waitFor("delivered", () => watch.received.length === accepted);
    assert.is(d.client.publish(UID + "/state/big", kb, false, 0), true);
    watch.close();
    d.stop();
  });
});

// ---- TLS ------------------------------------------------------------------------------------

test("TLS with a pinned certificate: refused before connecting (Espruino cannot check a pin)", async () => {
  let clients = 0;
  await withAedes({}, async (b) => {
    b.broker.on("client", () => { clients++; });
    const d = device(config(b.port, { mqttTls: true, mqttTlsPin: "ab".repeat(32) }));
    d.client.reconfigure();
    await sleep(300);
    assert.equal(statusView(d.status, Date.now()), {
      enabled: true, state: "disconnected", host: "127.0.0.1", endpoint: "", attempts: 1, retryInMs: 0,
      connects: 0, error: "tlsPinUnsupported", lastError: "tlsPinUnsupported",
    });
    assert.equal([clients, sockets.open.size], [0, 0]);
    // Dropping the pin applies at once.
    d.cfg.mqttTlsPin = "";
    d.cfg.mqttTls = false;
    d.client.reconfigure();
    await waitFor("connected", () => d.client.connected());
    d.stop();
  });
});

test("TLS without a pin: connects over tls", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-tls-"));
  try {
    const key = path.join(dir, "key.pem");
    const cert = path.join(dir, "cert.pem");
    const r = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
      "-days", "1", "-subj", "/CN=127.0.0.1"], { stdio: "ignore" });
    if (r.status !== 0) {
      console.log("  skipped: openssl is needed to make the broker's certificate");
      return;
    }
    const b = await startAedes({}, 0, { key: fs.readFileSync(key), cert: fs.readFileSync(cert) });
    try {
      const d = device(config(b.port, { mqttTls: true }));
      d.client.reconfigure();
      await waitFor("connected", () => d.client.connected(), 3000);
      d.stop();
    } finally {
      await b.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("Espruino's connect() throws: hostNotFound or refused, retried; a build without tls: tlsUnavailable, not retried", async () => {
  const real = espruinoModule;
  const attempts: string[] = [];
  try {
    // As Espruino's net does: the name is resolved and the connection made inside connect().
    espruinoModule = (name) => {
      if (name === "tls") throw new Error("Module \"tls\" not found");
      return {
        connect: (opts: { host: string }) => {
          attempts.push(opts.host);
          throw new Error(opts.host === "no.such.host" ? "InternalError: Unable to locate host" : "InternalError: Unable to create socket");
        },
      };
    };
    const d = device(config(1883, { mqttHost: "no.such.host" }));
    d.client.reconfigure();
    assert.equal([d.status.state, d.status.error, d.status.endpoint], ["disconnected", "hostNotFound", ""]);
    await waitFor("a retry", () => attempts.length === 2);
    d.cfg.mqttHost = "10.0.0.1";
    d.client.reconfigure();
    assert.equal([d.status.error, d.status.attempts], ["refused", 1]);
    d.cfg.mqttTls = true;
    d.client.reconfigure();
    assert.equal(statusView(d.status, Date.now()), {
      enabled: true, state: "disconnected", host: "10.0.0.1", endpoint: "", attempts: 1, retryInMs: 0,
      connects: 0, error: "tlsUnavailable", lastError: "tlsUnavailable",
    });
    const before = attempts.length;
    await sleep(400);
    assert.is(attempts.length, before);
    d.stop();
  } finally {
    espruinoModule = real;
  }
});

// ---- mosquitto --------------------------------------------------------------------------------

test("end to end with mosquitto: anonymous session, commands, QoS 1, retained online, will", async () => {
  const bin = mosquittoBinary();
  if (!bin) {
    console.log("  skipped: mosquitto is not installed (apt-get install mosquitto)");
    return;
  }
  const m = await startMosquitto(bin);
  try {
    const watch = await Observer.connect(m.port, "watch");
    await watch.subscribe(UID + "/#", 1);
    const d = device(config(m.port));
    d.client.reconfigure();
    await waitFor("connected", () => d.client.connected());
    await waitFor("online", () => watch.on(UID + "/availability").includes("online"));
    await watch.publish(UID + "/cmd/notify", "{\"text\":\"hi\"}", 1);
    await waitFor("command", () => d.messages.length === 1);
    assert.equal(d.messages, [[UID + "/cmd/notify", "{\"text\":\"hi\"}"]]);
    assert.is(d.client.publish(UID + "/state/device", "{\"ok\":1}", true, 1), true);
    await waitFor("state", () => watch.on(UID + "/state/device").length === 1);
    assert.is(watch.received.find((x) => x.topic === UID + "/state/device")!.qos, 1);
    // A late subscriber sees the retained "online".
    const late = await Observer.connect(m.port, "late");
    await late.subscribe(UID + "/availability");
    await waitFor("retained", () => late.received.length === 1);
    assert.equal([late.received[0].payload, late.received[0].retain], ["online", true]);
    cutDeviceSocket();
    await waitFor("will", () => watch.on(UID + "/availability").includes("offline"));
    await waitFor("reconnected", () => d.status.connects === 2);
    watch.close();
    late.close();
    d.stop();
  } finally {
    await m.stop();
  }
});

test.run();
