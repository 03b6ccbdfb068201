// npm run flash -- --port <serial device | tcp://host[:port] | Bluetooth address>
//                  [--board esp32|esp32s3] [--wipe] [--baud 115200] [--verbose]
//
// Writes the built firmware into the Storage of a clock that runs Espruino, laid out in slots
// (firmware/update/README.md): the boot stage dist/boot.js as ".bootcde" (which Espruino runs at
// every start), and into slot a dist/<board>.js as "a/main.js" and every file of dist/storage as
// "a/<name>" (the web page, the fonts, the tables, the "m.*" modules, the route table, the slot's
// manifest). The slot record goes and slot b is emptied, so that slot a runs, as the release that
// proved itself: a flash over USB is never on trial. Then it restarts the clock and ends once the
// clock answers again.
//
// The connection is made by the espruino command-line tool, a pinned dev dependency
// (node_modules/espruino): its serial, network and Bluetooth transports and its packet framing.
// Bluetooth is only switched on when the port is a Bluetooth address. Everything is sent as
// Espruino's EVAL packets (2v25 and later), one expression at a time, each answered before the
// next is sent, so a slow flash erase never overruns the console.
//
// A flash is an upgrade, not a factory reset: files whose stored copy is already the same are left
// alone; the settings, the system configuration and the files the user stored stay. Every flash
// records the names of the firmware files it wrote in the Storage file ".pixloop.files"; a file
// named there that the new build no longer has (a module that was renamed or dropped) is removed,
// and no other. --wipe removes every other file too (settings, configuration, user files), except
// Espruino's own boot hooks ".boot0" to ".boot3", which pixloop never writes. A saved Espruino
// program (".varimg", ".bootrst") would run beside the firmware and is always removed.
//
// Before anything is changed the script checks the board (process.env.BOARD against --board, and
// Espruino 2v29 or later) and that the files fit in Storage. While writing, the firmware is
// stopped (reset()), ".bootcde" is erased first and written last, so a flash cut short leaves a
// clock that starts to Espruino's prompt, never a half-written firmware; run the flash again.
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { crc32 } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MANIFEST = ".pixloop.files";
/** Where a flash puts the firmware (firmware/update/README.md); the other slot is emptied. */
const SLOT = "a/";
const OTHER_SLOT = /^b\//;
/** The record of which slot runs: without it, slot a does. */
const SLOT_RECORD = [".slots.0", ".slots.1"];
/** Espruino's boot hooks: run before .bootcde, never written by pixloop, kept by --wipe. */
const BOOT_HOOK = /^\.boot[0-3]$/;
/** Espruino's saved-program files: they would run beside the firmware. */
const SAVED_PROGRAM = [".varimg", ".bootrst"];
/** Characters of code per EVAL packet (a packet holds 8191; file data goes as base64). */
const PACKET = 7600;
const BLE_PACKET = 1800;
const MIN_VERSION = [2, 29];
const BLE_ADDRESS = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i;

const USAGE = "usage: npm run flash -- --port <serial device | tcp://host[:port] | Bluetooth address>\n" +
  "                        [--board esp32|esp32s3] [--wipe] [--baud 115200] [--verbose]";

class Failure extends Error {}
const fail = (message) => { throw new Failure(message); };

const out = (line) => process.stdout.write(line + "\n");
const group = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** What a file costs in Storage: a 32-byte header and its data, padded to 4 bytes. */
const cost = (size) => 32 + ((size + 3) & ~3);

// ---------------------------------------------------------------------------------------------
// Options

function parseOptions(argv) {
  const o = { port: "", board: "esp32", wipe: false, baud: 115200, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) fail(a + " needs a value\n" + USAGE);
      return v;
    };
    if (a === "--port" || a === "-p") o.port = value();
    else if (a === "--board") o.board = value();
    else if (a === "--baud" || a === "-b") o.baud = parseInt(value(), 10);
    else if (a === "--wipe") o.wipe = true;
    else if (a === "--verbose" || a === "-v") o.verbose = true;
    else if (a === "--help" || a === "-h") { out(USAGE); process.exit(0); }
    else fail("unknown option " + a + "\n" + USAGE);
  }
  if (!o.port) fail("no port given\n" + USAGE);
  if (!(o.baud > 0)) fail("--baud needs a number");
  return o;
}

