// Espruino's `http` server on a real host socket. What the firmware sees is what Espruino gives
// it: header names as the client sent them, the body as byte strings in chunks of at most 536
// bytes through `data` events, then `end` and `close`; answers go out with `Connection: close`
// and a status line ending in "OK" whatever the code.
import * as http from "node:http";
import type { AddressInfo } from "node:net";

const CHUNK = 536;

type Listener = (...args: unknown[]) => void;

class Emitter {
  private listeners: { [ev: string]: Listener[] } = {};
  on(ev: string, fn: Listener): this {
    (this.listeners[ev] = this.listeners[ev] || []).push(fn);
    return this;
  }
  emit(ev: string, ...args: unknown[]): void {
    for (const fn of this.listeners[ev] || []) fn(...args);
  }
}

export type EspHandler = (req: unknown, res: unknown) => void;

/**
 * One host socket for the life of the simulator. The firmware's server attaches to it when it
 * listens and detaches when the firmware restarts; requests that arrive meanwhile are dropped,
 * as a rebooting device would drop them.
 */
export class SimNetwork {
  private server: http.Server;
  private handler: EspHandler | null = null;
  /** Called with every firmware callback, so the harness can contain what it throws. */
  guard: (fn: () => void) => void = (fn) => fn();

  constructor() {
    // Espruino takes a request without a Host header; Node refuses one unless told not to.
    this.server = http.createServer({ requireHostHeader: false }, (req, res) => this.dispatch(req, res));
    this.server.keepAliveTimeout = 0;
  }

  listen(port: number, host = "127.0.0.1"): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, host, () => resolve((this.server.address() as AddressInfo).port));
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  get attached(): boolean {
    return this.handler !== null;
  }

  /** The `http` module the firmware requires. */
  module(): { createServer(fn: EspHandler): { listen(port: number): unknown; close(): void } } {
    return {
      createServer: (fn: EspHandler) => {
        const server = {
          listen: (_port: number) => {
            // The device's port N is reachable at the simulator's host port, whatever N is.
            this.handler = fn;
            return server;
          },
          close: () => {
            if (this.handler === fn) this.handler = null;
          },
        };
        return server;
      },
    };
  }

  detach(): void {
    this.handler = null;
  }

  private dispatch(nreq: http.IncomingMessage, nres: http.ServerResponse): void {
    const handler = this.handler;
    if (!handler) {
      nreq.socket.destroy();
      return;
    }
    nreq.pause();
    const headers: { [k: string]: string } = {};
    for (let i = 0; i < nreq.rawHeaders.length; i += 2) headers[nreq.rawHeaders[i]] = nreq.rawHeaders[i + 1];
    const req = Object.assign(new Emitter(), { method: nreq.method, url: nreq.url, headers });
    let ended = false;
    const res = Object.assign(new Emitter(), {
      writeHead: (status: number, h?: { [k: string]: string | number }) => {
        const out: { [k: string]: string } = { Connection: "close" };
        if (h) for (const k in h) out[k] = String(h[k]);
        nres.writeHead(status, "OK", out);
      },
      write: (data: string) => {
        if (!nres.headersSent) nres.writeHead(200, "OK", { Connection: "close" });
        nres.write(Buffer.from(String(data), "latin1"));
      },
      end: (data?: string) => {
        if (ended) return;
        ended = true;
        if (!nres.headersSent) nres.writeHead(200, "OK", { Connection: "close" });
        nres.end(data === undefined ? undefined : Buffer.from(String(data), "latin1"));
      },
    });
    this.guard(() => handler(req, res));
    nreq.on("data", (buf: Buffer) => {
      for (let i = 0; i < buf.length; i += CHUNK) {
        const part = buf.subarray(i, i + CHUNK).toString("latin1");
        this.guard(() => req.emit("data", part));
      }
    });
    nreq.on("end", () => {
      this.guard(() => req.emit("end"));
      this.guard(() => req.emit("close"));
    });
    nreq.on("error", () => this.guard(() => req.emit("close")));
    nreq.resume();
  }
}
