// The firmware in the real interpreter: the Linux build of Espruino named by $ESPRUINO runs
// scripts/espruino/launcher.js, which stands in for what that build lacks (Wifi, neopixel, ESP32,
// E.reboot) and runs dist/<board>.js from Storage. Each instance has its own directory (a
// temporary one unless `dataDir` names one) as the interpreter's current directory, so its
// Storage (./espruino.flash) survives the restarts the firmware asks for: on "[launcher] reboot" the interpreter is started again at
// once in the same directory, on "[launcher] sleep <ms>" after the sleep.
import { spawn, type ChildProcess } from "node:child_process";
import * as acorn from "acorn";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import type { Target } from "../http/target";
import { ROOT } from "../harness/root";
import { SIM_NETWORK } from "../harness/device";

export const LAUNCHER = path.join(ROOT, "scripts", "espruino", "launcher.js");
const MARK = "[launcher] ";
/** Longest deep sleep honoured before waking; longer ones wake after this. */
const MAX_SLEEP_MS = 60000;
/** Lines of output kept for diagnostics. */
const KEEP_LINES = 4000;

export interface EspruinoOptions {
  /** Leave the device factory-fresh, in setup mode (default: joined like the simulator). */
  setup?: boolean;
  /** Open the launcher's benchmark hook (memory, variable dumps, handler timing). */
  debug?: boolean;
  /** Dump the interpreter's variables just before and right after the bundle is evaluated. */
  dumpAtLoad?: boolean;
  /**
   * The instance's directory (Storage lives in espruino.flash there), kept after stop(), so a
   * later start finds the Storage a power cut would leave. Default: a temporary directory.
   */
  dataDir?: string;
  /** How long to wait for the firmware's server at each boot, ms. */
  bootTimeoutMs?: number;
}

export interface EspruinoTarget extends Target {
  /** The benchmark hook, when `debug` was asked for. */
  debugUrl?: string;
  /** The instance's directory (Storage lives in espruino.flash there). */
  dir: string;
  /** Interpreter processes started so far (1 + restarts). */
  readonly boots: number;
  /** Output of the interpreter, cleaned of prompts and start-up banners, newest last. */
  lines: string[];
  /** The interpreter's version, from its banner ("2v29.277"). */
  readonly version: string;
  /** Resolves when the interpreter has been started again after a reboot or sleep. */
  nextBoot(): Promise<void>;
  /** Resolves once the firmware answers HTTP. */
  waitForServer(timeoutMs?: number): Promise<void>;
  /** The newest variable dump printed under each label ("before", "loaded", or a requested one). */
  dumps: { [label: string]: VariableDump };
  /** Asks the benchmark hook for a dump (after a garbage collection) and waits for all of it. */
  requestDump(label: string, timeoutMs?: number): Promise<VariableDump>;
  /** The last `n` lines of output, for error messages. */
  tail(n?: number): string;
}

/** E.dumpVariables() output: "ref,size,flags,name,links..." lines, and the usage measured with it. */
export interface VariableDump { usage: number; lines: string[] }

export function espruinoPath(): string {
  const bin = process.env.ESPRUINO;
  if (!bin) throw new Error("set ESPRUINO=/path/to/espruino to run the firmware in the real interpreter");
  if (!fs.existsSync(bin)) throw new Error("ESPRUINO names " + bin + ", which does not exist");
  return bin;
}

/** A TCP port nobody listens on right now (the interpreter binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** The start-up banner the Linux build prints (its version line is read, the rest dropped). */
const BANNER = /^( ____ |\|  __\||\|____\||\s+\|_\| espruino\.com|Espruino is Open Source|only by sales of official|http:\/\/espruino\.com\/Donate)/;
const VERSION_LINE = /^ (\d+v\d+(?:\.\d+)?) \(c\) \d+ G\.Williams/;

/** One line of interpreter output without the console's prompt and line-clearing codes. */
function cleanLine(raw: string): string {
  let line = raw.replace(/\x1b\[J/g, "").replace(/\r+$/, "");
  const cr = line.lastIndexOf("\r");
  if (cr >= 0) line = line.slice(cr + 1);
  return line;
}

const live = new Set<ChildProcess>();
const dirs = new Set<string>();
process.on("exit", () => {
  // An interpreter whose stdin closes spins instead of ending: never leave one behind.
  for (const child of live) child.kill("SIGKILL");
  for (const dir of dirs) {
    try { fs.rmSync(dir, { recursive: true, force: true }); } catch (e) { /* still in use */ }
  }
});

async function answers(url: string): Promise<boolean> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await r.arrayBuffer();
    return true;
  } catch (e) {
    return false;
  }
}

/** Most bytes of the bundle the interpreter reads and evaluates in one piece. */
const CHUNK_BYTES = 6000;

