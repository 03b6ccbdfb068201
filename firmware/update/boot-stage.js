// pixloop's boot stage, stored as ".bootcde": Espruino runs it at every start, after its own
// hooks .boot0 to .boot3. It decides which of the two sets of firmware files runs, and starts it.
// `npm run flash` writes it; an update never does, so whatever an update leaves behind, this file
// is there to choose a firmware that works. The whole scheme is in firmware/update/README.md:
//
//   Every firmware file <name> lives in Storage as "<slot>/<name>", slot a or b ("a/main.js" is
//   the bundle, "b/m.system.put" a module). The record ".slots.0"/".slots.1" (two copies, the
//   newest that checks out wins) names the slot that runs (`run`) and the slot that last proved
//   itself (`good`). While they differ the release in `run` is on trial: each start counts a try
//   here before it runs; the release confirms itself after `wait` ms with the display ticking and
//   HTTP answering (update/watch), and a release that has not done so after three tries is left
//   for `good`. At a start with no release on trial, the other slot is emptied and Storage
//   compacted when it needs to be, before anything runs from it, and the clock restarted.
//
// Plain ES5 for Espruino: no helpers of the firmware are loaded yet. The build stores this file
// behind a one-line loader that evaluates a copy of it in RAM (build/package.mjs): compacting moves
// files, and code still running from a moved file breaks (measured in Espruino 2v29). It leaves
// PIXLOOP_SLOT (the Storage prefix every firmware file is read under, platform/slot.ts) and
// PIXLOOP_DUE (the restart timer of a release on trial, which it clears once it has confirmed;
// while the choice is made, -1 asks for the compaction).
var PIXLOOP_DUE = 0;
var PIXLOOP_SLOT = (function (S) {
  var TRIES = 3;
  var WAIT_MS = 60000;
  // Erased files take Storage until it is compacted; this much of them, or any when the free
  // space would not take another release, is compacted away here.
  var TRASH_MAX = 65536;
  function load(i) {
    var raw = S.read(".slots." + i);
    if (!raw) return null;
    var a = raw.indexOf(" ");
    var b = a < 0 ? -1 : raw.indexOf(" ", a + 1);
    if (b < 0) return null;
    var body = raw.substr(b + 1);
    if (E.CRC32(body) !== parseInt(raw.substr(a + 1, b - a - 1), 10)) return null;
    try {
      var v = JSON.parse(body);
      if ((v.run !== "a" && v.run !== "b") || (v.good !== "a" && v.good !== "b")) return null;
      return { seq: parseInt(raw.substr(0, a), 10), copy: i, v: v };
    } catch (e) {
      return null;
    }
  }
  function has(slot) {
    return !!S.read(slot + "/main.js", 0, 1);
  }
  function files(slot) {
    return S.list(new RegExp("^" + slot + "/"));
  }
  var c0 = load(0);
  var c1 = load(1);
  // The copy written last; the first write goes to .slots.0.
  var rec = c0 && c1 ? (c0.seq >= c1.seq ? c0 : c1) : c0 || c1 || { seq: 0, copy: 1, v: null };
  var v = rec.v || { run: "a", good: "a", tries: 0, last: "idle", release: "", error: "", wait: 0 };
  // Into the copy that is not the newest: cut short, it fails its check and the newest stands.
  function save() {
    var body = JSON.stringify(v);
    try {
      return S.write(".slots." + (1 - rec.copy), (rec.seq + 1) + " " + E.CRC32(body) + " " + body);
    } catch (e) {
      return false;
    }
  }
  var run = v.run;
  if (v.run !== v.good) {
    if (v.tries >= TRIES || !has(v.run)) {
      print("pixloop: release " + v.release + " did not prove itself in " + v.tries + " starts; back to the release before it");
      v.error = "release " + v.release + " did not come up properly " + v.tries + " times in a row; the release before it runs again";
      v.last = "failed";
      v.run = v.good;
      v.tries = 0;
      save();
      run = v.good;
    } else {
      v.tries++;
      // A try that cannot be counted is not taken: the release that proved itself runs instead.
      if (save()) {
        print("pixloop: release " + v.release + " on trial, start " + v.tries + " of " + TRIES);
        PIXLOOP_DUE = 2 * (v.wait > 0 ? v.wait : WAIT_MS);
      } else {
        run = v.good;
      }
    }
  }
  if (!has(run)) run = run === "a" ? "b" : "a";
  if (!PIXLOOP_DUE) {
    // Nothing to go back to: what the other slot holds (the release before a confirmed one, a
    // release taken back, an update cut off) is erased.
    var stale = files(run === "a" ? "b" : "a");
    for (var i = 0; i < stale.length; i++) S.erase(stale[i]);
    var st = S.getStats ? S.getStats() : null;
    if (st && st.trashBytes > 0) {
      var size = 0;
      var mine = files(run);
      for (var k = 0; k < mine.length; k++) size += S.read(mine[k]).length;
      if (st.trashBytes >= TRASH_MAX || st.freeBytes < size) PIXLOOP_DUE = -1;
    }
  }
  return run + "/";
})(require("Storage"));
if (PIXLOOP_DUE < 0) {
  PIXLOOP_DUE = 0;
  print("pixloop: compacting Storage before the firmware starts");
  require("Storage").compact();
  // A fresh start on the compacted Storage: whatever ran before this from Storage (the boot
  // hooks) may have moved too. The restart comes once the boot is over (hooks may stand in for it
  // with what only exists then); one of the hooks' own that moved breaks when called, and load()
  // then starts over from the hooks without it. Should the compaction have freed nothing, the
  // firmware starts as it is rather than over and over.
  if (require("Storage").getStats().trashBytes === 0) {
    PIXLOOP_SLOT = "";
    setTimeout(function () {
      try {
        E.reboot();
      } catch (e) {
        load();
      }
    }, 0);
  }
}
if (PIXLOOP_SLOT !== "") {
  if (PIXLOOP_DUE) {
    // A release that hangs without returning to the idle loop restarts too (ESP32).
    if (typeof E.enableWatchdog === "function") E.enableWatchdog(30);
    PIXLOOP_DUE = setTimeout(function () {
      print("pixloop: the release on trial has not confirmed itself; restarting");
      E.reboot();
    }, PIXLOOP_DUE);
  }
  if (require("Storage").read(PIXLOOP_SLOT + "main.js", 0, 1)) {
    try {
      eval(require("Storage").read(PIXLOOP_SLOT + "main.js"));
    } catch (e) {
      print("pixloop: the firmware in slot " + PIXLOOP_SLOT + " failed as it started: " + e);
    }
  } else {
    print("pixloop: no firmware in Storage (run npm run flash)");
  }
}
