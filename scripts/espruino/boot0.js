// .boot0 of a pixloop device run in Espruino's Linux build: stands in for what that build lacks.
//
// Flashed into Storage as ".boot0" (scripts/espruino/flash-storage.js), it is evaluated from
// Storage by the interpreter's own boot, right before ".bootcde" (the firmware), as on the clock.
// Plain ES5. It reads ./launch.json from the current directory, which is also where Storage
// (./espruino.flash) lives:
//
//   port       every server the firmware opens listens here, whatever port it asks for
//              (absent: the port it asks for)
//   debugPort  0, or the port of the benchmark hook below
//   mac        the station MAC the Wifi stand-in reports
//   ssid       the network name scans find (default "pixloop-sim")
//   dumpAtLoad true: E.dumpVariables() at the end of this file and right after .bootcde ran
//   parent     process id whose end ends the interpreter (default: its parent at start)
//
// Lines printed for whoever started the interpreter:
//
//   [launcher] listening <port> (asked <port>)
//   [launcher] loaded <usage>          once .bootcde has been evaluated (usage after a GC)
//   [launcher] reboot                  E.reboot(): the interpreter ends; start it again
//   [launcher] sleep <ms>              deep sleep: the interpreter ends; start it again later
//   [launcher] parent gone
//   [launcher] dump begin <label> <usage> ... [launcher] dump end <label>
//
// Everything lives in the one global STANDIN; its `usage` (taken after a garbage collection at
// the very end of this file) is the stand-ins' share of memory, which the firmware does not own.
//
// The interpreter runs the .boot files also when it is given a script file to run (as the
// flashing step is), but then not .bootcde: no device boots, so the stand-ins stay out.
var STANDIN = (function () {
  var scriptRun = (function () {
    var f = E.openFile("/proc/self/cmdline", "r");
    var args = (f.read(4096) || "").split("\0");
    f.close();
    for (var a = 1; a < args.length; a++) {
      if (args[a] === "-e" || args[a] === "--eval") a++;
      else if (args[a] && args[a].charAt(0) !== "-") return true;
    }
    return false;
  })();
  if (scriptRun) return undefined;
  var L = JSON.parse(require("fs").readFileSync("launch.json"));
  // What flashing needed is not kept.
  delete L.bundle;
  delete L.storage;
  delete L.boot0;
  var LOG = "[launcher] ";
  var realHttp = require("http");
  var S = { usage: 0 };
  var timing = null;

  function dump(label) {
    var usage = process.memory().usage;
    print(LOG + "dump begin " + label + " " + usage);
    E.dumpVariables();
    print(LOG + "dump end " + label);
    return usage;
  }
  S.dump = dump;

  // Wifi: a station that joins whatever network it is given, at 127.0.0.1; an access point there
  // too. (Its state lives in this one scope: a scope of its own would cost every function more.)
  var IP = "127.0.0.1";
  var joined = null;
  var ap = null;
  var hostname = "";
  var scanning = false;
  var on = {};
  function later(cb, a, b) {
    if (cb) setTimeout(function () { cb(a, b); }, 0);
  }
  function info(up) {
    return { ip: up ? IP : "0.0.0.0", netmask: up ? "255.255.255.0" : "0.0.0.0", gw: up ? IP : "0.0.0.0", mac: L.mac };
  }
  function emit(ev, d) {
    var l = on[ev] || [];
    for (var i = 0; i < l.length; i++) l[i](d);
  }
  S.Wifi = {
    getIP: function (cb) { var r = info(joined); later(cb, null, r); return r; },
    getAPIP: function (cb) { var r = info(ap); later(cb, null, r); return r; },
    getDetails: function (cb) {
      var d = joined ? { status: "connected", rssi: -52, ssid: joined, mac: L.mac } : { status: "off" };
      later(cb, d);
      return d;
    },
    getStatus: function () { return { station: joined ? "connected" : "off", ap: ap ? "enabled" : "disabled" }; },
    connect: function (ssid, opts, cb) {
      setTimeout(function () {
        if (!ssid) { if (cb) cb("no AP found"); return; }
        joined = ssid;
        emit("connected", { ssid: ssid, ip: IP, mac: L.mac });
        if (cb) cb(null);
      }, 20);
    },
    disconnect: function (cb) {
      joined = null;
      emit("disconnected", { reason: "disconnected" });
      later(cb);
    },
    startAP: function (ssid, opts, cb) { ap = ssid; later(cb, null); },
    stopAP: function (cb) { ap = null; later(cb); },
    // As on the ESP32: a second scan while one runs throws, and the channel is a string.
    scan: function (cb) {
      if (scanning) throw new Error("A scan is already in progress");
      scanning = true;
      setTimeout(function () {
        scanning = false;
        cb([{ rssi: -52, authMode: "wpa2", ssid: L.ssid || "pixloop-sim", mac: "00:00:00:00:00:00", channel: "6" }]);
      }, 200);
    },
    setHostname: function (name, cb) { hostname = name; later(cb); },
    getHostname: function (cb) { later(cb, hostname); return hostname; },
    on: function (ev, fn) { (on[ev] = on[ev] || []).push(fn); }
  };

  // neopixel: keeps the newest frame, in one buffer reused from frame to frame, and the gaps
  // between frames for /gaps. A gap is also taken less the time the interpreter was kept waiting
  // for a processor by other processes meanwhile (the clock runs alone). [last write, the wait
  // until then, longest gap, longest less the wait (all s), gaps over 50 ms] in a typed array:
  // a float kept in a plain variable would cost the firmware's share a variable more.
  var frame = null;
  var frames = 0;
  var gaps = new Float64Array(5);
  function waited() {
    try {
      var f = E.openFile("/proc/self/schedstat", "r");
      var s = f.read(64);
      f.close();
      return parseInt(s.split(" ")[1], 10) / 1e9 || 0;
    } catch (e) {
      return 0;
    }
  }
  S.neopixel = {
    write: function (pin, data) {
      if (!frame || frame.length !== data.length) frame = new Uint8Array(data.length);
      frame.set(data);
      frames++;
      var now = getTime();
      var wait = waited();
      if (gaps[0]) {
        if (now - gaps[0] > gaps[2]) gaps[2] = now - gaps[0];
        if (now - gaps[0] - (wait - gaps[1]) > gaps[3]) gaps[3] = now - gaps[0] - (wait - gaps[1]);
        if (now - gaps[0] > 0.05) gaps[4]++;
      }
      gaps[0] = now;
      gaps[1] = wait;
    }
  };

  // ESP32: deep sleep ends the interpreter.
  S.ESP32 = {
    deepSleep: function (us) {
      print(LOG + "sleep " + Math.round(us / 1000));
      quit();
    },
    getState: function () {
      var m = process.memory(false);
      return { sdkVersion: "linux stand-in", freeHeap: m.free * m.blocksize, BLE: false, Wifi: true, minHeap: m.free * m.blocksize };
    }
  };

  // http: the built-in module, except that servers listen on L.port (the firmware asks for 80 in
  // setup mode, which needs root here). With the timing hook on, the time from the request
  // callback to res.end() is recorded, and the usage as the answer is handed over, after a
  // garbage collection (a module's functions form cycles that only a collection frees): the
  // request, its body, what the handler built and the answer are all alive then.
  //
  // All of it is made here, before the stand-ins' share is read: the firmware's one server gets
  // the firmware's handler through S.handler and its listen() from the class, so that the server
  // holds nothing of the stand-ins' (a closure per server would be counted as the firmware's).
  var realListen = realHttp.createServer(function () {}).listen;
  S.handler = null;
  function onRequest(req, res) {
    var handler = S.handler;
    if (!timing) return handler(req, res);
    var t0 = getTime();
    var end = res.end;
    res.end = function (data) {
      // The collection's own time is left out of the request's.
      var gc = getTime();
      if (timing && timing.n < timing.ms.length) timing.peak[timing.n] = process.memory().usage;
      gc = getTime() - gc;
      var r = data === undefined ? end.call(res) : end.call(res, data);
      if (timing && timing.n < timing.ms.length) timing.ms[timing.n++] = (getTime() - t0 - gc) * 1000;
      return r;
    };
    return handler(req, res);
  }
  httpSrv.prototype.listen = function (port) {
    var p = L.port || port;
    print(LOG + "listening " + p + " (asked " + port + ")");
    return realListen.call(this, p);
  };
  S.http = {
    createServer: function (handler) {
      if (S.handler) throw new Error("the stand-in serves one server");
      S.handler = handler;
      return realHttp.createServer(onRequest);
    },
    request: function (options, cb) { return realHttp.request(options, cb); },
    get: function (options, cb) { return realHttp.get(options, cb); }
  };

  // A quiet reading for the benchmark hook: armed by /mem/quiet, taken by this interval (made
  // here, so its own share is the stand-ins') once the hook's request has been answered and its
  // connection is gone, so that no request of the hook is alive in the figure. quiet[0] is when
  // to read (0: not armed), quiet[1] the reading (-1 until taken).
  var quiet = new Float64Array([0, -1]);
  if (L.debugPort) setInterval(function () {
    if (quiet[0] && getTime() >= quiet[0]) {
      quiet[0] = 0;
      quiet[1] = process.memory().usage;
    }
  }, 20);

  // The benchmark hook: a second server, only when asked for.
  if (L.debugPort) {
    var hook = realHttp.createServer(function (req, res) {
      var path = req.url.split("?")[0];
      var arg = req.url.split("=")[1];
      var out;
      if (path === "/mem") {
        var m = process.memory();
        out = { usage: m.usage, free: m.free, total: m.total, standins: S.usage };
      } else if (path === "/mem/quiet") {
        quiet[1] = -1;
        quiet[0] = getTime() + 0.03;
        out = { armed: true };
      } else if (path === "/mem/quiet/read") {
        out = { usage: quiet[1], standins: S.usage };
      } else if (path === "/dump") {
        out = { usage: dump(arg || "now") };
      } else if (path === "/timing/start") {
        var n = parseInt(arg, 10) || 1000;
        timing = { n: 0, ms: new Float32Array(n), peak: new Uint16Array(n) };
        out = { n: n };
      } else if (path === "/timing") {
        var list = [];
        var peak = [];
        for (var i = 0; timing && i < timing.n; i++) {
          list.push(Math.round(timing.ms[i] * 1000) / 1000);
          peak.push(timing.peak[i]);
        }
        timing = null;
        out = { ms: list, peak: peak };
      } else if (path === "/frame") {
        out = { frames: frames, last: frame ? btoa(E.toString(frame)) : null };
      } else if (path === "/gaps") {
        // Since the previous /gaps: starts a new window.
        out = { frames: frames, maxMs: Math.round(gaps[2] * 1e4) / 10, ownMs: Math.round(gaps[3] * 1e4) / 10, over50: gaps[4] };
        gaps[2] = 0;
        gaps[3] = 0;
        gaps[4] = 0;
      } else {
        res.writeHead(404, { "Content-Type": "text/plain" });
        res.end("unknown");
        return;
      }
      var body = JSON.stringify(out);
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "" + body.length });
      res.end(body);
    });
    realListen.call(hook, L.debugPort);
  }

  // Not outliving whoever started the interpreter: once stdin is at its end the REPL spins for
  // ever, so the interpreter ends itself when its parent is no longer the process that started it.
  function parentPid() {
    var f = E.openFile("/proc/self/stat", "r");
    var stat = f.read(160);
    f.close();
    // "<pid> (<name>) <state> <ppid> ..."
    return stat ? parseInt(stat.substr(stat.lastIndexOf(")") + 2).split(" ")[1], 10) : 0;
  }
  var parent = L.parent || parentPid();
  setInterval(function () {
    if (parentPid() !== parent) {
      print(LOG + "parent gone");
      quit();
    }
  }, 3000);

  // E.reboot(): unlike the chip's restart, quit() returns, and the interpreter ends once the
  // running callback has returned; whoever started it starts it again.
  E.reboot = function () {
    print(LOG + "reboot");
    quit();
  };

  // Once .bootcde has been evaluated (timers run only after the boot files).
  S.loaded = function () {
    print(LOG + "loaded " + (L.dumpAtLoad ? dump("loaded") : process.memory().usage));
  };
  S.dumpAtLoad = L.dumpAtLoad;
  return S;
})();

if (STANDIN) {
  // require() looks in the module cache before the built-in modules, so a cached "http"
  // replaces the built-in one for the firmware.
  Modules.addCached("Wifi", "module.exports=STANDIN.Wifi");
  Modules.addCached("neopixel", "module.exports=STANDIN.neopixel");
  Modules.addCached("ESP32", "module.exports=STANDIN.ESP32");
  Modules.addCached("http", "module.exports=STANDIN.http");
  STANDIN.usage = STANDIN.dumpAtLoad ? STANDIN.dump("before") : process.memory().usage;
  setTimeout(STANDIN.loaded, 0);
}
