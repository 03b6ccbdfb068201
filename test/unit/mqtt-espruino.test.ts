// The MQTT client in the real interpreter ($ESPRUINO) against aedes in this process on 127.0.0.1:
// the client bundled as the firmware is, its code evaluated from Storage as the clock evaluates
// .bootcde, connects over Espruino's own `net`, subscribes, receives (bytes, QoS 1, a flood, an
// oversize message), publishes, pings, reconnects after a broker restart, and what it holds once
// connected and idle stays within its budget.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as esbuild from "esbuild";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ROOT } from "../harness/root";
// @ts-expect-error: a build script without type declarations
import { atRoot, espruinoBundle, renameOf } from "../../build/espruino-bundle.mjs";
import { Observer, sleep, startAedes, waitFor } from "./mqtt-support";

const bin = process.env.ESPRUINO;
const MARK = "[mqtt] ";
const UID = "a4cf12ab34cd";
/** Interpreter variables the client may hold connected and idle, its code included. */
const BUDGET = 300;

// Two programs, each stored and then evaluated from Storage as the clock evaluates .bootcde. The
// first holds what is not the client's (its status object, its configuration, the test's command
// handlers, all in a wrapping function); the second is the client, built as the firmware is (at
// the interpreter's root), so that what it adds is what the clock would hold.
const HARNESS = `
  import { ConnectionStatus } from "./firmware/net/status";
  import type { MqttClient } from "./firmware/mqtt/client";
  declare const global: { [k: string]: unknown };
  declare const PORT: number;
  declare const BASE: number;
  const out = (s: string) => print("${MARK}" + s);
  const T = {
    status: new ConnectionStatus(),
    cfg: { mqttEnabled: true, mqttHost: "127.0.0.1", mqttPort: PORT, mqttUser: "", mqttPass: "", mqttTls: false,
      mqttTlsPin: "", mqttPrefix: "" },
    client: null as MqttClient | null,
    next: 0,
    measure: false,
    onConnect: () => out("connected " + T.status.connects),
    onMessage: (topic: string, payload: string) => {
      const client = T.client as MqttClient;
      const cmd = topic.substr(${UID.length + 5});
      if (cmd === "echo") out("echo " + client.publish("${UID}/out/echo", payload, false, 1));
      else if (cmd === "n") {
        if (payload !== String(T.next)) out("out of order " + payload + " after " + T.next);
        T.next++;
      } else if (cmd === "count") out("count " + T.next);
      else if (cmd === "mem") T.measure = true;
      else if (cmd === "status") out("status " + JSON.stringify(T.status));
      else out("other " + cmd + " " + payload.length);
    },
  };
  global.T = T;
  // Measured from a timer that was there before the client, once the handler that asked has
  // returned: nothing of the measuring is counted.
  setInterval(() => {
    if (!T.measure) return;
    T.measure = false;
    const used = process.memory().usage;
    out("mem " + (used - BASE));
  }, 50);
  // Built-in objects Espruino makes on first use, which the firmware uses anyway.
  String.fromCharCode(65);
  Math.floor([1].join("").length / 2);
`;

const CLIENT = `
  import { MqttClient } from "./firmware/mqtt/client";
  import type { ConnectionStatus } from "./firmware/net/status";
  declare const T: { status: ConnectionStatus; cfg: any; client: MqttClient | null;
    onConnect: () => void; onMessage: (topic: string, payload: string) => void };
  const client = new MqttClient(T.status, "${UID}", () => T.cfg);
  client.retryMs = 200;
  client.keepAliveS = 1;
  client.onConnect = T.onConnect;
  client.onMessage = T.onMessage;
  T.client = client;
  client.reconfigure();
`;

function bundle(source: string, atRootLevel: boolean): string {
  const options = espruinoBundle("", "esp32", "");
  delete options.entryPoints;
  delete options.outfile;
  options.stdin = { contents: source, resolveDir: ROOT, loader: "ts" };
  options.write = false;
  if (atRootLevel) options.format = "esm";
  const code = esbuild.buildSync(options).outputFiles[0].text;
  return atRootLevel ? atRoot(code) : renameOf(code);
}

/** An interpreter run in `dir` (its Storage in espruino.flash there), its output collected as it comes. */
class Interpreter {
  readonly lines: string[] = [];
  private child: ReturnType<typeof spawn>;

