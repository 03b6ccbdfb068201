// Espruino's `http` server on a real host socket. It reads and answers the socket the way
// Espruino's socket server does (libs/network/socketserver.c in 2v29, checked against the Linux
// build), not the way Node's http server would:
// - The head ends at the first empty line. Header names stay as the client sent them; a value
//   loses its leading blanks only; a header with an empty value is dropped; of a repeated name
//   the first value is the one a lookup finds. A request whose head never completes never
//   reaches the firmware.
// - The body arrives as 8-bit strings through `data`, one event per read of at most 536 bytes of
//   the socket (the first read also holds the head); a chunked body arrives decoded.
// - `end` comes once the body is complete and only then: after Content-Length bytes (the header
//   read as Espruino reads a string as an integer, so "0x10" is 16 and "12abc" is 0, as is a
//   missing header: what came with the head arrives, then `end`), or after a chunked body's last
//   chunk. Bytes past Content-Length still arrive as `data`, before or after `end`.
// - A reset or a half-close by the client raises nothing at all: no `end`, no `close`, no
//   `error`. The connection is closed once the firmware has answered and the body is complete,
//   or when an answer is written to a client already gone; a client that half-closes, or that
//   goes only after the answer was written, leaves it open for good.
// - When the connection closes, the response gets `end` and then the request and the response
//   get `close`.
// - An answer is `HTTP/1.1 <code> OK`, a Server header and exactly the headers the firmware gave
//   (nothing is added: the firmware sets Connection: close itself). `write` after `end` throws.
// - `write` returns false, always; once everything written so far has gone out, the response
//   gets `drain` (not after `end`), which is when a streamed answer writes its next piece.
import * as net from "node:net";

/** Bytes Espruino's network layer hands over per read (its chunk size on ESP32 and Linux). */
const READ = 536;
/** A head longer than this is dropped with its connection (Espruino would run out of memory). */
const HEAD_MAX = 65536;
const SERVER = "Espruino 2v29";

type Listener = (...args: unknown[]) => void;

export class Emitter {
  private listeners: { [ev: string]: Listener[] } = {};
  on(ev: string, fn: Listener): this {
    (this.listeners[ev] = this.listeners[ev] || []).push(fn);
    return this;
  }
  removeAllListeners(ev?: string): void {
    if (ev === undefined) this.listeners = {};
    else delete this.listeners[ev];
  }
  emit(ev: string, ...args: unknown[]): void {
    for (const fn of (this.listeners[ev] || []).slice()) fn(...args);
  }
}

export type EspHandler = (req: unknown, res: unknown) => void;

function isBlank(ch: string | undefined): boolean {
  return ch === " " || ch === "\t" || ch === "\n" || ch === "\r" || ch === "\v" || ch === "\f";
}

function digit(ch: string): number {
  const c = ch.charCodeAt(0);
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 122) return c - 87;
  if (c >= 65 && c <= 90) return c - 55;
  return -1;
}

/**
 * A string as an integer the way Espruino converts one (jsvGetInteger): leading blanks and a sign
 * are allowed, `0x`, `0o`, `0b` and a leading `0` (octal, unless an 8 or 9 follows) choose the
 * radix, one `.` ends the number; any other character anywhere makes the whole value 0.
 */
export function espruinoInteger(s: string): number {
  let i = 0;
  while (isBlank(s[i])) i++;
  let sign = 1;
  if (s[i] === "-" || s[i] === "+") {
    if (s[i] === "-") sign = -1;
    i++;
  }
  let radix = 10;
  if (s[i] === "0") {
    i++;
    const c = s[i];
    if (c === "x" || c === "X") { radix = 16; i++; }
    else if (c === "o" || c === "O") { radix = 8; i++; }
    else if (c === "b" || c === "B") { radix = 2; i++; }
    else radix = c === "." || c === "8" || c === "9" ? 10 : 8;
  }
  // Every remaining character must be a digit of that radix, or the one decimal point.
  let chars = 0;
  let point = false;
  for (let j = i; j < s.length; j++) {
    chars++;
    if (s[j] === "." && !point) { point = true; continue; }
    const d = digit(s[j]);
    if (d < 0 || d >= radix) return 0;
  }
  if (chars === 0) return 0;
  let v = 0;
  for (let j = i; j < s.length; j++) {
    const d = digit(s[j]);
    if (d < 0 || d >= radix) break;
    v = v * radix + d;
  }
  return sign * v;
}

/** Request line and headers of a head (without its closing empty line), as Espruino parses them. */
export function parseHead(head: string): { method: string; url: string; headers: { [name: string]: string } } {
  const lines = head.split("\r\n");
  const first = lines[0];
  const sp1 = first.indexOf(" ");
  const method = sp1 < 0 ? first : first.slice(0, sp1);
  const rest = sp1 < 0 ? "" : first.slice(sp1 + 1);
  const sp2 = rest.indexOf(" ");
  const url = sp2 < 0 ? rest : rest.slice(0, sp2);
  const headers: { [name: string]: string } = {};
  for (let n = 1; n < lines.length; n++) {
    const line = lines[n];
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    let v = colon + 1;
    while (v < line.length && isBlank(line[v])) v++;
    if (v >= line.length) continue;
    const name = line.slice(0, colon);
    if (name === "__proto__" || Object.prototype.hasOwnProperty.call(headers, name)) continue;
    headers[name] = line.slice(v);
  }
  return { method, url, headers };
}

