// The log ring in the real interpreter ($ESPRUINO): the same lines as in Node after the ring has
// been filled over and over (its typed-array copies, searches and byte conversions are Espruino's
// own there), what the ring costs, and that logging leaves nothing behind however long it goes on.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { builtModule, runInEspruino, steadyGrowth } from "../espruino/script";
import { openLog } from "../../firmware/logs/ring";
import { keepLine } from "../../firmware/logs/keep";
import getLogs from "../../firmware/logs/get.mod";
import type { ApiRequest, Reply } from "../../firmware/http/types";
import type { App } from "../../firmware/app";

const bin = process.env.ESPRUINO;
const MARK = "[logs] ";

/** The lines both runs log: lengths from 1 to 150 bytes, UTF-8, a newline, numbers. */
const SEQUENCE = `
  (keep) => {
    for (let i = 1; i <= 90; i++) {
      let line = "event " + i + " ";
      for (let k = 0; k < (i * 37) % 150; k++) line += String.fromCharCode(97 + (k % 26));
      if (i % 7 === 0) line += "\\xC3\\xA9t\\xC3\\xA9";
      if (i % 11 === 0) line += "\\nsecond half";
      keep(line);
    }
  }
`;

const PROGRAM = `
  import { log } from "./firmware/logs/log";
  import { openLog } from "./firmware/logs/ring";
  import { keepLine } from "./firmware/logs/keep";
  import getLogs from "./firmware/logs/get.mod";
  import { toJson } from "./firmware/core/json";
  import type { ApiRequest, Reply } from "./firmware/http/types";
  import type { App } from "./firmware/app";
  const out = (s: string) => print("${MARK}" + s);
  // As the transport writes the answer: UTF-8 stays bytes.
  const read = (after: string) => toJson((getLogs({ query: { after } } as unknown as ApiRequest, {} as App) as Reply).json);
  const before = process.memory().usage;
  const ring = openLog();
  out("ring " + (process.memory().usage - before) + " " + E.getSizeOf(ring.text));
  const fill = ${SEQUENCE};
  fill((line: string) => keepLine(ring, line));
  out("all " + read("0"));
  out("after " + read("85"));
  // The number the line is about to get.
  ${steadyGrowth(MARK, "(n: number) => { for (let i = 0; i < n; i++) log(\"a steady event \" + i); }")}
  out("stamped " + read(String(ring.seq - 1)));
`;

function inNode(): { all: string; after: string } {
  const g = globalThis as unknown as { [k: string]: unknown };
  const saved = { E: g.E, getTime: g.getTime };
  g.getTime = () => Date.now() / 1000;
  g.E = Object.assign({}, saved.E || {}, {
    toArrayBuffer: (s: string) => {
      const b = Buffer.from(s, "latin1");
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
    },
    toString: (a: Uint8Array) => Buffer.from(a).toString("latin1"),
  });
  try {
    const ring = openLog();
    const fill = new Function("return (" + SEQUENCE + ")")() as (keep: (line: string) => void) => void;
    fill((line) => keepLine(ring, line));
    const read = (after: string) => JSON.stringify((getLogs({ query: { after } } as unknown as ApiRequest, {} as App) as Reply).json);
    return { all: read("0"), after: read("85") };
  } finally {
    delete (globalThis as { PIXLOOP_LOG?: unknown }).PIXLOOP_LOG;
    for (const k of ["E", "getTime"] as const) {
      if (saved[k] === undefined) delete g[k];
      else g[k] = saved[k];
    }
  }
}

test("the ring in Espruino: the same lines as in Node, a fixed cost, no growth", () => {
  if (!bin) {
    console.log("  skipped: set ESPRUINO to run the log ring in the real interpreter");
    return;
  }
  const lines = runInEspruino(bin, PROGRAM, builtModule("logs/keep")).filter((l) => l.startsWith(MARK)).map((l) => l.slice(MARK.length));
  const get = (key: string) => {
    const l = lines.find((x) => x.startsWith(key + " "));
    assert.ok(l !== undefined, key + " missing in: " + lines.join(" | "));
    return (l as string).slice(key.length + 1);
  };
  const expected = inNode();
  const all = JSON.parse(get("all"));
  // Filled several times over: the newest lines only, with their numbers.
  assert.is(all.next, 90);
  assert.ok(all.lines.length > 10 && all.lines.length < 34, "" + all.lines.length);
  assert.is(get("all"), expected.all);
  assert.is(get("after"), expected.after);
  assert.is(JSON.parse(get("after")).lines.length, 5);
  // The buffer (1024 bytes) and the ring's few fields, and nothing more however much is logged.
  const [usage, text] = get("ring").split(" ").map(Number);
  assert.ok(text >= 74 && text <= 80, "buffer " + text);
  assert.ok(usage <= text + 30, "opening the log took " + usage);
  assert.ok(+get("growth") <= 2, "growth " + get("growth"));
  const stamped = JSON.parse(get("stamped"));
  assert.is(stamped.lines.length, 1);
  assert.match(stamped.lines[0], /^\d\d:\d\d:\d\d a steady event 499$/);
});

test.run();
