// The Linux build of Espruino ($ESPRUINO) as a clock reached over the network: started with
// --telnet, its console listens on TCP port 2323, where `npm run flash -- --port tcp://127.0.0.1:2323`
// finds it. The port is fixed, so only one such interpreter runs at a time on a machine: a lock
// file in the temporary folder makes other users of this module wait for it.
//
// Each instance runs in its own directory, where its Storage (./espruino.flash) lives and where
// launch.json tells scripts/espruino/boot0.js (flashed as .boot0) which port the firmware's HTTP
// server listens on. A "[launcher] reboot" (E.reboot() of the stand-ins) ends the interpreter; it
// is started again the same way, as the clock would come back. It is stopped with SIGKILL (its
// console ignores SIGTERM).
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { SIM_NETWORK } from "../harness/device";

export const TELNET_PORT = 2323;
const LOCK = path.join(os.tmpdir(), "pixloop-espruino-telnet-2323.lock");
const KEEP_LINES = 2000;

const live = new Set<ChildProcess>();
let locked = false;
process.on("exit", () => {
  for (const p of live) p.kill("SIGKILL");
  if (locked) releaseLock();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the machine-wide lock on port 2323, waiting for whoever holds it (a dead holder's lock is taken over). */
export async function lockTelnetPort(timeoutMs = 300000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.writeFileSync(LOCK, String(process.pid), { flag: "wx" });
      locked = true;
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    let holder = 0;
    try { holder = parseInt(fs.readFileSync(LOCK, "utf8"), 10); } catch (e) { /* just released */ }
    if (holder && !alive(holder)) {
      // Its holder died without cleaning up (SIGKILL): an interpreter it left would keep the port.
      endLeftover();
      try { fs.unlinkSync(LOCK); } catch (e) { /* another waiter took it over first */ }
      continue;
    }
    if (Date.now() > until) throw new Error("port " + TELNET_PORT + " stayed locked by process " + holder + " (" + LOCK + ")");
    await sleep(250);
  }
}

/** Where the lock's holder notes the process id of the interpreter it started. */
const LEFTOVER = LOCK + ".interpreter";

function endLeftover(): void {
  let pid = 0;
  try { pid = parseInt(fs.readFileSync(LEFTOVER, "utf8"), 10); } catch (e) { return; }
  let cmdline = "";
  try { cmdline = fs.readFileSync("/proc/" + pid + "/cmdline", "latin1"); } catch (e) { /* gone */ }
  // Only the interpreter that holder started, still running with its console on the port.
  if (pid && cmdline.indexOf("--telnet") >= 0) {
    try { process.kill(pid, "SIGKILL"); } catch (e) { /* gone meanwhile */ }
  }
  try { fs.unlinkSync(LEFTOVER); } catch (e) { /* gone */ }
}

export function releaseLock(): void {
  if (!locked) return;
  locked = false;
  try {
    if (fs.readFileSync(LOCK, "utf8") === String(process.pid)) {
      try { fs.unlinkSync(LEFTOVER); } catch (e) { /* none noted */ }
      fs.unlinkSync(LOCK);
    }
  } catch (e) { /* gone already */ }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createConnection({ host: "127.0.0.1", port });
    s.once("connect", () => { s.destroy(); resolve(true); });
    s.once("error", () => resolve(false));
  });
}

export class TelnetEspruino {
  readonly lines: string[] = [];
  /** Interpreter processes started so far. */
  starts = 0;
  private proc: ChildProcess | null = null;
  private stopping = false;
  private exitNote = "";

  constructor(readonly bin: string, readonly dir: string, readonly httpPort: number) {
    fs.writeFileSync(path.join(dir, "launch.json"), JSON.stringify({
      port: httpPort, debugPort: 0, mac: "24:6f:28:a1:b2:c3", ssid: SIM_NETWORK.ssid, parent: process.pid,
    }) + "\n");
  }

  get url(): string {
    return "http://127.0.0.1:" + this.httpPort;
  }

  /** Starts the interpreter and resolves once its console accepts connections. */
  async start(timeoutMs = 15000): Promise<void> {
    if (await listening(TELNET_PORT)) throw new Error("port " + TELNET_PORT + " is in use by another program");
    this.spawn();
    await this.waitForConsole(timeoutMs);
  }

  private spawn(): void {
    this.exitNote = "";
    this.starts++;
    let reboot = false;
    // stdin: a pipe that stays open (at its end the console would spin).
    const proc = spawn(this.bin, ["--telnet"], { cwd: this.dir, stdio: ["pipe", "pipe", "pipe"] });
    this.proc = proc;
    live.add(proc);
    if (locked && proc.pid) fs.writeFileSync(LEFTOVER, String(proc.pid));
    let pending = "";
    const take = (chunk: Buffer) => {
      pending += chunk.toString("latin1");
      let nl: number;
      while ((nl = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, nl).replace(/\x1b\[[0-9;]*[A-Za-z]/g, "").replace(/\r/g, "").replace(/^>+/, "");
        pending = pending.slice(nl + 1);
        if (line.indexOf("[launcher] reboot") >= 0) reboot = true;
        this.lines.push(line);
        if (this.lines.length > KEEP_LINES) this.lines.splice(0, this.lines.length - KEEP_LINES);
        if (process.env.PIXLOOP_ESPRUINO_VERBOSE) process.stderr.write("[espruino] " + line + "\n");
      }
    };
    proc.stdout!.on("data", take);
    proc.stderr!.on("data", take);
    proc.on("close", (code, signal) => {
      live.delete(proc);
      if (this.proc === proc) this.proc = null;
      if (this.stopping) return;
      if (reboot) this.spawn();
      else this.exitNote = "the interpreter ended (" + (signal || "exit code " + code) + ")";
    });
  }

  async waitForConsole(timeoutMs = 15000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (this.exitNote) throw new Error(this.exitNote + "\n" + this.tail());
      if (this.proc && (await listening(TELNET_PORT))) return;
      await sleep(50);
    }
    throw new Error("the interpreter's console did not open within " + timeoutMs + " ms\n" + this.tail());
  }