  constructor(bin: string, dir: string, script: string) {
    fs.writeFileSync(path.join(dir, "run.js"), script);
    this.child = spawn(bin, ["run.js"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let partial = "";
    const take = (b: Buffer) => {
      partial += b.toString("latin1");
      const parts = partial.split("\n");
      partial = parts.pop()!;
      for (const l of parts) this.lines.push(l.replace(/\r$/, ""));
    };
    this.child.stdout!.on("data", take);
    this.child.stderr!.on("data", take);
  }

  /** What the program printed with MARK (a callback's output follows the console's prompt on its line). */
  said(): string[] {
    return this.lines.filter((l) => l.includes(MARK)).map((l) => l.slice(l.indexOf(MARK) + MARK.length));
  }

  saw(s: string): boolean {
    return this.said().includes(s);
  }

  log(): string {
    return "\n" + this.lines.join("\n");
  }

  stop(): void {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }
}

/** Writes `files` into the Storage of an interpreter run in `dir`. */
function store(bin: string, dir: string, files: { [name: string]: string }): void {
  let script = "";
  for (const [name, code] of Object.entries(files)) {
    script += `require("Storage").write(${JSON.stringify(name)}, atob(${JSON.stringify(Buffer.from(code, "latin1").toString("base64"))}));\n`;
  }
  fs.writeFileSync(path.join(dir, "store.js"), script + "quit();\n");
  const r = spawnSync(bin, ["store.js"], { cwd: dir, encoding: "latin1", timeout: 30000, stdio: ["ignore", "pipe", "pipe"] });
  assert.is(r.status, 0, r.stdout + r.stderr);
}

test("the client in the real interpreter: connects, subscribes, receives, publishes, reconnects, fits", async () => {
  if (!bin) {
    console.log("  skipped: set ESPRUINO to run the MQTT client in the real interpreter");
    return;
  }
  let broker = await startAedes({});
  const port = broker.port;
  let pings = 0;
  let acks = 0;
  const count = (b: typeof broker) => {
    b.broker.on("ping", (_p, c) => { if (c.id === UID) pings++; });
    b.broker.on("ack", (_p, c) => { if (c && c.id === UID) acks++; });
  };
  count(broker);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-mqtt-"));
  let run: Interpreter | null = null;
  let watch: Observer | null = null;
  try {
    // The programs go into Storage first; this run evaluates them from there.
    store(bin, dir, { "mqtt.test": bundle(HARNESS, false), "mqtt.client": bundle(CLIENT, true) });
    run = new Interpreter(bin, dir,
      `var PORT = ${port};\nvar BASE = 0;\neval(require("Storage").read("mqtt.test"));\n` +
      `BASE = process.memory().usage;\neval(require("Storage").read("mqtt.client"));\n`);
    const r = run;
    const said = () => r.said();
    const saw = (s: string) => r.saw(s);
    const log = () => r.log();
    const lines = r.lines;

    await waitFor(() => "connected in the interpreter" + log(), () => saw("connected 1"), 10000);
    watch = await Observer.connect(port, "watch");
    await watch.subscribe(UID + "/#", 1);
    await waitFor("retained online", () => watch!.on(UID + "/availability").includes("online"));

    // Bytes both ways, QoS 1 both ways.
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i)).toString("latin1");
    await watch.publish(UID + "/cmd/echo", bytes, 1);
    await waitFor("echo", () => watch!.on(UID + "/out/echo").length === 1);
    assert.is(watch.on(UID + "/out/echo")[0], bytes);
    assert.is(watch.received.find((m) => m.topic === UID + "/out/echo")!.qos, 1);
    assert.ok(saw("echo true"));

    // Connected and idle: what it holds, its code, socket and timers included.
    await watch.publish(UID + "/cmd/mem", "", 0);
    await waitFor("memory figure", () => said().some((l) => l.startsWith("mem ")));
    const resident = +said().find((l) => l.startsWith("mem "))!.split(" ")[1];
    console.log(`  resident when connected and idle: ${resident} variables (budget ${BUDGET})`);
    assert.ok(resident > 0 && resident <= BUDGET, "resident " + resident);

    // A flood in order, then an oversize message dropped (and acknowledged), the session kept.
    const acksBefore = acks;
    const sent: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) sent.push(watch.publish(UID + "/cmd/n", String(i), 1));
    await Promise.all(sent);
    await watch.publish(UID + "/cmd/big", "x".repeat(30000), 1);
    await watch.publish(UID + "/cmd/count", "", 1);
    await waitFor(() => "count" + log(), () => saw("count 300"), 10000);
    assert.not.ok(said().some((l) => l.startsWith("out of order") || l.startsWith("other big")), log());
    await waitFor("acknowledged", () => acks - acksBefore === 302);

    // Keep-alive (a second apart).
    const pingsBefore = pings;
    await sleep(2300);
    assert.ok(pings - pingsBefore >= 2, (pings - pingsBefore) + " pings");

    // The broker restarts: the will, then a new session on the same port.
    await broker.close();
    broker = await startAedes({}, port);
    count(broker);
    await waitFor(() => "reconnected" + log(), () => saw("connected 2"), 10000);
    watch.close();
    watch = await Observer.connect(port, "watch");
    await watch.publish(UID + "/cmd/status", "", 1);
    await waitFor("status", () => said().some((l) => l.startsWith("status ")));
    const status = JSON.parse(said().find((l) => l.startsWith("status "))!.slice(7));
    assert.equal([status.state, status.connects, status.lastError, status.error], ["connected", 2, "lost", null]);
    assert.not.ok(lines.some((l) => /Uncaught|ERROR|MEMORY/.test(l) && !/Connect failed/.test(l)), log());
  } finally {
    if (watch) watch.close();
    if (run) run.stop();
    await broker.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const TLS_CLIENT = `
  import { MqttClient } from "./firmware/mqtt/client";
  import { ConnectionStatus } from "./firmware/net/status";
  declare const PORT: number;
  const status = new ConnectionStatus();
  const cfg = { mqttEnabled: true, mqttHost: "127.0.0.1", mqttPort: PORT, mqttUser: "", mqttPass: "", mqttTls: true,
    mqttTlsPin: "", mqttPrefix: "tls-clock" };
  const client = new MqttClient(status, "${UID}", () => cfg);
  client.onConnect = () => print("${MARK}connected");
  client.onMessage = (topic, payload) => {
    print("${MARK}" + topic + " " + payload);
    client.publish("tls-clock/out", payload, false, 1);
  };
  client.reconfigure();
`;

test("the client in the real interpreter over Espruino's tls (no pin: its tls checks no certificate)", async () => {
  if (!bin) {
    console.log("  skipped: set ESPRUINO to run the MQTT client in the real interpreter");
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-mqtt-tls-"));
  let broker: Awaited<ReturnType<typeof startAedes>> | null = null;
  let run: Interpreter | null = null;
  let watch: Observer | null = null;
  try {
    const made = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem",
      "-days", "1", "-subj", "/CN=127.0.0.1"], { cwd: dir, stdio: "ignore" });
    if (made.status !== 0) {
      console.log("  skipped: openssl is needed to make the broker's certificate");
      return;
    }
    broker = await startAedes({}, 0, { key: fs.readFileSync(path.join(dir, "key.pem")), cert: fs.readFileSync(path.join(dir, "cert.pem")) });
    let subscribed = "";
    broker.broker.on("subscribe", (subs, c) => { if (c.id === UID) subscribed = subs[0].topic; });
    store(bin, dir, { "mqtt.tls": bundle(TLS_CLIENT, true) });
    run = new Interpreter(bin, dir, `var PORT = ${broker.port};\neval(require("Storage").read("mqtt.tls"));\n`);
    const r = run;
    await waitFor(() => "connected over tls" + r.log(), () => r.saw("connected"), 15000);
    await waitFor("subscription", () => subscribed !== "");
    assert.is(subscribed, "tls-clock/cmd/#");
    watch = await Observer.connect(broker.port, "watch", true);
    await watch.subscribe("tls-clock/out", 1);
    await watch.publish("tls-clock/cmd/x", "sealed", 1);
    await waitFor(() => "echo" + r.log(), () => watch!.on("tls-clock/out").length === 1);
    assert.equal([r.said().includes("tls-clock/cmd/x sealed"), watch.on("tls-clock/out")[0]], [true, "sealed"]);
  } finally {
    if (watch) watch.close();
    if (run) run.stop();
    if (broker) await broker.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
