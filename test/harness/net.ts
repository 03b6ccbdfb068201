// Espruino's `net` and `tls` client sockets over Node's. As on the device: data is read and written
// as 8-bit strings (a character per byte), an error event carries Espruino's {code, message}
// before the close, `drain` follows each time everything written has gone out, and a `tls`
// socket does not check the server's certificate (Espruino's does not either).
import * as net from "node:net";
import * as tls from "node:tls";

type Fn = (...a: unknown[]) => void;

/** Espruino's socket error codes (libs/network/socketerrors.h) for Node's. */
const ERRORS: { [code: string]: [number, string] } = {
  ENOTFOUND: [-6, "not found"],
  EAI_AGAIN: [-6, "not found"],
  ETIMEDOUT: [-3, "timeout"],
  EHOSTUNREACH: [-4, "no route"],
  ENETUNREACH: [-4, "no route"],
  ECONNRESET: [-9, "connection reset"],
  ECONNREFUSED: [-11, "no connection"],
  EPIPE: [-9, "connection reset"],
};

export class HostSocket {
  private listeners: { [ev: string]: Fn[] } = {};

  constructor(readonly node: net.Socket, private guard: (fn: () => void) => void, private live: () => boolean) {}

  on(ev: string, fn: Fn): void {
    (this.listeners[ev] = this.listeners[ev] || []).push(fn);
  }

  emit(ev: string, ...args: unknown[]): void {
    if (!this.live()) return;
    for (const fn of (this.listeners[ev] || []).slice()) this.guard(() => fn(...args));
  }

  write(data: unknown): void {
    if (this.node.destroyed) return;
    this.node.write(Buffer.from(String(data), "latin1"), () => {
      if (this.node.writableLength === 0) this.emit("drain");
    });
  }

  /** Closes once what was written has gone out, as Espruino's end() does. */
  end(data?: unknown): void {
    if (data !== undefined) this.write(data);
    this.node.end();
  }

  destroy(): void {
    this.node.destroy();
  }
}

/** The sockets of one firmware run; closeAll() ends them and silences their events (a reboot). */
export class HostSockets {
  readonly open = new Set<HostSocket>();
  private generation = 0;

  /** `guard` runs each event handler (the simulator catches what the firmware throws there). */
  constructor(private guard: (fn: () => void) => void = (fn) => fn()) {}

  /** The module the firmware gets from require("net") (secure: require("tls")). */
  module(secure: boolean): { connect(opts: { host?: string; port?: number }, cb?: Fn): HostSocket } {
    return { connect: (opts, cb) => this.connect(secure, opts, cb) };
  }

  closeAll(): void {
    this.generation++;
    for (const s of this.open) s.destroy();
    this.open.clear();
  }

  private connect(secure: boolean, opts: { host?: string; port?: number }, cb?: Fn): HostSocket {
    const host = opts.host || "localhost";
    const port = opts.port || (secure ? 443 : 80);
    const node = secure
      ? tls.connect({ host, port, rejectUnauthorized: false, servername: net.isIP(host) ? undefined : host })
      : net.connect({ host, port });
    node.setNoDelay(true);
    const generation = this.generation;
    const sock = new HostSocket(node, this.guard, () => generation === this.generation);
    this.open.add(sock);
    let failed = false;
    if (cb) sock.on("connect", cb);
    node.on(secure ? "secureConnect" : "connect", () => sock.emit("connect", sock));
    node.on("data", (b: Buffer) => sock.emit("data", b.toString("latin1")));
    node.on("error", (e: NodeJS.ErrnoException) => {
      failed = true;
      const [code, message] = ERRORS[e.code || ""] || [-10, "unknown error"];
      sock.emit("error", { code, message });
    });
    node.on("close", () => {
      this.open.delete(sock);
      sock.emit("end");
      sock.emit("close", failed);
    });
    return sock;
  }
}
