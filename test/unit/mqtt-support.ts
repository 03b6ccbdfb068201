// What the MQTT client suites share: brokers on 127.0.0.1 (aedes in this process, or Debian's
// mosquitto), an independent MQTT client to watch and drive them (written on mqtt-packet), and
// waiting for a condition.
import * as fs from "node:fs";
import * as net from "node:net";
import * as tls from "node:tls";
import * as os from "node:os";
import * as path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import * as mqtt from "mqtt-packet";
import type { Aedes, AedesOptions } from "aedes";

/** `what` names the condition in the error; a function of it is asked only then. */
export async function waitFor(what: string | (() => string), cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting for " + (typeof what === "function" ? what() : what));
    await sleep(5);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A TCP port nothing listens on (one that was free a moment ago). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export interface Broker {
  broker: Aedes;
  port: number;
  /** Closes the listener and every connection, as a broker that stops does. */
  close(): Promise<void>;
}

/** aedes listening on 127.0.0.1 (`port` 0: a free one); `secure` serves TLS with that key pair. */
export async function startAedes(opts: AedesOptions = {}, port = 0, secure?: { key: Buffer; cert: Buffer }): Promise<Broker> {
  const { Aedes: AedesClass } = await import("aedes");
  const broker = await AedesClass.createBroker(opts);
  const sockets = new Set<net.Socket>();
  const handle = (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    broker.handle(s);
  };
  const server = secure ? tls.createServer(secure, handle) : net.createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    broker,
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      await new Promise<void>((r) => broker.close(() => r()));
    },
  };
}

/** Debian's mosquitto, when installed. */
export function mosquittoBinary(): string | null {
  for (const p of [process.env.MOSQUITTO || "", "/usr/sbin/mosquitto", "/usr/bin/mosquitto", "/usr/local/sbin/mosquitto"]) {
    if (p && fs.existsSync(p)) return p;
  }
  return null;
}

export interface Mosquitto {
  port: number;
  stop(): Promise<void>;
}

/** mosquitto on a free loopback port with anonymous access, its configuration in a temporary folder. */
export async function startMosquitto(bin: string): Promise<Mosquitto> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-mosquitto-"));
  const conf = path.join(dir, "mosquitto.conf");
  fs.writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
  const child: ChildProcess = spawn(bin, ["-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr!.on("data", (b: Buffer) => { log += b.toString(); });
  const end = Date.now() + 5000;
  for (;;) {
    const up = await new Promise<boolean>((r) => {
      const s = net.connect({ host: "127.0.0.1", port }, () => { s.destroy(); r(true); });
      s.on("error", () => r(false));
    });
    if (up) break;
    if (child.exitCode !== null || Date.now() > end) {
      child.kill("SIGKILL");
      throw new Error("mosquitto did not start: " + log);
    }
    await sleep(20);
  }
  return {
    port,
    stop: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await gone;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Received { topic: string; payload: string; qos: number; retain: boolean }

/**
 * An MQTT client of the test's own, on mqtt-packet: subscribes, publishes (QoS 1 waits for the
 * PUBACK) and keeps every message it receives, payloads as 8-bit strings.
 */
export class Observer {
  readonly received: Received[] = [];
  private sock!: net.Socket;
  private nextId = 1;
  private waiting = new Map<number, () => void>();
  private connack: ((code: number) => void) | null = null;

  /** `secure`: over TLS, the broker's certificate not checked (the tests make their own). */
  static async connect(port: number, clientId: string, secure = false): Promise<Observer> {
    const o = new Observer();
    const parser = mqtt.parser({ protocolVersion: 4 });
    parser.on("packet", (p) => o.packet(p));
    o.sock = secure ? tls.connect({ host: "127.0.0.1", port, rejectUnauthorized: false }) : net.connect({ host: "127.0.0.1", port });
    o.sock.on("data", (b) => parser.parse(b));
    o.sock.on("error", () => undefined);
    const code = await new Promise<number>((resolve) => {
      o.connack = resolve;
      o.sock.write(mqtt.generate({ cmd: "connect", clientId, clean: true, keepalive: 0, protocolVersion: 4, protocolId: "MQTT" }));
    });
    if (code !== 0) throw new Error("observer refused: " + code);
    return o;
  }

  subscribe(filter: string, qos: 0 | 1 = 1): Promise<void> {
    const id = this.nextId++;
    return this.send(id, mqtt.generate({ cmd: "subscribe", messageId: id, subscriptions: [{ topic: filter, qos }] }));
  }

  publish(topic: string, payload: string, qos: 0 | 1 = 0, retain = false): Promise<void> {
    const packet = { cmd: "publish" as const, topic, payload: Buffer.from(payload, "latin1"), qos, retain, dup: false };
    if (!qos) {
      this.sock.write(mqtt.generate(packet));
      return Promise.resolve();
    }
    const id = this.nextId++;
    return this.send(id, mqtt.generate(Object.assign(packet, { messageId: id })));
  }

  /** Messages received on `topic`, payloads only. */
  on(topic: string): string[] {
    return this.received.filter((m) => m.topic === topic).map((m) => m.payload);
  }

  close(): void {
    this.sock.destroy();
  }

  private send(id: number, data: Buffer): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.sock.write(data);
    });
  }

  private packet(p: mqtt.Packet): void {
    if (p.cmd === "connack" && this.connack) this.connack(p.returnCode || 0);
    else if (p.cmd === "suback" || p.cmd === "puback") {
      const fn = this.waiting.get(p.messageId!);
      this.waiting.delete(p.messageId!);
      if (fn) fn();
    } else if (p.cmd === "publish") {
      this.received.push({
        topic: p.topic, payload: Buffer.from(p.payload as Buffer).toString("latin1"), qos: p.qos, retain: p.retain,
      });
      if (p.qos === 1) this.sock.write(mqtt.generate({ cmd: "puback", messageId: p.messageId }));
    }
  }
}