// ---------------------------------------------------------------------------------------------
// The build

function readBuild(board) {
  const boards = fs.readdirSync(path.join(root, "boards")).filter((f) => f.endsWith(".ts") && f !== "board.ts")
    .map((f) => f.slice(0, -3));
  if (boards.indexOf(board) < 0) fail("unknown board " + board + " (boards: " + boards.join(", ") + ")");
  const bundle = path.join(root, "dist", board + ".js");
  const storage = path.join(root, "dist", "storage");
  if (!fs.existsSync(bundle) || !fs.existsSync(storage)) fail(bundle + " is missing: run `npm run build` first");
  const file = (name, source) => {
    const data = fs.readFileSync(source);
    if (name.length > 28) fail("Storage names have at most 28 characters: " + name);
    if (!/^[\x21-\x7e]+$/.test(name)) fail("not a Storage name: " + JSON.stringify(name));
    if (data.length === 0) fail("Storage cannot hold an empty file: " + source);
    return { name, data, size: data.length, crc: crc32(data) };
  };
  const boot = path.join(root, "dist", "boot.js");
  if (!fs.existsSync(boot)) fail(boot + " is missing: run `npm run build` first");
  const files = fs.readdirSync(storage).sort()
    .filter((name) => fs.statSync(path.join(storage, name)).isFile())
    .map((name) => file(SLOT + name, path.join(storage, name)));
  files.push(file(SLOT + "main.js", bundle));
  files.push(file(".bootcde", boot));
  const version = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
  return { board, version, files };
}

// ---------------------------------------------------------------------------------------------
// The port, before the tool is loaded: a missing device or a closed TCP port fails here, clearly.

function describePort(port) {
  if (BLE_ADDRESS.test(port)) return { kind: "ble", path: port.toLowerCase() };
  if (port.startsWith("tcp://")) {
    const rest = port.slice(6);
    const colon = rest.lastIndexOf(":");
    const host = (colon >= 0 ? rest.slice(0, colon) : rest) || "localhost";
    const tcpPort = colon >= 0 ? parseInt(rest.slice(colon + 1), 10) : 23;
    if (!(tcpPort > 0 && tcpPort < 65536)) fail("not a TCP port: " + port);
    return { kind: "tcp", path: port, host, tcpPort };
  }
  if (process.platform === "win32" && /^COM\d+$/i.test(port)) return { kind: "serial", path: port.toUpperCase() };
  if (!fs.existsSync(port)) {
    const dev = fs.existsSync("/dev") ? fs.readdirSync("/dev").filter((n) => /^tty(USB|ACM)\d+$|^cu\./.test(n)) : [];
    fail("port not found: " + port + (dev.length ? " (serial ports here: " + dev.map((n) => "/dev/" + n).join(", ") + ")"
      : " (no USB serial port is present: is the clock plugged in, with a data cable?)"));
  }
  // The tool lists devices by their real names (/dev/serial/by-id/... is a link).
  return { kind: "serial", path: fs.realpathSync(port) };
}

function probeTcp(p) {
  return new Promise((resolve, reject) => {
    const s = net.createConnection({ host: p.host, port: p.tcpPort });
    const done = (err) => {
      clearTimeout(timer);
      s.destroy();
      if (!err) return resolve();
      const why = err.code === "ECONNREFUSED" ? "nothing listens there"
        : err.code === "ENOTFOUND" || err.code === "EAI_AGAIN" ? "unknown host " + p.host
        : err.code === "TIMEOUT" ? "no answer within 5 s" : err.message;
      reject(new Failure("cannot reach " + p.path + ": " + why));
    };
    const timer = setTimeout(() => done({ code: "TIMEOUT" }), 5000);
    s.once("connect", () => done(null));
    s.once("error", done);
  });
}