  /** Resolves once the firmware answers GET /api/v1/version (the interpreter started again if it rebooted). */
  async waitForApi(timeoutMs = 30000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (this.exitNote) throw new Error("firmware did not start: " + this.exitNote + "\n" + this.tail());
      try {
        const r = await fetch(this.url + "/api/v1/version", { signal: AbortSignal.timeout(2000) });
        await r.arrayBuffer();
        if (r.status === 200) return;
      } catch (e) { /* not up yet */ }
      await sleep(100);
    }
    throw new Error("firmware did not answer HTTP within " + timeoutMs + " ms\n" + this.tail());
  }

  /** Cuts the power and turns it on again: SIGKILL, then the same start in the same directory. */
  async powerCycle(): Promise<void> {
    await this.stop();
    this.stopping = false;
    await this.start();
  }

  tail(n = 30): string {
    return this.lines.slice(-n).join("\n");
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const proc = this.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise<void>((resolve) => proc.once("close", () => resolve()));
      proc.kill("SIGKILL");
      await gone;
    }
  }
}

/**
 * Evaluates expressions in the interpreter through its console on port 2323, as Espruino's EVAL
 * packets (DLE SOH, type and length, the expression; the answer comes back as a RESPONSE packet).
 * Values travel as base64 of their JSON. Close it before flashing: the console takes one client.
 */
export class ConsoleClient {
  private buf = Buffer.alloc(0);
  private waiting: ((text: string | null) => void) | null = null;

  private closed = false;

  private constructor(private socket: net.Socket) {
    socket.on("data", (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.scan();
    });
    socket.on("error", () => { /* reported as the close below */ });
    socket.on("close", () => {
      this.closed = true;
      const w = this.waiting;
      this.waiting = null;
      if (w) w(null);
    });
  }

  static async open(): Promise<ConsoleClient> {
    const socket = net.createConnection({ host: "127.0.0.1", port: TELNET_PORT });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("error", reject);
    });
    return new ConsoleClient(socket);
  }

  private scan(): void {
    const at = this.buf.indexOf(Buffer.from([16, 1]));
    if (at < 0 || this.buf.length < at + 4) return;
    const type = this.buf[at + 2] & 0xe0;
    const len = ((this.buf[at + 2] & 0x1f) << 8) | this.buf[at + 3];
    if (this.buf.length < at + 4 + len) return;
    const text = this.buf.subarray(at + 4, at + 4 + len).toString("latin1");
    this.buf = this.buf.subarray(at + 4 + len);
    if (type === 0 && this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w(text);
    }
    this.scan();
  }

  eval<T = unknown>(expr: string, timeoutMs = 10000): Promise<T> {
    // In an array, so that undefined comes back (as null) too.
    const code = "btoa(JSON.stringify([" + expr + "]))";
    if (code.length > 0x1fff) throw new Error("expression too long for one packet");
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        reject(new Error("no answer to " + expr.slice(0, 80)));
      }, timeoutMs);
      if (this.closed) return reject(new Error("the console connection is closed"));
      this.waiting = (text) => {
        clearTimeout(timer);
        if (text === null) return reject(new Error("the console closed the connection during " + expr.slice(0, 80)));
        // E.toJS of a base64 string: a plain quoted literal.
        const json = Buffer.from(JSON.parse(text), "base64").toString("latin1");
        resolve(JSON.parse(json)[0]);
      };
      const head = Buffer.from([16, 1, 0x20 | (code.length >> 8), code.length & 255]);
      this.socket.write(Buffer.concat([head, Buffer.from(code, "latin1")]));
    });
  }

  /** Writes a Storage file (replacing one of that name), a few kilobytes to a packet. */
  async writeFile(name: string, data: Buffer): Promise<void> {
    await this.erase(name);
    for (let off = 0; off < data.length; off += 3000) {
      const b64 = data.subarray(off, off + 3000).toString("base64");
      const ok = await this.eval<boolean>("require(\"Storage\").write(" + JSON.stringify(name) + ",atob(\"" + b64 + "\")," + off +
        (off === 0 ? "," + data.length : "") + ")");
      if (ok !== true) throw new Error("Storage refused " + name);
    }
  }

  erase(name: string): Promise<unknown> {
    return this.eval("require(\"Storage\").erase(" + JSON.stringify(name) + ")");
  }

  list(): Promise<string[]> {
    return this.eval<string[]>("require(\"Storage\").list()");
  }

  /** A file's text, or null when there is no such file. */
  read(name: string): Promise<string | null> {
    return this.eval<string | null>("require(\"Storage\").read(" + JSON.stringify(name) + ")");
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.socket.destroy(), 500);
      this.socket.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
      this.socket.end();
    });
  }
}
