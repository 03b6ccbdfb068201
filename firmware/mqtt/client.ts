// The MQTT 3.1.1 client: one session with the broker the system configuration names, over
// Espruino's `net` (or `tls`). It registers the last will "offline" on <P>/availability, says
// "online" there once connected, subscribes to <P>/cmd/#, keeps the session alive with pings and
// reconnects after a failure on timers, later each time (never a loop that waits). The state of
// the connection is what device state shows as `mqtt`.
//
// Held all the time MQTT is enabled (module mqtt/session), so it is kept small: every field, method
// and closure here costs the interpreter variables for as long as MQTT is in use.
import type { MqttLink } from "./link";
import type { ConnectionStatus } from "../net/status";
import type { SystemConfig } from "../system/schema";
import { nowMs } from "../platform/system";
import { Fixed, PacketReader, connectPacket, decode, publishHead, pubackPacket, subscribePacket } from "./packet";
import { log } from "../logs/log";

export type MqttConfig = Pick<SystemConfig, "mqttEnabled" | "mqttHost" | "mqttPort" | "mqttUser" | "mqttPass" |
  "mqttTls" | "mqttTlsPin" | "mqttPrefix">;

/** A client socket of Espruino's `net` and `tls` modules: 8-bit strings both ways. */
interface Socket {
  on(ev: "data", fn: (data: string) => void): void;
  on(ev: "close" | "drain", fn: () => void): void;
  write(data: string): void;
  end(): void;
}
type Connect = { connect(opts: { host: string; port: number }): Socket };

export class MqttClient implements MqttLink {
  onMessage: ((topic: string, payload: string) => void) | null = null;
  onConnect: (() => void) | null = null;
  /** The first wait after a failure; each further failure doubles it, up to a minute. */
  retryMs = 5000;
  keepAliveS = 60;
  /** How long the broker has to answer CONNECT. */
  connectWaitMs = 10000;
  // Names of four characters at most cost one variable each, longer ones two.
  private st: ConnectionStatus;
  private uid: string;
  private cfg: () => MqttConfig;
  private sock: Socket | null = null;
  /** CONNACK accepted. */
  private up = false;
  /** A checksum of the connection parameters in force; NaN (equal to nothing) until the first reconfigure(). */
  private key = NaN;
  private pfx = "";
  /** The retry, the wait for CONNACK, or the keep-alive interval: one at a time. */
  private timer: number | undefined;
  /** The last packet id used. */
  private pid = 0;
  /** A PINGREQ went out and nothing came back since. */
  private ping = false;
  /** Bytes written to the socket and not yet sent. */
  private owed = 0;

  /** `config` is read at each (re)connect and by reconfigure(). Nothing happens before reconfigure(). */
  constructor(status: ConnectionStatus, uid: string, config: () => MqttConfig) {
    this.st = status;
    this.uid = uid;
    this.cfg = config;
  }

  prefix(): string {
    return this.pfx;
  }

  connected(): boolean {
    return this.up;
  }

  publish(topic: string, payload: string, retain: boolean, qos: 0 | 1): boolean {
    // A small bound on what waits in the socket: 6 KB (the message that crosses it still goes).
    if (!this.up || this.owed >= 6144) return false;
    this.send(publishHead(topic, payload.length, retain, qos ? (this.pid = this.pid % 65535 + 1) : 0));
    if (payload) this.send(payload);
    return true;
  }

  /**
   * Reads the configuration again and, when the connection parameters changed (switch, host, port,
   * user, password, TLS, pin, prefix), says goodbye to the broker and connects anew at once or stops.
   * Called once at start, and after every change of the system configuration.
   */
  reconfigure(): void {
    const c = this.cfg();
    const on = c.mqttEnabled && c.mqttHost !== "";
    // A 32-bit int: it fits in the field's own variable.
    const key = E.CRC32(on ? [c.mqttHost, c.mqttPort, c.mqttUser, c.mqttPass, c.mqttTls, c.mqttTlsPin, c.mqttPrefix].join("\n") : "") | 0;
    const st = this.st;
    st.enabled = c.mqttEnabled;
    const changed = key !== this.key;
    if (changed) {
      this.key = key;
      if (this.up) {
        // A clean goodbye makes the broker drop the will, so "offline" is said here.
        this.publish(this.pfx + "/availability", "offline", true, 1);
        this.send(Fixed.DISCONNECT);
      }
      this.drop();
      st.attempts = 0;
      st.error = null;
      st.retryAtMs = 0;
      st.state = "disabled";
    }
    this.pfx = c.mqttPrefix || this.uid;
    if (changed && on) this.connect();
  }