// ---------------------------------------------------------------------------------------------
// The espruino tool

/** Notes the tool logged (its own console output), for --verbose and for error messages. */
const toolNotes = [];

async function loadTool(verbose) {
  const say = (...a) => {
    const line = a.map(String).join(" ");
    toolNotes.push(line);
    if (toolNotes.length > 200) toolNotes.shift();
    if (verbose) process.stderr.write("[espruino tool] " + line + "\n");
  };
  // The tool reports through the console, noisily: kept apart from this script's output.
  console.log = say;
  console.info = say;
  console.warn = say;
  console.error = say;
  const require = createRequire(import.meta.url);
  let tool;
  try {
    tool = require("espruino");
  } catch (e) {
    fail("the espruino tool is missing from node_modules: run `npm install`");
  }
  await new Promise((resolve) => tool.init(resolve));
  const Espruino = globalThis.Espruino;
  // Nothing is fetched from the network: no board files, no modules, no news.
  Espruino.Config.ENV_ON_CONNECT = false;
  Espruino.Core.Utils.getURL = (url, callback) => {
    say("not fetching " + url);
    callback(undefined);
  };
  return Espruino;
}

/**
 * TCP for the tool: its own transport writes text as UTF-8, which turns every byte above 127 of a
 * packet header into two, and it never reports a reset connection.
 */
function tcpTransport(p) {
  let socket = null;
  return {
    name: "Node Socket",
    getPorts: (callback) => callback([{ path: p.path, description: "network", type: "socket" }], true),
    open(portPath, opened, received, closed) {
      const s = net.createConnection({ host: p.host, port: p.tcpPort });
      let isOpen = false;
      socket = s;
      s.setNoDelay(true);
      s.on("connect", () => { isOpen = true; opened("Ok"); });
      s.on("data", (b) => received(new Uint8Array(b).buffer));
      s.on("error", (e) => toolNotes.push("tcp: " + e.message));
      s.on("close", () => {
        if (socket === s) socket = null;
        if (isOpen) closed();
        else opened(undefined);
      });
    },
    write(data, callback) {
      if (!socket) return callback && callback();
      socket.write(Buffer.from(data, "latin1"), callback);
    },
    close() {
      if (socket) socket.destroy();
    },
  };
}