/**
 * Where to cut the bundle for the interpreter: [offset, length] pieces in order, each a run of
 * whole top-level statements of the bundle's body (the prelude before the wrapping arrow function
 * is the first piece). The Linux build copies the code of every function it evaluates out of the
 * text, where the ESP32 points into flash: evaluated whole, the text and the copies would be held
 * at once, which no longer fits in the ESP32's 16383 variables. Piece by piece only one piece of
 * text is held beside the copies. The pieces run at the root scope, so the bundle's top-level
 * names are globals there; that is the only difference from the device. Empty when the bundle has
 * another shape (then it is evaluated whole).
 */
export function bundleChunks(code: string): [number, number][] {
  const ast = acorn.parse(code, { ecmaVersion: 2020 }) as unknown as { body: any[] };
  const call = ast.body.find((s) => s.type === "ExpressionStatement" && s.expression.type === "CallExpression" &&
    s.expression.callee.type === "ArrowFunctionExpression");
  if (!call) return [];
  const body = call.expression.callee.body.body as { start: number; end: number }[];
  const out: [number, number][] = [[0, call.start]];
  let from = -1;
  let to = -1;
  for (const st of body) {
    if (from >= 0 && st.end - from > CHUNK_BYTES) {
      out.push([from, to - from]);
      from = -1;
    }
    if (from < 0) from = st.start;
    to = st.end;
  }
  if (from >= 0) out.push([from, to - from]);
  return out;
}

