// Espruino's `http.request` (the client half of its `http` module) over a real host socket, as
// libs/network/socketserver.c in 2v29 behaves:
// - The request is `<method> <path> HTTP/1.1`, then `User-Agent: Espruino 2v29`,
//   `Connection: close`, the caller's headers as given, and `Host` (with the port unless it is 80)
//   when the caller gave none. The connection is made by the first write() or by end().
// - A host must be an IPv4 address or localhost here (the simulator has no name lookup); any other
//   name throws at end(), as a name the device cannot resolve does there.
// - Once the head of the answer is in, the callback gets the response: `statusCode` (a string),
//   `statusMessage`, `httpVersion` and `headers`; its body follows as `data` events of 8-bit
//   strings. When Content-Length bytes have come (or the server closed), it gets `end`, then the
//   connection closes and it gets `close` (hadError).
// - A request that fails before an answer began gets `error` ({code, message}, Espruino's codes)
//   and nothing else: "no connection" when refused, "no response" when closed without an answer.
import * as net from "node:net";

type Fn = (...a: unknown[]) => void;

class Events {
  private listeners: { [ev: string]: Fn[] } = {};
  on(ev: string, fn: Fn): this {
    (this.listeners[ev] = this.listeners[ev] || []).push(fn);
    return this;
  }
  fire(ev: string, args: unknown[]): void {
    for (const fn of (this.listeners[ev] || []).slice()) fn(...args);
  }
}

const NO_CONNECTION = { code: -11, message: "no connection" };
const NO_RESPONSE = { code: -15, message: "no response" };
const RESET = { code: -9, message: "connection reset" };

export interface RequestOptions {
  host?: string;
  port?: number;
  path?: string;
  method?: string;
  headers?: { [name: string]: string | number };
}

/** The client requests of one firmware run; closeAll() ends them and silences them (a reboot). */
export class SimHttpClient {
  /** Every request the firmware started since the simulator began, for tests. */
  started = 0;
  private open = new Set<net.Socket>();
  private generation = 0;

  /** `guard` runs each callback into the firmware (the simulator catches what it throws there). */
  constructor(private guard: (fn: () => void) => void = (fn) => fn()) {}

  closeAll(): void {
    this.generation++;
    for (const s of this.open) s.destroy();
    this.open.clear();
  }

  request(options: RequestOptions | string, cb: (res: unknown) => void): unknown {
    const opts: RequestOptions = typeof options === "string" ? parseUrl(options) : options;
    const generation = this.generation;
    const live = () => generation === this.generation;
    // Espruino queues its events and runs them when the current callback has returned.
    const later = (target: Events, ev: string, ...args: unknown[]) => setImmediate(() => {
      if (live()) this.guard(() => target.fire(ev, args));
    });
    const req = new Events();
    const res = Object.assign(new Events(), { statusCode: "", statusMessage: "", httpVersion: "", headers: {} as { [k: string]: string } });
    let out = "";
    let socket: net.Socket | null = null;
    const connect = () => {
      if (socket) return;
      const host = opts.host === undefined ? "127.0.0.1" : String(opts.host);
      if (host !== "localhost" && net.isIPv4(host) === false) throw new Error("Unable to locate host");
      const port = opts.port || 80;
      let head = opts.method + " " + opts.path + " HTTP/1.1\r\nUser-Agent: Espruino 2v29\r\nConnection: close\r\n";
      const headers = opts.headers || {};
      for (const k of Object.keys(headers)) head += k + ": " + headers[k] + "\r\n";
      if (!("Host" in headers)) head += "Host: " + host + (port !== 80 ? ":" + port : "") + "\r\n";
      this.started++;
      const s = net.connect({ host, port });
      socket = s;
      this.open.add(s);
      s.write(Buffer.from(head + "\r\n" + out, "latin1"));
      out = "";
      let received = Buffer.alloc(0);
      let answered = false;
      let remaining = -1;
      let failed: { code: number; message: string } | null = null;
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        later(res, "end");
        s.destroy();
      };
      s.on("data", (b: Buffer) => {
        if (!answered) {
          received = Buffer.concat([received, b]);
          const at = received.indexOf("\r\n\r\n");
          if (at < 0) return;
          answered = true;
          const lines = received.subarray(0, at).toString("latin1").split("\r\n");
          const status = lines[0].split(" ");
          res.httpVersion = (status[0] || "").replace("HTTP/", "");
          res.statusCode = status[1] || "";
          res.statusMessage = status.slice(2).join(" ");
          for (const l of lines.slice(1)) {
            const colon = l.indexOf(":");
            if (colon > 0) res.headers[l.slice(0, colon)] = l.slice(colon + 1).trim();
          }
          const length = Object.keys(res.headers).find((k) => k.toLowerCase() === "content-length");
          if (length !== undefined) remaining = parseInt(res.headers[length], 10) || 0;
          setImmediate(() => { if (live()) this.guard(() => cb(res)); });
          b = received.subarray(at + 4);
        }
        if (b.length > 0 && !ended) {
          const part = remaining >= 0 ? b.subarray(0, remaining) : b;
          if (remaining >= 0) remaining -= part.length;
          if (part.length > 0) later(res, "data", part.toString("latin1"));
        }
        if (remaining === 0) end();
      });
      s.on("error", (e: NodeJS.ErrnoException) => {
        failed = answered ? RESET : e.code === "ECONNREFUSED" ? NO_CONNECTION : RESET;
      });
      s.on("close", () => {
        this.open.delete(s);
        if (!answered) {
          later(req, "error", failed || NO_RESPONSE);
          return;
        }
        if (failed) later(req, "error", failed);
        end();
        later(res, "close", failed !== null);
      });
    };
    const send = (data: unknown) => {
      if (socket) socket.write(Buffer.from(String(data), "latin1"));
      else out += String(data);
      connect();
    };
    return Object.assign(req, {
      write: (data: unknown) => {
        send(data);
        return false;
      },
      end: (data?: unknown) => send(data === undefined ? "" : data),
    });
  }
}

/** What Espruino's url.parse gives http.request for a URL string. */
function parseUrl(url: string): RequestOptions {
  const u = new URL(url);
  return { host: u.hostname, port: u.port ? +u.port : 80, path: u.pathname + u.search, method: "GET" };
}