/** One console connection to the clock, and expressions evaluated there. */
class Clock {
  constructor(Espruino, port, opts) {
    this.E = Espruino;
    this.port = port;
    this.opts = opts;
    this.open = false;
    this.console = "";
    this.pending = null;
    this.seq = 0;
    const Serial = Espruino.Core.Serial;
    const conn = Serial.connection;
    this.conn = conn;
    conn.parsePackets = true;
    conn.chunkSize = port.kind === "ble" ? 20 : 1024;
    conn.on("packet", (type, data) => this.onPacket(type, data));
    conn.on("nak", () => {
      const p = this.pending;
      if (p) p.reject(new Failure("the clock refused a command:\n" + this.recent()));
    });
    Serial.startListening((data) => {
      const text = String.fromCharCode.apply(null, new Uint8Array(data));
      this.console += text;
      if (this.console.length > 20000) this.console = this.console.slice(-10000);
      if (opts.verbose) process.stderr.write(text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ""));
    });
  }

  recent(n = 8) {
    return this.console.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "").split(/\r?\n/).map((l) => l.trim())
      .filter((l) => l && l !== ">").slice(-n).map((l) => "  | " + l).join("\n");
  }

  connect(timeoutMs = 15000) {
    const Serial = this.E.Core.Serial;
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (err) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        crashHook = null;
        if (err) reject(err);
        else resolve();
      };
      // The tool's serial transport has no error handler: a port it cannot open throws.
      crashHook = (e) => finish(new Failure("cannot open " + this.opts.port + ": " + (e && e.message || e)));
      const timer = setTimeout(() => finish(new Failure("cannot open " + this.opts.port + ": no connection within " +
        timeoutMs / 1000 + " s" + this.toolReason())), timeoutMs);
      Serial.open(this.port.path, (status) => {
        if (!status) {
          return finish(new Failure("cannot open " + this.opts.port + this.toolReason()));
        }
        this.open = true;
        this.conn.parsePackets = true;
        finish(null);
      }, () => {
        this.open = false;
        const p = this.pending;
        if (p) p.reject(new Failure("the connection to the clock closed"));
      });
    });
  }

  toolReason() {
    const said = toolNotes.filter((l) => /not found|error|unable|ENOENT|EACCES|EBUSY|denied/i.test(l)).slice(-3);
    return said.length ? " (" + said.join("; ").replace(/\s+/g, " ") + ")" : "";
  }

  onPacket(type, data) {
    if (type !== 0 || !this.pending) return;
    let v;
    try {
      v = JSON.parse(this.E.Core.Utils.parseRJSON(data));
    } catch (e) {
      return; // not an answer of ours
    }
    const p = this.pending;
    if (!Array.isArray(v) || v[0] !== p.id) return; // a late answer to an earlier question
    if (v[1]) p.resolve(v[2]);
    else p.reject(new Failure("the clock reported " + v[2]));
  }

  /** Evaluates `expr` on the clock and resolves with its value (through JSON). */
  eval(expr, timeoutMs = 5000) {
    if (!this.open) return Promise.reject(new Failure("not connected to the clock"));
    const id = ++this.seq;
    const code = "(function(){try{return JSON.stringify([" + id + ",1,(" + expr + ")])}catch(e){return JSON.stringify([" +
      id + ",0,\"\"+e])}})()";
    if (code.length > 0x1fff) throw new Error("packet too long");
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending = null;
        reject(new Failure("no answer from the clock within " + timeoutMs / 1000 + " s"));
      }, timeoutMs);
      const settle = (fn) => (v) => {
        clearTimeout(timer);
        if (this.pending && this.pending.id === id) this.pending = null;
        fn(v);
      };
      this.pending = { id, resolve: settle(resolve), reject: settle(reject) };
      // DLE SOH, then the type (EVAL) and the length in 13 bits, then the expression.
      const header = String.fromCharCode(16, 1, 0x20 | (code.length >> 8), code.length & 255);
      this.conn.write(header + code).catch((e) => this.pending && this.pending.reject(new Failure("sending failed: " + e)));
    });
  }

  close() {
    if (this.open) {
      this.open = false;
      try { this.E.Core.Serial.close(); } catch (e) { /* already closed */ }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// What the clock holds

const js = (v) => JSON.stringify(v);

/** Which board and which Espruino: process.env. */
async function identify(clock) {
  const env = await clock.eval("{board:process.env.BOARD,version:process.env.VERSION}", 3000);
  return { board: env.board || "", version: env.version || "" };
}

/** What Storage holds: its figures, every name, and the record of the firmware files last flashed. */
async function survey(clock) {
  const info = await clock.eval("{stats:require(\"Storage\").getStats(),count:require(\"Storage\").list().length}");
  const names = [];
  for (let i = 0; i < info.count; i += 100) {
    names.push(...await clock.eval("require(\"Storage\").list().slice(" + i + "," + (i + 100) + ")"));
  }
  let manifest = null;
  if (names.indexOf(MANIFEST) >= 0) {
    let text = "";
    for (let off = 0; ; off += 3000) {
      const part = await clock.eval("(require(\"Storage\").read(" + js(MANIFEST) + ")||\"\").substr(" + off + ",3000)");
      text += part;
      if (part.length < 3000) break;
    }
    try {
      manifest = JSON.parse(text);
    } catch (e) {
      manifest = null; // unreadable: nothing is removed on its word
    }
  }
  return { stats: info.stats, names, manifest };
}

/** [size, crc] of each named file that exists, by name. */
async function fingerprints(clock, names) {
  const found = {};
  for (let i = 0; i < names.length; i += 40) {
    const batch = names.slice(i, i + 40);
    const r = await clock.eval("(function(S){return " + js(batch) + ".map(function(n){var f=S.read(n);" +
      "return f===undefined?null:[f.length,E.CRC32(f)]})})(require(\"Storage\"))", 15000);
    batch.forEach((n, k) => { if (r[k]) found[n] = { size: r[k][0], crc: r[k][1] >>> 0 }; });
  }
  return found;
}

function checkBoard(board, env) {
  const b = env.board;
  const version = /^(\d+)v(\d+)/.exec(env.version);
  const linux = /^LINUX/.test(b);
  if (!b || !version) fail("the device on this port did not say which board it is (BOARD " + js(b) + ", VERSION " + js(env.version) + ")");
  const chip = /^ESP32S3/.test(b) ? "esp32s3" : /^ESP32(_|$)/.test(b) ? "esp32" : "";
  if (!linux && chip !== board) {
    fail("wrong board: the device is a " + b + " (Espruino " + env.version + "), but this is the " + board + " build" +
      (chip ? "; flash it with --board " + chip : "; pixloop runs on ESP32 and ESP32-S3 only"));
  }
  const major = +version[1];
  const minor = +version[2];
  if (major < MIN_VERSION[0] || major === MIN_VERSION[0] && minor < MIN_VERSION[1]) {
    fail("the clock runs Espruino " + env.version + "; pixloop needs " + MIN_VERSION.join("v") +
      " or later: flash a newer Espruino first (README, \"Putting it on a clock\")");
  }
  return linux;
}

// ---------------------------------------------------------------------------------------------
// Writing

/** Erases the named files, a hundred to a packet. */
async function eraseFiles(clock, names) {
  for (let i = 0; i < names.length; i += 100) {
    await clock.eval(js(names.slice(i, i + 100)) + ".forEach(function(n){require(\"Storage\").erase(n)})", 30000);
  }
}

/**
 * Writes files into Storage, each erased first, as many pieces to a packet as fit in `budget`
 * characters of code; a file's length and CRC are read back in the packet that ends it, and
 * `written(file)` is called once it checks out.
 */
async function writeFiles(clock, files, budget, written) {
  let parts = [];
  let ending = [];
  let size = 0;
  const flush = async () => {
    if (!parts.length) return;
    // A write that has to compact Storage first can take seconds on the chip.
    const r = await clock.eval("(function(S){function C(n){var f=S.read(n);return f===undefined?null:[f.length,E.CRC32(f)]}" +
      "var r=[];" + parts.join(";") + ";return r})(require(\"Storage\"))", 120000);
    ending.forEach((f, i) => {
      const c = r[i];
      if (!c || c[0] !== f.size || (c[1] >>> 0) !== f.crc) {
        fail(f.name + " reads back differently from what was sent: the connection loses data (try a lower --baud)");
      }
      written(f);
    });
    parts = [];
    ending = [];
    size = 0;
  };
  for (const f of files) {
    for (let off = 0; off < f.size;) {
      const name = js(f.name);
      // What a piece costs besides its data: the call, the name, the offset, the check.
      const overhead = 2 * name.length + 90;
      if (budget - size - overhead < 400) await flush();
      const raw = Math.min(f.size - off, Math.floor((budget - size - overhead) / 4) * 3);
      const b64 = f.data.subarray(off, off + raw).toString("base64");
      const part = (off === 0 ? "S.erase(" + name + ");if(!S.write(" + name + ",atob(\"" + b64 + "\"),0," + f.size + ")"
        : "if(!S.write(" + name + ",atob(\"" + b64 + "\")," + off + ")") + ")throw \"Storage refused \"+" + name;
      parts.push(part);
      size += part.length + 1;
      off += raw;
      if (off >= f.size) {
        parts.push("r.push(C(" + name + "))");
        size += name.length + 12;
        ending.push(f);
      }
    }
  }
  await flush();
}

function manifestFile(build, names) {
  const data = Buffer.from(JSON.stringify({ version: build.version, board: build.board, files: names }), "latin1");
  return { name: MANIFEST, data, size: data.length, crc: crc32(data) };
}

async function waitAnswer(clock, what, timeoutMs, test) {
  const until = Date.now() + timeoutMs;
  let last = null;
  while (Date.now() < until) {
    try {
      if (!clock.open) await clock.connect(Math.max(1000, Math.min(5000, until - Date.now())));
      const v = await clock.eval(what, 2000);
      if (!test || test(v)) return v;
    } catch (e) {
      last = e;
    }
    await sleep(300);
  }
  return fail("the clock did not answer within " + timeoutMs / 1000 + " s" + (last ? " (" + last.message + ")" : "") +
    (clock.recent() ? ":\n" + clock.recent() : ""));
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const build = readBuild(opts.board);
  const port = describePort(opts.port);
  if (port.kind === "tcp") await probeTcp(port);

  const Espruino = await loadTool(opts.verbose);
  Espruino.Config.BAUD_RATE = opts.baud;
  // Bluetooth only for a Bluetooth address: on Linux through BlueZ on the system D-Bus (node-ble),
  // elsewhere through noble. Scanning where there is no Bluetooth stack ends in an error.
  Espruino.Config.BLUETOOTH_LOW_ENERGY = port.kind === "ble" && process.platform !== "linux";
  Espruino.Config.BLUETOOTH_LOW_ENERGY_DBUS = port.kind === "ble" && process.platform === "linux";
  Espruino.Config.SERIAL_IGNORE = "";
  if (port.kind === "tcp") {
    const devices = Espruino.Core.Serial.devices;
    const i = devices.findIndex((d) => d.name === "Node Socket");
    if (i >= 0) devices[i] = tcpTransport(port);
    else devices.push(tcpTransport(port));
  }
  if (port.kind === "serial") {
    const ports = await new Promise((resolve) => Espruino.Core.Serial.getPorts((list) => resolve(list || [])));
    if (!ports.some((p) => p.path === port.path)) {
      fail("not a serial port: " + opts.port + " (serial ports the espruino tool finds: " +
        (ports.length ? ports.map((p) => p.path).join(", ") : "none") + ")");
    }
  }
  if (port.kind === "ble") {
    if (process.platform === "linux") {
      const bus = /^unix:path=([^,;]+)/.exec(process.env.DBUS_SYSTEM_BUS_ADDRESS || "");
      const socket = bus ? bus[1] : "/var/run/dbus/system_bus_socket";
      if (!fs.existsSync(socket)) {
        fail("Bluetooth needs BlueZ on the system D-Bus (" + socket + "), which this machine does not have " +
          "(containers, WSL and CI usually do not): connect the clock by USB and give its serial port instead");
      }
    }
    Espruino.Core.Utils.addRecognisedDeviceAddress(port.path);
    crashHook = (e) => die(new Failure("Bluetooth failed: " + (e && e.message || e)));
    // Bluetooth devices turn up while the scan runs.
    const until = Date.now() + 15000;
    let seen = false;
    while (!seen && Date.now() < until) {
      const ports = await new Promise((resolve) => Espruino.Core.Serial.getPorts((list) => resolve(list || [])));
      // The Bluetooth modules rethrow errors from their own handlers: only this script's stays.
      for (const l of process.listeners("uncaughtException")) if (l !== onUncaught) process.removeListener("uncaughtException", l);
      seen = ports.some((p) => String(p.path).toLowerCase() === port.path);
      if (!seen) await sleep(1000);
    }
    crashHook = null;
    if (!seen) fail("Bluetooth device " + opts.port + " not found" + (toolNotes.length ? " (" + toolNotes.slice(-2).join("; ") + ")" : ""));
  }

  out("pixloop " + build.version + " (" + build.board + ") -> " + opts.port + (opts.wipe ? ", wiping Storage" : ""));
  const clock = new Clock(Espruino, port, opts);
  await clock.connect();

  let id = null;
  for (let attempt = 0; attempt < 3 && !id; attempt++) {
    try {
      id = await identify(clock);
    } catch (e) {
      if (!(e instanceof Failure) || !/no answer/.test(e.message)) throw e;
    }
  }
  if (!id) {
    fail("no answer from Espruino on " + opts.port + ": is Espruino 2v29 or later running there" +
      (port.kind === "serial" ? ", at " + opts.baud + " baud" : "") + ", with its console on this port?" +
      (clock.recent() ? "\nit said:\n" + clock.recent() : ""));
  }
  const linux = checkBoard(build.board, id);
  const env = await survey(clock);
  const stats = env.stats;
  out("found Espruino " + id.version + " on " + id.board + (linux ? " (Espruino's Linux build, taken for any board)" : "") + "; Storage: " + group(stats.freeBytes + stats.trashBytes) +
    " of " + group(stats.totalBytes) + " bytes free, " + env.names.length + (env.names.length === 1 ? " file" : " files"));

  // The plan.
  const wanted = new Set(build.files.map((f) => f.name));
  const present = new Set(env.names);
  const oldFirmware = env.manifest && Array.isArray(env.manifest.files) ? env.manifest.files.filter((n) => typeof n === "string") : [];
  const removeSet = new Set();
  for (const n of SAVED_PROGRAM) if (present.has(n)) removeSet.add(n);
  // Slot a runs after a flash: no record saying otherwise, nothing in slot b.
  for (const n of env.names) if (SLOT_RECORD.indexOf(n) >= 0 || OTHER_SLOT.test(n)) removeSet.add(n);
  for (const n of oldFirmware) if (present.has(n) && !wanted.has(n) && n !== MANIFEST) removeSet.add(n);
  if (opts.wipe) {
    for (const n of env.names) if (!wanted.has(n) && n !== MANIFEST && !BOOT_HOOK.test(n)) removeSet.add(n);
  }
  const remove = [...removeSet].sort();
  const finalManifest = manifestFile(build, build.files.map((f) => f.name));
  const interim = manifestFile(build, [...new Set([...oldFirmware, ...build.files.map((f) => f.name)])]);
  const budget = port.kind === "ble" ? BLE_PACKET : PACKET;
  const known = await fingerprints(clock, [...wanted, MANIFEST].filter((n) => present.has(n)).concat(remove));
  const same = (f) => known[f.name] && known[f.name].size === f.size && known[f.name].crc === f.crc;
  const toWrite = build.files.filter((f) => !same(f));
  // .bootcde last: a flash cut short must not leave an old firmware beside new modules.
  toWrite.sort((a, b) => (a.name === ".bootcde" ? 1 : 0) - (b.name === ".bootcde" ? 1 : 0));
  const kept = env.names.filter((n) => !wanted.has(n) && n !== MANIFEST && !removeSet.has(n));

  // Room: what is free now, the erased files' trash (compaction frees it), and what this flash
  // erases or replaces.
  const freed = [...remove, ...toWrite.map((f) => f.name), MANIFEST]
    .filter((n, i, a) => a.indexOf(n) === i && known[n]).reduce((s, n) => s + cost(known[n].size), 0);
  const room = stats.freeBytes + stats.trashBytes + freed;
  const need = toWrite.reduce((s, f) => s + cost(f.size), 0) + cost(Math.max(interim.size, finalManifest.size));
  if (need > room) {
    fail("Storage full: this build needs " + group(need) + " bytes and the clock has " + group(room) +
      " (free, plus what this flash replaces). Nothing was changed. Remove files you stored" +
      (kept.length ? " (" + kept.slice(0, 6).join(", ") + (kept.length > 6 ? ", ..." : "") + ")" : "") +
      ", or flash with --wipe for a clean start.");
  }

  const changes = toWrite.length > 0 || remove.length > 0 || !same(finalManifest);
  let bytes = 0;
  if (changes) {
    // Stop the firmware: its code runs from the very files about to be replaced.
    await clock.eval("global.__pixloopFlash=1");
    await clock.eval("reset()");
    await waitAnswer(clock, "typeof __pixloopFlash", 20000, (v) => v === "undefined");
    // reset() ran the boot hooks again: nothing may run code from Storage while files move.
    await clock.eval("clearInterval(),clearWatch(),1");
    // While files come and go, the record names both builds' files.
    await writeFiles(clock, [interim], budget, () => {});
    await eraseFiles(clock, remove);
    for (const n of remove) {
      const why = SAVED_PROGRAM.indexOf(n) >= 0 ? "a saved Espruino program, which would run beside the firmware"
        : SLOT_RECORD.indexOf(n) >= 0 ? "the slot record: slot a runs"
        : OTHER_SLOT.test(n) ? "slot b: the flashed firmware is in slot a"
        : opts.wipe && oldFirmware.indexOf(n) < 0 ? "wiped" : "not part of this build";
      out("  removed " + n + " (" + why + ")");
    }
    // .bootcde goes first and comes back last.
    await eraseFiles(clock, toWrite.map((f) => f.name).reverse());
    const now = await clock.eval("require(\"Storage\").getStats()");
    if (need > now.freeBytes) {
      out("compacting Storage ...");
      await clock.eval("require(\"Storage\").compact()", 300000);
    }
    const width = Math.max(12, ...toWrite.map((f) => f.name.length));
    await writeFiles(clock, toWrite, budget, (f) => {
      bytes += f.size;
      out("  " + f.name.padEnd(width) + " " + group(f.size).padStart(8) + " bytes");
    });
    await writeFiles(clock, [finalManifest], budget, () => {});
  }
  const files = (n) => n + (n === 1 ? " file" : " files");
  out((changes ? "written: " + files(toWrite.length) + ", " + group(bytes) + " bytes" : "nothing to write: the clock already has this build") +
    "; unchanged: " + (build.files.length - toWrite.length) + (remove.length ? "; removed: " + remove.length : "") +
    "; kept: " + (kept.length === 0 ? "no other files" : kept.length <= 8 ? kept.join(", ") : kept.length + " other files"));

  // Restart. The Linux build of Espruino ends on E.reboot(); load() restarts it in place.
  out("restarting the clock ...");
  clock.console = "";
  await clock.eval("global.__pixloopFlash=1");
  await clock.eval(linux ? "load()" : "setTimeout(function(){E.reboot()},200)");
  await sleep(linux ? 200 : 1500);
  await waitAnswer(clock, "typeof __pixloopFlash", 60000, (v) => v === "undefined");
  // The answer comes once .bootcde has been evaluated; what it started runs a moment later.
  await sleep(1000);
  const trouble = clock.console.split(/\r?\n/).map((l) => l.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "").trim())
    .filter((l) => /^Uncaught|OUT OF MEMORY/.test(l));
  if (trouble.length) fail("the clock restarted, but the firmware failed as it started:\n" + clock.recent(12));
  out("done: the clock has restarted with pixloop " + build.version);
  clock.close();
}

/** Set while a port is being opened: the tool's serial transport throws what it cannot open. */
let crashHook = null;

function die(e) {
  const message = e instanceof Failure ? e.message : "unexpected error: " + (e && e.message || e);
  process.stderr.write("flash: " + message + "\n");
  if (!(e instanceof Failure) && process.argv.indexOf("--verbose") >= 0) process.stderr.write(String(e && e.stack) + "\n");
  setTimeout(() => process.exit(1), 100);
}

function onUncaught(e) {
  if (crashHook) crashHook(e);
  else die(e);
}

process.on("uncaughtException", onUncaught);
main().then(() => setTimeout(() => process.exit(0), 100), die);
