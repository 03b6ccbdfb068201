// The module loader in the real interpreter ($ESPRUINO): a module evaluated from Storage gives its
// value, costs memory only while it is referenced, and a missing or broken one throws an error
// that names it, after which the interpreter carries on.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runInEspruino } from "../espruino/script";

const bin = process.env.ESPRUINO;
const MARK = "[modules] ";

const FILES = {
  // What the build writes: one expression whose value is the default export.
  "m.demo.counter": "(()=>{function next(n){return n+1}function twice(n){return 2*n}return{next:next,twice:twice}})()",
  "m.demo.broken": "(()=>{function half(n){return n/2",
};

const PROGRAM = `
  import { loadModule } from "./firmware/platform/modules";
  type Counter = { next(n: number): number; twice(n: number): number };
  const out = (s: string) => print("${MARK}" + s);
  let m: Counter | null = loadModule<Counter>("demo/counter");
  // What the first load leaves for good (the Storage module object) is not the module's.
  m = null;
  const base = process.memory().usage;
  m = loadModule<Counter>("demo/counter");
  out("value " + m.next(41) + " " + m.twice(21));
  out("loaded " + (process.memory().usage - base));
  m = null;
  out("released " + (process.memory().usage - base));
  for (const id of ["demo/missing", "demo/broken"]) {
    try {
      loadModule(id);
      out("no error for " + id);
    } catch (e) {
      out("error " + (e as Error).message);
    }
  }
  out("alive");
`;

test("load, release, missing and broken modules", () => {
  if (!bin) {
    console.log("  skipped: set ESPRUINO to run the module loader in the real interpreter");
    return;
  }
  const lines = runInEspruino(bin, PROGRAM, FILES).filter((l) => l.startsWith(MARK)).map((l) => l.slice(MARK.length));
  assert.is(lines[0], "value 42 42");
  const loaded = +lines[1].split(" ")[1];
  const released = +lines[2].split(" ")[1];
  // Two functions and their object: a few variables each while referenced, nothing once dropped
  // (the names out, m and the loop's own variables excepted).
  assert.ok(loaded >= 6 && loaded <= 80, lines[1]);
  assert.ok(released <= 4, lines[2]);
  assert.is(lines[3], "error module demo/missing is missing");
  assert.is(lines[4], "error module demo/broken did not load");
  assert.is(lines[5], "alive");
});

test.run();
