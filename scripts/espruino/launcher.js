// Runs a pixloop bundle in the Linux build of Espruino the way an ESP32 clock runs it.
//
// This file is evaluated by the interpreter itself (plain ES5: no arrows, no let/const) with the
// instance's own directory as the current directory, so that Storage (./espruino.flash) belongs
// to that instance and survives its restarts. The Node side (test/espruino/launch.ts) writes
// ./launch.json first:
//
//   bundle     absolute path of dist/<board>.js
//   storage    absolute path of dist/storage (files the device carries next to its bundle)
//   flash      true on the first start: copy bundle and files into Storage, as flashing would
//   port       TCP port every server of the firmware listens on, whatever port it asks for
//   debugPort  0, or a port for the benchmark hook below
//   mac        the station MAC the Wifi stand-in reports
//   ssid       the network name the Wifi stand-in finds in scans
//   dumpAtLoad true: E.dumpVariables() just before and right after the bundle is evaluated
//   parent     process id of the process that started the interpreter (default: its parent)
//
// What the Linux build lacks is stood in for: the modules Wifi (a station that joins whatever
// network it is given, at 127.0.0.1), neopixel (keeps the last frame) and ESP32 (deep sleep ends
// the process). E.reboot() ends the process too. Each ending prints a line the Node side
// recognises and acts on (start again in the same directory, at once or after the sleep):
//
//   [launcher] listening <port> (asked <port>)
//   [launcher] loaded <bytes> bytes, usage before <vars> after <vars>, source held while running <vars>
//   [launcher] reboot
//   [launcher] sleep <ms>
//   [launcher] boot failed: <error>
//   [launcher] dump begin <label> ... [launcher] dump end <label>   (E.dumpVariables() output)
//
// Like the device, the bundle runs from Storage (".bootcde"). The Linux build cannot map Storage
// into memory, so the code it reads is a copy in RAM and every function keeps a copy of its own
// source in variables, where the ESP32 keeps a 1-variable reference into flash. The benchmarks
// correct for this from an E.dumpVariables() listing (see bench/README.md); the end of this file
// keeps the copies at load down to one.

var LAUNCH = JSON.parse(require("fs").readFileSync("launch.json"));
var LOG = "[launcher] ";

// ---- Storage: what flashing the device would put there ------------------------------------

function copyIntoStorage(path, name) {
  var Storage = require("Storage");
  var CHUNK = 2048;
  var size = require("fs").statSync(path).size;
  // "" when the file exists and is not longer than `size` (undefined when there is none).
  var same = Storage.read(name, size, 1) === "";
  var f = E.openFile(path, "r");
  var off = 0;
  var chunk;
  if (same) {
    while (same && off < size) {
      chunk = f.read(CHUNK);
      if (chunk === undefined || chunk === null) break;
      if (Storage.read(name, off, chunk.length) !== chunk) same = false;
      off += chunk.length;
    }
    if (same && off === size) {
      f.close();
      return;
    }
    f.close();
    f = E.openFile(path, "r");
  }
  Storage.erase(name);
  off = 0;
  while (off < size) {
    chunk = f.read(CHUNK);
    if (chunk === undefined || chunk === null) break;
    Storage.write(name, chunk, off, size);
    off += chunk.length;
  }
  f.close();
}

if (LAUNCH.flash) {
  copyIntoStorage(LAUNCH.bundle, ".bootcde");
  if (LAUNCH.storage) {
    var names = [];
    try { names = require("fs").readdirSync(LAUNCH.storage); } catch (e) { names = []; }
    for (var i = 0; i < names.length; i++) {
      if (names[i] === "." || names[i] === "..") continue;
      copyIntoStorage(LAUNCH.storage + "/" + names[i], names[i]);
    }
    names = undefined;
  }
}
// Not needed again in this process; dropping it keeps the launcher's share of memory small.
copyIntoStorage = undefined;

// ---- Stand-ins for the modules the Linux build lacks ----------------------------------------

