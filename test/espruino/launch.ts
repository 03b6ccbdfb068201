// The firmware in the real interpreter, booted as the clock boots it. Each instance has its own
// directory (a temporary one unless `dataDir` names one) as the interpreter's current directory,
// so its Storage (./espruino.flash) survives restarts. First the Linux build of Espruino named by
// $ESPRUINO runs scripts/espruino/flash-storage.js, which writes into Storage what flashing a
// clock writes: dist/<board>.js as ".bootcde", the files of dist/storage, and
// scripts/espruino/boot0.js (stand-ins for what that build lacks: Wifi, neopixel, ESP32,
// E.reboot) as ".boot0". Then the interpreter is started with no script, its stdin a pipe that
// stays open: its own boot evaluates .boot0 and then .bootcde from Storage. On
// "[launcher] reboot" it is started the same way again at once, on "[launcher] sleep <ms>" after
// the sleep; it is stopped with SIGKILL (the REPL ignores SIGTERM).
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import type { Target } from "../http/target";
import { ROOT } from "../harness/root";
import { SIM_NETWORK } from "../harness/device";
import { joinSimulatedNetwork, wifiMode } from "../harness/simulator";

export const FLASHER = path.join(ROOT, "scripts", "espruino", "flash-storage.js");
export const BOOT0 = path.join(ROOT, "scripts", "espruino", "boot0.js");
const MARK = "[launcher] ";
/** Longest deep sleep honoured before waking; longer ones wake after this. */
const MAX_SLEEP_MS = 60000;
/** Lines of output kept for diagnostics. */
const KEEP_LINES = 4000;

export interface EspruinoOptions {
  /** Leave the device factory-fresh, in setup mode (default: joined like the simulator). */
  setup?: boolean;
  /** Open the benchmark hook of the stand-ins (memory, variable dumps, handler timing). */
  debug?: boolean;
  /**
   * Dump the interpreter's variables at the end of .boot0 ("before": the stand-ins alone) and
   * right after .bootcde has been evaluated ("loaded").
   */
  dumpAtLoad?: boolean;
  /**
   * The instance's directory (Storage lives in espruino.flash there), kept after stop(), so a
   * later start finds the Storage a power cut would leave. Default: a temporary directory.
   */
  dataDir?: string;
  /** How long to wait for the firmware's server at each boot, ms. */
  bootTimeoutMs?: number;
  /** The port the firmware's servers listen on (default: a free one). */
  port?: number;
  /** The firmware files flashed into Storage (default: dist/storage). */
  storageDir?: string;
  /** Called with each line of the interpreter's output (dumps excepted) as it comes. */
  log?: (line: string) => void;
  /** Called when the interpreter ends other than by a reboot, a sleep or stop(). */
  onEnd?: (note: string) => void;
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
  /**
   * Cuts the power (SIGKILL, whatever it is doing) and starts the interpreter again on the same
   * flash; `whileOff` runs in between (to look at or change the flash file as the cut left it).
   */
  powerCycle(whileOff?: () => void | Promise<void>): Promise<void>;
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
/** Set by killAll(): the interpreters' ends are expected, none is started again. */
let killing = false;
const dirs = new Set<string>();
process.on("exit", () => {
  // An interpreter whose stdin closes spins instead of ending: never leave one behind.
  for (const child of live) child.kill("SIGKILL");
  for (const dir of dirs) {
    try { fs.rmSync(dir, { recursive: true, force: true }); } catch (e) { /* still in use */ }
  }
});

/** Kills every interpreter started here and resolves once all of them have ended. */
export function killAll(): Promise<void> {
  killing = true;
  return Promise.all([...live].map((proc) => new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once("exit", () => resolve());
    proc.kill("SIGKILL");
  }))).then(() => undefined);
}

async function answers(url: string): Promise<boolean> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await r.arrayBuffer();
    return true;
  } catch (e) {
    return false;
  }
}

