// Flashes a pixloop device run in Espruino's Linux build: `espruino flash-storage.js`, run in the
// device's directory (its Storage is ./espruino.flash there), writes into Storage what flashing a
// clock writes, then ends. Plain ES5. It reads ./launch.json:
//
//   bundle   path of dist/<board>.js, written as ".bootcde" (or, with `boot`, as <slot>main.js)
//   storage  path of dist/storage: each file there is written under its own name (behind `slot`)
//   boot0    path of scripts/espruino/boot0.js (the stand-ins), written as ".boot0"
//   boot     path of dist/boot.js, the boot stage: written as ".bootcde" and the firmware goes
//            into the slot `slot` ("a/"), as `npm run flash` lays it out (firmware/update/README.md):
//            the slot record and the other slot's files are erased, so that this slot runs
//
// A file whose stored copy is already the same is left alone. Prints
// "[flash] done <written> of <files> files written" at the end.
var L = JSON.parse(require("fs").readFileSync("launch.json"));
var Storage = require("Storage");

// true when the file at `path` had to be written.
function copy(path, name) {
  var CHUNK = 2048;
  var size = require("fs").statSync(path).size;
  // "" when a file of at least `size` bytes exists under `name`, so the tail must be absent too.
  var same = Storage.read(name, size, 1) === "";
  var f = E.openFile(path, "r");
  var off = 0;
  var chunk;
  while (same && off < size) {
    chunk = f.read(CHUNK);
    if (!chunk) break;
    if (Storage.read(name, off, chunk.length) !== chunk) same = false;
    off += chunk.length;
  }
  f.close();
  if (same && off === size) return false;
  Storage.erase(name);
  f = E.openFile(path, "r");
  off = 0;
  while (off < size) {
    chunk = f.read(CHUNK);
    if (!chunk) break;
    Storage.write(name, chunk, off, size);
    off += chunk.length;
  }
  f.close();
  return true;
}

var files = 0;
var written = 0;
function flash(path, name) {
  files++;
  if (copy(path, name)) written++;
}

var slot = L.boot ? L.slot || "a/" : "";
// First, so that on a fresh Storage it is its first file: compaction (which the boot stage does)
// moves only what lies after an erased file, and functions of the stand-ins run from this file.
if (L.boot0) flash(L.boot0, ".boot0");
if (L.boot) {
  Storage.erase(".slots.0");
  Storage.erase(".slots.1");
  var other = Storage.list(new RegExp("^" + (slot === "a/" ? "b" : "a") + "/"));
  for (var o = 0; o < other.length; o++) Storage.erase(other[o]);
  flash(L.bundle, slot + "main.js");
} else {
  flash(L.bundle, ".bootcde");
}
if (L.storage) {
  var names = require("fs").readdirSync(L.storage);
  for (var i = 0; i < names.length; i++) {
    if (names[i] !== "." && names[i] !== "..") flash(L.storage + "/" + names[i], slot + names[i]);
  }
}
// Last: until the boot stage is there, nothing of a half-written slot starts.
if (L.boot) flash(L.boot, ".bootcde");
print("[flash] done " + written + " of " + files + " files written");