// One global holds them: Modules.addCached evaluates module source, which sees globals but not
// this file's closures.
var STANDIN = {};

STANDIN.Wifi = (function () {
  var IP = "127.0.0.1";
  var joined = null;
  var ap = null;
  var hostname = "";
  var listeners = {};
  function emit(ev, details) {
    var l = listeners[ev];
    if (l) for (var i = 0; i < l.length; i++) l[i](details);
  }
  function info(up, gw) {
    return { ip: up ? IP : "0.0.0.0", netmask: up ? "255.255.255.0" : "0.0.0.0", gw: up ? gw : "0.0.0.0", mac: LAUNCH.mac };
  }
  function answer(cb, a, b) {
    if (cb) setTimeout(function () { cb(a, b); }, 0);
  }
  return {
    getIP: function (cb) { var r = info(!!joined, IP); answer(cb, null, r); return r; },
    getAPIP: function (cb) { var r = info(!!ap, IP); answer(cb, null, r); return r; },
    getDetails: function (cb) {
      var d = joined ? { status: "connected", rssi: -52, ssid: joined, mac: LAUNCH.mac } : { status: "off" };
      if (cb) setTimeout(function () { cb(d); }, 0);
      return d;
    },
    getStatus: function () { return { station: joined ? "connected" : "off", ap: ap ? "enabled" : "disabled" }; },
    connect: function (ssid, opts, cb) {
      // The network answers whatever SSID and password it is given.
      setTimeout(function () {
        if (!ssid) { if (cb) cb("no AP found"); return; }
        joined = ssid;
        emit("connected", { ssid: ssid, ip: IP, mac: LAUNCH.mac });
        if (cb) cb(null);
      }, 20);
    },
    disconnect: function (cb) {
      joined = null;
      emit("disconnected", { reason: "disconnected" });
      answer(cb);
    },
    startAP: function (ssid, opts, cb) { ap = ssid; answer(cb, null); },
    stopAP: function (cb) { ap = null; answer(cb); },
    scan: function (cb) {
      setTimeout(function () {
        cb([{ ssid: LAUNCH.ssid || "pixloop-sim", rssi: -52, authMode: "wpa2", channel: 6, mac: "00:00:00:00:00:00" }]);
      }, 200);
    },
    setHostname: function (name, cb) { hostname = name; answer(cb); },
    getHostname: function (cb) { answer(cb, hostname); return hostname; },
    on: function (ev, fn) { (listeners[ev] = listeners[ev] || []).push(fn); }
  };
})();

STANDIN.neopixel = (function () {
  var frame = null;
  var count = 0;
  return {
    // Keeps the newest frame in one buffer that is reused, so frames do not churn memory.
    write: function (pin, data) {
      if (!frame || frame.length !== data.length) frame = new Uint8Array(data.length);
      frame.set(data);
      count++;
    },
    lastFrame: function () { return frame; },
    frames: function () { return count; }
  };
})();

STANDIN.ESP32 = {
  deepSleep: function (us) {
    print(LOG + "sleep " + Math.round(us / 1000));
    quit();
  },
  getState: function () {
    var m = process.memory(false);
    return { sdkVersion: "linux stand-in", freeHeap: m.free * m.blocksize, BLE: false, Wifi: true, minHeap: m.free * m.blocksize };
  }
};

// http: the built-in module, except that servers listen on LAUNCH.port (the firmware asks for
// 80 in setup mode, which needs root here, and for webPort otherwise). With the timing hook on,
// the time from the request callback to res.end() is recorded.
var TIMING = { on: false, ms: null, n: 0 };

var REAL_HTTP = require("http");