/** Header lookup ignoring case, first match (jsvObjectGetChildI). */
function headerOf(headers: { [name: string]: string }, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const k in headers) if (k.toLowerCase() === lower) return headers[k];
  return undefined;
}

type EspReq = Emitter & { method: string; url: string; headers: { [name: string]: string } };
type EspRes = Emitter & {
  writeHead(status: number, headers?: { [k: string]: unknown }): void;
  setHeader(name: string, value: unknown): void;
  write(data?: unknown): boolean;
  end(data?: unknown): void;
};

/** One client connection, from its first byte to its close. */
class Connection {
  private head = "";
  private hadHeaders = false;
  private req: EspReq | null = null;
  private res: EspRes | null = null;
  /** Body bytes still to come; for a chunked body 1 until its last chunk, then 0. */
  private remaining = 0;
  private chunked = false;
  private chunkBuf = "";
  private chunkLeft = 0;
  private chunkState: "size" | "data" | "crlf" | "done" = "size";
  private ended = false;
  /** `res.end()` was called. */
  private closing = false;
  /** The answer is written and the socket is being closed. */
  private shutting = false;
  /** Closed, and the firmware told (or never to be told). */
  private finished = false;
  /** The socket can no longer be written (reset, or closed). */
  private dead = false;
  private headSent = false;
  /** Writes are wrapped as chunks (the firmware answered with Transfer-Encoding: chunked). */
  private chunkedOut = false;
  private implicit: { [k: string]: string } = {};
  private pollQueued = false;
  /** Writes handed to the socket and not yet flushed. */
  private unflushed = 0;

  constructor(private owner: SimNetwork, private socket: net.Socket) {
    socket.on("data", (buf: Buffer) => this.received(buf));
    // None of these reaches the firmware: Espruino's server notices a client that went away only
    // when an answer is to be written to a socket already gone, not even when the client goes
    // after the answer was written. A half-closed client leaves the connection open.
    socket.on("end", () => { /* the connection stays */ });
    socket.on("error", () => { this.dead = true; });
    socket.on("close", () => {
      this.dead = true;
      this.owner.forget(this);
    });
  }

  /** Drops the connection without telling the firmware (a restart). */
  destroy(): void {
    this.finished = true;
    this.socket.destroy();
  }

  private received(buf: Buffer): void {
    if (this.finished || this.shutting) return;
    for (let i = 0; i < buf.length && !this.finished; i += READ) this.read(buf.subarray(i, i + READ).toString("latin1"));
    this.queuePoll();
  }

  private read(bytes: string): void {
    if (!this.hadHeaders) {
      this.head += bytes;
      const endOfHead = this.head.indexOf("\r\n\r\n");
      if (endOfHead < 0) {
        if (this.head.length > HEAD_MAX) this.destroy();
        return;
      }
      const after = this.head.slice(endOfHead + 4);
      const head = this.head.slice(0, endOfHead);
      this.head = "";
      this.start(head);
      if (this.finished) return;
      bytes = after;
    }
    if (bytes.length === 0) return;
    if (this.chunked) return this.readChunked(bytes);
    this.remaining -= bytes.length;
    this.emitData(bytes);
  }

  private start(head: string): void {
    const handler = this.owner.handler;
    if (!handler) {
      // A restarting device does not answer.
      this.destroy();
      return;
    }
    const parsed = parseHead(head);
    const te = headerOf(parsed.headers, "Transfer-Encoding");
    if (te !== undefined && te.toLowerCase() === "chunked") {
      this.chunked = true;
      this.remaining = 1;
    } else {
      this.remaining = espruinoInteger(headerOf(parsed.headers, "Content-Length") || "");
    }
    this.hadHeaders = true;
    const req = Object.assign(new Emitter(), parsed) as EspReq;
    const res = this.response();
    this.req = req;
    this.res = res;
    this.owner.guard(() => handler(req, res));
  }

  private readChunked(bytes: string): void {
    if (this.chunkState === "done") return;
    this.chunkBuf += bytes;
    for (;;) {
      if (this.chunkState === "size") {
        const eol = this.chunkBuf.indexOf("\r\n");
        if (eol < 0) return;
        const size = parseInt(this.chunkBuf.slice(0, eol), 16);
        this.chunkBuf = this.chunkBuf.slice(eol + 2);
        if (!(size > 0)) {
          // The last chunk; what follows it (trailers) is dropped.
          this.chunkState = "done";
          this.chunkBuf = "";
          this.remaining = 0;
          return;
        }
        this.chunkLeft = size;
        this.chunkState = "data";
      } else if (this.chunkState === "data") {
        if (this.chunkBuf.length === 0) return;
        const part = this.chunkBuf.slice(0, this.chunkLeft);
        this.chunkBuf = this.chunkBuf.slice(part.length);
        this.chunkLeft -= part.length;
        if (this.chunkLeft === 0) this.chunkState = "crlf";
        this.emitData(part);
      } else if (this.chunkState === "crlf") {
        if (this.chunkBuf.length < 2) return;
        this.chunkBuf = this.chunkBuf.slice(2);
        this.chunkState = "size";
      } else {
        return;
      }
    }
  }