export async function startEspruino(board: string, opts: EspruinoOptions = {}): Promise<EspruinoTarget> {
  const bin = espruinoPath();
  const bundle = path.join(ROOT, "dist", board + ".js");
  if (!fs.existsSync(bundle)) throw new Error(bundle + " is missing: run `npm run build` first");
  const temporary = !opts.dataDir;
  const dir = opts.dataDir || fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-espruino-"));
  fs.mkdirSync(dir, { recursive: true });
  if (temporary) dirs.add(dir);
  const port = opts.port || (await freePort());
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
    if (opts.log && !line.startsWith("espruino: ")) opts.log(line);
    if (line.startsWith(MARK + "listening")) listening = true;
    if (line.startsWith(MARK + "loaded ")) loaded = true;
    // An exception out of .boot0 or the bundle's evaluation: the firmware never comes up.
    if (!loaded && !bootError && line.startsWith("Uncaught")) bootError = line;
    // The port was taken between choosing it and binding it.
    if (!bootError && line.includes("Socket bind failed")) bootError = line;
    if (line === MARK + "reboot" || line.startsWith(MARK + "sleep ")) ending = line.slice(MARK.length);
  };

  // Read by the flashing step and by .boot0 at every boot.
  fs.writeFileSync(path.join(dir, "launch.json"), JSON.stringify({
    bundle, storage: opts.storageDir || path.join(ROOT, "dist", "storage"), boot0: BOOT0, port, debugPort,
    // Laid out as `npm run flash` lays out a clock: the boot stage as .bootcde, the firmware in slot a.
    boot: path.join(ROOT, "dist", "boot.js"), slot: "a/",
    mac: "24:6f:28:a1:b2:c3", ssid: SIM_NETWORK.ssid, dumpAtLoad: !!opts.dumpAtLoad, parent: process.pid,
  }) + "\n");

  const boot = () => {
    listening = false;
    loaded = false;
    bootError = "";
    ending = "";
    exitNote = "";
    boots++;
    // No script: the interpreter boots from Storage. stdin: a pipe that stays open and is never
    // written (at EOF the interpreter spins).
    const proc = spawn(bin, [], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
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
      if (stopping || killing || cutting) return;
      if (ending === "reboot") {
        boot();
      } else if (ending.startsWith("sleep ")) {
        const ms = Math.min(parseInt(ending.slice(6), 10) || 0, MAX_SLEEP_MS);
        wake = setTimeout(() => {
          wake = null;
          if (!stopping) boot();
        }, ms);
      } else {
        exitNote = "the interpreter ended on its own (" + (signal || "exit code " + code) + ")";
        lines.push("[espruino] " + exitNote);
        if (opts.onEnd) opts.onEnd(exitNote);
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

  // Set while powerCycle() kills the interpreter: that end is no reboot and no failure.
  let cutting = false;
  const powerCycle = async (whileOff?: () => void | Promise<void>) => {
    if (wake) clearTimeout(wake);
    wake = null;
    const proc = child;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      cutting = true;
      const gone = new Promise<void>((resolve) => proc.once("close", () => resolve()));
      proc.kill("SIGKILL");
      await gone;
      cutting = false;
    }
    if (whileOff) await whileOff();
    boot();
  };

  const stop = async () => {
    stopping = true;
    if (wake) clearTimeout(wake);
    const proc = child;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise<void>((resolve) => proc.once("close", () => resolve()));
      proc.kill("SIGKILL");
      await gone;
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
    powerCycle,
    dumps,
    requestDump,
    tail,
    stop,
  };

  try {
    // Booting from Storage, the interpreter prints no banner: the version comes from this step's.
    version = await flash(bin, dir, lines);
    boot();
    await waitForServer();
    if (!opts.setup && (await wifiMode(url)) === "setup") {
      await joinSimulatedNetwork(target);
      if ((await wifiMode(url)) !== "station") throw new Error("the firmware did not join the network\n" + tail());
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return target;
}

/**
 * The flashing step: the interpreter runs scripts/espruino/flash-storage.js in the device's
 * directory (launch.json written) and ends. Its output goes to `lines`; resolves with the
 * interpreter's version, from its banner.
 */
function flash(bin: string, dir: string, lines: string[], timeoutMs = 60000): Promise<string> {
  return new Promise((resolve, reject) => {
    // A script argument: the interpreter runs no .bootcde (and .boot0 stays out of the way).
    const proc = spawn(bin, [FLASHER], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    live.add(proc);
    let out = "";
    proc.stdout!.on("data", (b: Buffer) => { out += b.toString("latin1"); });
    proc.stderr!.on("data", (b: Buffer) => { out += b.toString("latin1"); });
    const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
    proc.on("close", (code, signal) => {
      clearTimeout(timer);
      live.delete(proc);
      const all = out.split("\n").map(cleanLine);
      const said = all.filter((l) => l !== "" && l !== ">" && !BANNER.test(l) && !VERSION_LINE.test(l) && !l.startsWith("espruino: "));
      lines.push(...said);
      let version = "";
      for (const l of all) version = version || (VERSION_LINE.exec(l) || ["", ""])[1];
      if (said.some((l) => l.startsWith("[flash] done"))) resolve(version);
      else reject(new Error("flashing Storage failed (" + (signal || "exit code " + code) + "):\n" + said.slice(-20).join("\n")));
    });
  });
}