STANDIN.http = (function () {
  var real = REAL_HTTP;
  function timed(handler) {
    return function (req, res) {
      if (!TIMING.on) return handler(req, res);
      var t0 = getTime();
      var end = res.end;
      res.end = function (data) {
        var r = data === undefined ? end.call(res) : end.call(res, data);
        if (TIMING.n < TIMING.ms.length) TIMING.ms[TIMING.n++] = (getTime() - t0) * 1000;
        return r;
      };
      return handler(req, res);
    };
  }
  return {
    createServer: function (handler) {
      var server = real.createServer(timed(handler));
      var listen = server.listen;
      server.listen = function (port) {
        print(LOG + "listening " + LAUNCH.port + " (asked " + port + ")");
        return listen.call(server, LAUNCH.port);
      };
      return server;
    },
    request: function (options, cb) { return real.request(options, cb); },
    get: function (options, cb) { return real.get(options, cb); }
  };
})();

// require() looks in the module cache before the built-in modules (jswrap_modules.c), so a
// cached "http" replaces the built-in one for the firmware.
Modules.addCached("Wifi", "module.exports = STANDIN.Wifi;");
Modules.addCached("neopixel", "module.exports = STANDIN.neopixel;");
Modules.addCached("ESP32", "module.exports = STANDIN.ESP32;");
Modules.addCached("http", "module.exports = STANDIN.http;");

// Unlike the chip's restart, quit() returns: the interpreter ends once the running callback
// returns, and the Node side starts it again.
E.reboot = function () {
  print(LOG + "reboot");
  quit();
};

// ---- Benchmark hook: a second server, only when asked for -----------------------------------

// bytes of the bundle; usage before and after its evaluation (after a garbage collection); and
// the variables its source text held while it ran (on the device: none, it stays in flash).
var LOADED = { bytes: 0, before: 0, after: 0, source: 0 };

// Usage is measured (with a garbage collection) right before the listing, and printed with it.
function dumpVariables(label) {
  var usage = process.memory().usage;
  print(LOG + "dump begin " + label + " " + usage);
  E.dumpVariables();
  print(LOG + "dump end " + label);
  return usage;
}

if (LAUNCH.debugPort) {
  REAL_HTTP.createServer(function (req, res) {
    var path = req.url.split("?")[0];
    var out;
    if (path === "/mem") {
      var m = process.memory();
      out = { usage: m.usage, free: m.free, total: m.total, loaded: LOADED };
    } else if (path === "/dump") {
      out = { usage: dumpVariables(req.url.split("label=")[1] || "now") };
    } else if (path === "/timing/start") {
      var n = parseInt(req.url.split("n=")[1], 10) || 1000;
      if (!TIMING.ms || TIMING.ms.length !== n) TIMING.ms = new Float32Array(n);
      TIMING.n = 0;
      TIMING.on = true;
      out = { n: n };
    } else if (path === "/timing") {
      TIMING.on = false;
      var list = [];
      for (var i = 0; i < TIMING.n; i++) list.push(Math.round(TIMING.ms[i] * 1000) / 1000);
      out = { ms: list };
    } else if (path === "/frame") {
      var f = STANDIN.neopixel.lastFrame();
      out = { frames: STANDIN.neopixel.frames(), last: f ? btoa(E.toString(f)) : null };
    } else {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("unknown");
      return;
    }
    var body = JSON.stringify(out);
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "" + body.length });
    res.end(body);
  }).listen(LAUNCH.debugPort);
}

// ---- Not outliving the Node side ----------------------------------------------------------

// With its stdin at end of file (the process that held the pipe has died) the interpreter spins
// for ever, so it ends itself once its parent is no longer the process that started it
// (LAUNCH.parent, or the parent it had at start).
function parentPid() {
  var f = E.openFile("/proc/self/stat", "r");
  var stat = f.read(160);
  f.close();
  // "<pid> (<name>) <state> <ppid> ..."
  return stat ? parseInt(stat.substr(stat.lastIndexOf(")") + 2).split(" ")[1], 10) : 0;
}

var PARENT = LAUNCH.parent || parentPid();
setInterval(function () {
  if (parentPid() !== PARENT) {
    print(LOG + "parent gone");
    quit();
  }
}, 3000);

// ---- The bundle -------------------------------------------------------------------------------