  private emitData(bytes: string): void {
    const req = this.req;
    if (req) this.owner.guard(() => req.emit("data", bytes));
  }

  /** Espruino's idle loop visits the connection again once nothing more is being received. */
  private queuePoll(): void {
    if (this.pollQueued || this.finished) return;
    this.pollQueued = true;
    setImmediate(() => {
      this.pollQueued = false;
      this.poll();
    });
  }

  private poll(): void {
    if (this.finished || this.shutting || !this.hadHeaders) return;
    if (this.dead) {
      // An answer that cannot be written closes the connection; before an answer nothing happens.
      if (this.closing) this.finish();
      return;
    }
    if (this.remaining > 0) return;
    if (!this.ended) {
      this.ended = true;
      const req = this.req;
      if (req) this.owner.guard(() => req.emit("end"));
    }
    if (this.closing) {
      this.shutting = true;
      this.socket.end(() => this.finish());
    }
  }

  /** The connection is closed: Espruino raises `end` on the response, then `close` on both. */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (!this.socket.destroyed) this.socket.destroy();
    const req = this.req;
    const res = this.res;
    if (!req || !res) return;
    this.owner.guard(() => res.emit("end"));
    this.owner.guard(() => req.emit("close", false));
    this.owner.guard(() => res.emit("close", false));
  }

  private send(text: string): void {
    if (this.dead || this.socket.destroyed || this.socket.writableEnded) return;
    this.unflushed++;
    this.socket.write(Buffer.from(text, "latin1"), () => {
      this.unflushed--;
      if (this.unflushed > 0) return;
      // Espruino queues the event for its next idle turn, and never once the answer has ended.
      setImmediate(() => {
        const res = this.res;
        if (this.unflushed > 0 || this.closing || this.finished || this.dead || !res) return;
        this.owner.guard(() => res.emit("drain"));
      });
    });
  }

  private response(): EspRes {
    const self = this;
    const writeHead = (status: number, headers?: { [k: string]: unknown }) => {
      if (self.headSent) return; // Espruino prints "Headers have already been sent" and goes on
      self.headSent = true;
      const all: { [k: string]: string } = {};
      for (const k in self.implicit) all[k] = self.implicit[k];
      if (headers) for (const k in headers) all[k] = String(headers[k]);
      let text = "HTTP/1.1 " + status + " OK\r\nServer: " + SERVER + "\r\n";
      for (const k in all) {
        text += k + ": " + all[k] + "\r\n";
        if (k.toLowerCase() === "transfer-encoding" && all[k].toLowerCase() === "chunked") self.chunkedOut = true;
      }
      self.send(text + "\r\n");
    };
    const write = (data?: unknown) => {
      if (self.closing) throw new Error("This socket is closed");
      if (!self.headSent) writeHead(200);
      if (data === undefined) return false;
      const s = String(data);
      // An empty string adds nothing to send (and so brings no drain), except a chunked answer's
      // last chunk.
      if (s !== "" || self.chunkedOut) self.send(self.chunkedOut ? s.length.toString(16) + "\r\n" + s + "\r\n" : s);
      return false;
    };
    return Object.assign(new Emitter(), {
      writeHead,
      setHeader: (name: string, value: unknown) => { self.implicit[String(name)] = String(value); },
      write,
      end: (data?: unknown) => {
        if (data !== undefined) write(data);
        // Writes the head if nothing was written yet; a chunked answer gets its last chunk.
        write(self.chunkedOut ? "" : undefined);
        self.closing = true;
        self.queuePoll();
      },
    }) as EspRes;
  }
}

/**
 * One host socket for the life of the simulator. The firmware's server attaches to it when it
 * listens and detaches when the firmware restarts, which drops the connections still open, as a
 * rebooting device drops them; requests that arrive meanwhile are dropped too.
 */
export class SimNetwork {
  private server: net.Server;
  private connections = new Set<Connection>();
  /** The firmware's request handler while its server listens. */
  handler: EspHandler | null = null;
  /** Called with every firmware callback, so the harness can contain what it throws. */
  guard: (fn: () => void) => void = (fn) => fn();

  constructor() {
    this.server = net.createServer({ allowHalfOpen: true }, (socket) => {
      this.connections.add(new Connection(this, socket));
    });
  }

  listen(port: number, host = "127.0.0.1"): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, host, () => resolve((this.server.address() as net.AddressInfo).port));
    });
  }

  close(): Promise<void> {
    this.dropConnections();
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
    this.dropConnections();
  }

  /** @internal */
  forget(c: Connection): void {
    this.connections.delete(c);
  }

  private dropConnections(): void {
    for (const c of this.connections) c.destroy();
    this.connections.clear();
  }
}