export async function startEspruino(board: string, opts: EspruinoOptions = {}): Promise<EspruinoTarget> {
  const bin = espruinoPath();
  const bundle = path.join(ROOT, "dist", board + ".js");
  if (!fs.existsSync(bundle)) throw new Error(bundle + " is missing: run `npm run build` first");
  const temporary = !opts.dataDir;
  const dir = opts.dataDir || fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-espruino-"));
  fs.mkdirSync(dir, { recursive: true });
  if (temporary) dirs.add(dir);
  const port = await freePort();
  const debugPort = opts.debug ? await freePort() : 0;
  const bootTimeoutMs = opts.bootTimeoutMs || 30000;

  const lines: string[] = [];
  const dumps: { [label: string]: VariableDump } = {};
  const dumpHooks: { [label: string]: (d: VariableDump) => void } = {};
  let dumping: { label: string; dump: VariableDump } | null = null;
  const bootHooks: (() => void)[] = [];
  let child: ChildProcess | null = null;
  let boots = 0;
  let version = "";
  let stopping = false;
  let listening = false;
  let loaded = false;
  let bootError = "";
  let ending = "";
  let exitNote = "";
  let wake: NodeJS.Timeout | null = null;
  const verbose = !!process.env.PIXLOOP_ESPRUINO_VERBOSE;

  const onLine = (line: string) => {
    if (line === "" || line === ">" || BANNER.test(line)) return;
    const v = VERSION_LINE.exec(line);
    if (v) {
      version = v[1];
      return;
    }
    if (dumping) {
      // A dump is thousands of lines: kept apart, not in the diagnostics.
      if (line === MARK + "dump end " + dumping.label) {
        const done = dumping;
        dumping = null;
        dumps[done.label] = done.dump;
        const hook = dumpHooks[done.label];
        delete dumpHooks[done.label];
        if (hook) hook(done.dump);
      } else {
        dumping.dump.lines.push(line);
      }
      return;
    }
    if (line.startsWith(MARK + "dump begin ")) {
      const words = line.slice(MARK.length).split(" ");
      dumping = { label: words[2], dump: { usage: +words[3], lines: [] } };
      return;
    }
    lines.push(line);
    if (lines.length > KEEP_LINES) lines.splice(0, lines.length - KEEP_LINES);
    if (verbose) process.stderr.write("[espruino] " + line + "\n");
    if (line.startsWith(MARK + "listening")) listening = true;
    if (line.startsWith(MARK + "loaded ")) loaded = true;
    // An exception out of the bundle's evaluation: the firmware never comes up.
    if (!loaded && !bootError && (line.startsWith("Uncaught") || line.startsWith(MARK + "boot failed"))) bootError = line;
    // The port was taken between choosing it and binding it.
    if (!bootError && line.includes("Socket bind failed")) bootError = line;
    if (line === MARK + "reboot" || line.startsWith(MARK + "sleep ")) ending = line.slice(MARK.length);
  };

  const chunks = bundleChunks(fs.readFileSync(bundle, "latin1"));
  const launch = (flash: boolean) => {
    fs.writeFileSync(path.join(dir, "launch.json"), JSON.stringify({
      bundle, chunks, storage: path.join(ROOT, "dist", "storage"), flash, port, debugPort,
      mac: "24:6f:28:a1:b2:c3", ssid: SIM_NETWORK.ssid, dumpAtLoad: !!opts.dumpAtLoad, parent: process.pid,
    }));
    listening = false;
    loaded = false;
    bootError = "";
    ending = "";
    exitNote = "";
    boots++;
    // stdin: a pipe that stays open and is never written (at EOF the interpreter spins).
    const proc = spawn(bin, [LAUNCHER], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
    child = proc;
    live.add(proc);
    const reader = () => {
      let pending = "";
      return {
        take: (chunk: Buffer) => {
          pending += chunk.toString("latin1");
          let nl: number;
          while ((nl = pending.indexOf("\n")) >= 0) {
            onLine(cleanLine(pending.slice(0, nl)));
            pending = pending.slice(nl + 1);
          }
        },
        flush: () => {
          if (pending) onLine(cleanLine(pending));
          pending = "";
        },
      };
    };
    const out = reader();
    const err = reader();
    proc.stdout!.on("data", out.take);
    proc.stderr!.on("data", err.take);
    proc.on("exit", () => live.delete(proc));
    // "close" comes after the output has been read to its end, so the ending marker is known.
    proc.on("close", (code, signal) => {
      out.flush();
      err.flush();
      if (child === proc) child = null;
      if (stopping) return;
      if (ending === "reboot") {
        launch(false);
      } else if (ending.startsWith("sleep ")) {
        const ms = Math.min(parseInt(ending.slice(6), 10) || 0, MAX_SLEEP_MS);
        wake = setTimeout(() => {
          wake = null;
          if (!stopping) launch(false);
        }, ms);
      } else {
        exitNote = "the interpreter ended on its own (" + (signal || "exit code " + code) + ")";
        lines.push("[espruino] " + exitNote);
      }
    });
    if (boots > 1) {
      const waiting = bootHooks.splice(0);
      for (const fn of waiting) fn();
    }
  };

  const tail = (n = 40) => lines.slice(-n).join("\n");
  const url = "http://127.0.0.1:" + port;

  const waitForServer = async (timeoutMs = bootTimeoutMs) => {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (exitNote) throw new Error("firmware did not start: " + exitNote + "\n" + tail());
      if (bootError) {
        await new Promise((r) => setTimeout(r, 300)); // let the rest of the trace arrive
        throw new Error("firmware did not start: " + bootError + "\n" + tail());
      }
      if (listening && child && (await answers(url + "/api/v1/version"))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("firmware did not answer HTTP within " + timeoutMs + " ms\n" + tail());
  };

  const nextBoot = () => new Promise<void>((resolve) => bootHooks.push(resolve));

  const requestDump = (label: string, timeoutMs = 60000) => new Promise<VariableDump>((resolve, reject) => {
    if (!debugPort) return reject(new Error("requestDump needs the benchmark hook (debug: true)"));
    const timer = setTimeout(() => {
      delete dumpHooks[label];
      reject(new Error("no complete variable dump within " + timeoutMs + " ms\n" + tail()));
    }, timeoutMs);
    dumpHooks[label] = (d) => {
      clearTimeout(timer);
      resolve(d);
    };
    fetch("http://127.0.0.1:" + debugPort + "/dump?label=" + encodeURIComponent(label))
      .then((r) => r.arrayBuffer())
      .catch((e) => {
        clearTimeout(timer);
        delete dumpHooks[label];
        reject(e);
      });
  });

  const stop = async () => {
    stopping = true;
    if (wake) clearTimeout(wake);
    const proc = child;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise<void>((resolve) => proc.once("close", () => resolve()));
      proc.kill("SIGTERM");
      const hard = setTimeout(() => proc.kill("SIGKILL"), 2000);
      await gone;
      clearTimeout(hard);
    }
    if (temporary) {
      fs.rmSync(dir, { recursive: true, force: true });
      dirs.delete(dir);
    }
  };

  const target: EspruinoTarget = {
    url,
    debugUrl: debugPort ? "http://127.0.0.1:" + debugPort : undefined,
    dir,
    get boots() { return boots; },
    get version() { return version; },
    lines,
    nextBoot,
    waitForServer,
    dumps,
    requestDump,
    tail,
    stop,
  };

  try {
    launch(true);
    await waitForServer();
    if (!opts.setup && (await mode(url)) === "setup") {
      // Joined the way the simulator joins: through the setup API, then a restart.
      const put = await fetch(url + "/api/v1/system", {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ wifiSsid: SIM_NETWORK.ssid, wifiPass: SIM_NETWORK.password }),
      });
      if (put.status !== 200) throw new Error("setup refused the network: " + (await put.text()));
      const booted = nextBoot();
      await (await fetch(url + "/api/v1/device/reboot", { method: "POST" })).arrayBuffer();
      await booted;
      await waitForServer();
      if ((await mode(url)) !== "station") throw new Error("the firmware did not join the network\n" + tail());
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return target;
}

async function mode(url: string): Promise<string> {
  const r = await fetch(url + "/api/v1/device");
  const text = await r.text();
  let d: { wifi?: { state?: string } } = {};
  try { d = JSON.parse(text); } catch (e) { /* reported below */ }
  if (!d.wifi) throw new Error("GET /api/v1/device answered " + r.status + " without wifi state: " + text.slice(0, 200));
  return d.wifi.state === "connected" ? "station" : "setup";
}