// esbuild wraps the bundle in an arrow function called at once: `<prelude>(()=>{<body>})();`.
// The device evaluates it straight from flash. Here the text is a copy in RAM, and evaluating it
// whole would hold two copies while the body runs: the source, and the arrow function's own copy
// of its code. So the body is read on its own and made into a function with `new Function`,
// which keeps that very string as its code, and the source is not held beside it: one copy, and
// more room left for the firmware. The body then runs as on the device: a function called once,
// whose scope (its top-level declarations) the closures it creates keep, directly below the root.
// The prelude is evaluated at the root scope, as on the device (code evaluated inside a function
// would put that function's scope into the scope chain of everything it defines: about 3
// variables more per function, measured). A bundle of another shape is evaluated whole.
//
// All of this runs from a timer, once this file's own source (which the interpreter holds while
// it evaluates the file) is gone, so the figures are the bundle's alone; the timer's callback is
// a string, which runs at the root scope. If the bundle throws, the interpreter prints
// "Uncaught ..." and the "loaded" line never comes.
var BOOT_PRELUDE;
var BOOT_BODY;
// launch.json's `chunks` (see bundleChunks in test/espruino/launch.ts): the bundle is evaluated
// piece by piece at the root scope, so that only one piece of its text is held beside the
// function code the Linux build copies out of it.
var BOOT_CHUNKED = false;
var BOOT_I = 0;

function storedSize(name) {
  // Storage has no size query; a read past the end comes back empty.
  var lo = 0;
  var hi = 1 << 20;
  while (lo < hi) {
    var mid = (lo + hi + 1) >> 1;
    if (require("Storage").read(name, mid - 1, 1)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function bootBegin() {
  LOADED.before = LAUNCH.dumpAtLoad ? dumpVariables("before") : process.memory().usage;
  var Storage = require("Storage");
  var size = storedSize(".bootcde");
  LOADED.bytes = size;
  BOOT_PRELUDE = "";
  BOOT_BODY = undefined;
  BOOT_CHUNKED = false;
  if (!size) {
    print(LOG + "boot failed: no .bootcde in Storage");
    return;
  }
  if (LAUNCH.chunks && LAUNCH.chunks.length) {
    BOOT_CHUNKED = true;
    return;
  }
  var OPEN = "(()=>{";
  var CLOSE = "})();";
  var head = Storage.read(".bootcde", 0, Math.min(size, 512));
  var start = head.indexOf(OPEN);
  var tailAt = Math.max(0, size - 64);
  var tail = Storage.read(".bootcde", tailAt, size - tailAt);
  var end = tail.lastIndexOf(CLOSE);
  if (start < 0 || end < 0 || tail.substr(end + CLOSE.length).trim() !== "" || tailAt + end <= start + OPEN.length) {
    BOOT_PRELUDE = Storage.read(".bootcde");
    LOADED.source = E.getSizeOf(BOOT_PRELUDE);
    return;
  }
  BOOT_PRELUDE = head.substr(0, start);
  BOOT_BODY = Storage.read(".bootcde", start + OPEN.length, tailAt + end - start - OPEN.length);
  LOADED.source = E.getSizeOf(BOOT_BODY);
}

function bootRun() {
  BOOT_PRELUDE = undefined;
  if (BOOT_BODY === undefined) return;
  var body = new Function(BOOT_BODY);
  BOOT_BODY = undefined;
  body();
}

function bootEnd() {
  LOADED.after = process.memory().usage;
  print(LOG + "loaded " + LOADED.bytes + " bytes, usage before " + LOADED.before + " after " + LOADED.after +
    ", source held while running " + LOADED.source);
  if (LAUNCH.dumpAtLoad) dumpVariables("loaded");
}

setTimeout("bootBegin();if(BOOT_CHUNKED){for(BOOT_I=0;BOOT_I<LAUNCH.chunks.length;BOOT_I++)" +
  "eval(require('Storage').read('.bootcde',LAUNCH.chunks[BOOT_I][0],LAUNCH.chunks[BOOT_I][1]));}" +
  "else{eval(BOOT_PRELUDE);bootRun();}bootEnd();", 1);