  /** Takes the broker's packets from the reader (see PacketSink). */
  take(first: number, body: string, whole: boolean): boolean {
    const p = decode(first, body);
    if (!whole) {
      // An oversize PUBLISH is dropped; its acknowledgement still goes out, or the broker would
      // send it again. Anything else that large is not from a broker.
      if (p && p.qos) this.send(pubackPacket(p.id));
      return first >> 4 === 3;
    }
    if (!p) return false;
    this.ping = false;
    if (p.type === 2) {
      if (this.up) return false;
      if (p.code) {
        this.fail(p.code === 4 || p.code === 5 ? "badCredentials" : "rejected");
        return false;
      }
      this.begin();
    } else if (!this.up) {
      return false;
    } else if (p.type === 3) {
      // QoS 2 is never granted on this client's subscription.
      if (p.qos > 1) return false;
      const cmd = this.pfx + "/cmd/";
      const fn = this.onMessage;
      // Payloads over 8 KB are dropped unread, as HTTP refuses such bodies.
      if (fn && p.payload.length <= 8192 && p.topic.length > cmd.length && p.topic.substr(0, cmd.length) === cmd) {
        try {
          fn(p.topic, p.payload);
        } catch (e) {
          log("mqtt: " + p.topic + ": " + e);
        }
        // The handler may have reconfigured the client: the rest of this stream is not its.
        if (!this.up) return false;
      }
      if (p.qos) this.send(pubackPacket(p.id));
    } else if (p.type === 9 && p.code === 0x80) {
      this.fail("rejected");
      return false;
    }
    return true;
  }

  private connect(): void {
    this.timer = undefined;
    let c: MqttConfig | null = this.cfg();
    const st = this.st;
    st.connecting(c.mqttHost);
    let s: Socket | null = null;
    let err = "refused";
    if (c.mqttTls && c.mqttTlsPin) {
      // Espruino's tls neither checks the broker's certificate nor shows it, so a pinned one
      // cannot be compared: no connection rather than one to a broker nobody checked.
      err = "tlsPinUnsupported";
    } else {
      try {
        const net = (require as unknown as (name: string) => Connect | undefined)(c.mqttTls ? "tls" : "net");
        if (!net) err = "tlsUnavailable";
        // Espruino resolves the name and connects before connect() returns, and throws when
        // either fails.
        else s = net.connect({ host: c.mqttHost, port: c.mqttPort });
      } catch (e) {
        const why = String(e);
        if (why.indexOf("locate host") >= 0) err = "hostNotFound";
        else if (why.indexOf("Module") >= 0) err = "tlsUnavailable";
      }
    }
    if (!s) {
      // Nothing to retry for until the configuration changes.
      if (err.substr(0, 3) === "tls") st.failed(err, 0);
      else this.fail(err);
      return;
    }
    st.endpoint = c.mqttHost + ":" + c.mqttPort;
    this.sock = s;
    this.send(connectPacket(this.uid, c.mqttUser, c.mqttPass, this.keepAliveS, this.pfx + "/availability"));
    // The handlers below keep this scope for as long as the socket lives: not the configuration.
    c = null;
    const reader = new PacketReader();
    s.on("data", (data: string) => {
      if (this.sock === s && !reader.push(data, this) && this.sock === s) {
        log("mqtt: malformed packet from " + st.endpoint);
        // Something that is not a broker never completes the handshake.
        this.fail(this.up ? "lost" : "timeout");
      }
    });
    s.on("close", () => {
      if (this.sock === s) this.fail(this.up ? "lost" : "refused");
    });
    s.on("drain", () => {
      if (this.sock === s) this.owed = 0;
    });
    this.timer = setTimeout(() => {
      if (this.sock === s && !this.up) this.fail("timeout");
    }, this.connectWaitMs);
  }

  /** CONNACK accepted: the subscription, "online", the keep-alive, then the surface. */
  private begin(): void {
    this.up = true;
    this.st.connected(this.st.endpoint);
    // Espruino's clearTimeout(undefined) throws.
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setInterval(() => {
      // The previous ping was never answered: the broker or the path to it is gone.
      if (this.ping) return this.fail("lost");
      this.ping = true;
      this.send(Fixed.PINGREQ);
    }, this.keepAliveS * 1000);
    this.send(subscribePacket(this.pid = this.pid % 65535 + 1, this.pfx + "/cmd/#"));
    this.publish(this.pfx + "/availability", "online", true, 1);
    // Not through a local: the keep-alive above keeps this scope.
    if (this.onConnect) {
      try {
        this.onConnect();
      } catch (e) {
        log("mqtt: on connect: " + e);
      }
    }
  }

  /** Drops the connection and schedules the next attempt. */
  private fail(error: string): void {
    this.drop();
    const st = this.st;
    // Doubling from retryMs up to a minute, each wait shortened by up to a fifth so that clocks
    // that lost the same broker do not come back in step.
    const delay = Math.round(Math.min(this.retryMs * Math.pow(2, Math.max(st.attempts, 1) - 1), 60000) *
      (1 - Math.random() * 0.2));
    st.failed(error, nowMs() + delay);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  private drop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const s = this.sock;
    this.sock = null;
    this.up = false;
    this.ping = false;
    this.owed = 0;
    if (s) s.end();
  }

  private send(data: string): void {
    this.owed += data.length;
    (this.sock as Socket).write(data);
  }
}
