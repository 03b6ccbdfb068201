// The log ring in Node: what log() keeps, what GET /api/v1/logs hands out of it, how lines are
// numbered and stamped, and what is dropped once it is full. The same ring in the real interpreter
// is logs-espruino.test.ts.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { log, logRing } from "../../firmware/logs/log";
import { openLog, LOG_BYTES } from "../../firmware/logs/ring";
import { keepLine, stampLine, LINE_MAX, LINES_MAX } from "../../firmware/logs/keep";
import getLogs from "../../firmware/logs/get.mod";
import type { ApiRequest, Reply } from "../../firmware/http/types";
import type { App } from "../../firmware/app";
import { newZone } from "../../firmware/time/tz";

const g = globalThis as unknown as { [k: string]: unknown };
const printed: string[] = [];
let clockMs = Date.UTC(2025, 5, 1, 10, 20, 30);
let saved: { [k: string]: unknown } = {};

// Installed only while these tests run: the other suites of this process have stand-ins of their own.
test.before(() => {
  saved = { E: g.E, print: g.print, getTime: g.getTime };
  g.print = (...a: unknown[]) => { printed.push(a.join(" ")); };
  g.getTime = () => clockMs / 1000;
  // Espruino's E as far as the log uses it: strings are 8-bit, a character per byte.
  g.E = Object.assign({}, saved.E || {}, {
    toArrayBuffer: (s: string) => {
      const b = Buffer.from(s, "latin1");
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
    },
    toString: (a: Uint8Array) => Buffer.from(a).toString("latin1"),
  });
});

test.after(() => {
  delete (globalThis as { PIXLOOP_LOG?: unknown }).PIXLOOP_LOG;
  for (const k of Object.keys(saved)) {
    if (saved[k] === undefined) delete g[k];
    else g[k] = saved[k];
  }
});

function read(after?: string): { next: number; lines: string[] } {
  const req = { query: after === undefined ? {} : { after } } as unknown as ApiRequest;
  const r = getLogs(req, {} as App) as Reply;
  assert.is(r.status, 200);
  return r.json as { next: number; lines: string[] };
}


test("before anything is logged: next 0, no lines; log() still prints without a ring", () => {
  delete (globalThis as { PIXLOOP_LOG?: unknown }).PIXLOOP_LOG;
  log("not kept");
  assert.equal(printed.pop(), "not kept");
  assert.is(logRing(), undefined);
  assert.equal(read(), { next: 0, lines: [] });
  openLog();
  assert.equal(read(), { next: 0, lines: [] });
});

test("a line is printed as it was and kept with the time; numbers count up from 1", () => {
  const ring = openLog();
  ring.zone = newZone("CET-1CEST,M3.5.0,M10.5.0/3");
  log("first event");
  assert.is(printed.pop(), "first event");
  clockMs += 61000;
  log("second event");
  // June: summer time, UTC+2.
  assert.equal(read(), { next: 2, lines: ["12:20:30 first event", "12:21:31 second event"] });
  assert.equal(read("1"), { next: 2, lines: ["12:21:31 second event"] });
  assert.equal(read("2"), { next: 2, lines: [] });
  assert.equal(read("99"), { next: 2, lines: [] });
  // Not a number: every line, as without the parameter.
  assert.equal(read("abc").lines.length, 2);
  assert.equal(read("-5").lines.length, 2);
});

test("before the clock is set a line carries the uptime in seconds", () => {
  const real = clockMs;
  clockMs = 5000;
  const ring = openLog();
  clockMs = 5000 + 123456;
  assert.is(stampLine(ring), "[   123s] ");
  log("booted");
  assert.equal(read().lines, ["[   123s] booted"]);
  clockMs = real;
  assert.match(stampLine(ring), /^\d\d:\d\d:\d\d $/);
});

test("one line per event: newlines inside a message become spaces; no zone yet is UTC", () => {
  openLog(256);
  log("Error: bad\n  at here\r\n  at there");
  assert.equal(read().lines, ["10:21:31 Error: bad   at here   at there"]);
});

// keepLine stores a line as given (no time), so that its bytes are exactly the text.
test("a long line is cut at LINE_MAX bytes, never through a UTF-8 character", () => {
  const ring = openLog(LOG_BYTES);
  keepLine(ring, "x".repeat(300));
  assert.is(read().lines[0], "x".repeat(LINE_MAX));
  // "é" is two bytes (C3 A9): placed so that the limit falls between them.
  keepLine(ring, "y".repeat(LINE_MAX - 1) + "\xC3\xA9" + "z".repeat(10));
  assert.is(read().lines[1], "y".repeat(LINE_MAX - 1));
  keepLine(ring, "y".repeat(LINE_MAX - 2) + "\xC3\xA9" + "z".repeat(10));
  assert.is(read().lines[2], "y".repeat(LINE_MAX - 2) + "\xC3\xA9");
});

test("when the bytes run out the oldest lines go, the numbers go on", () => {
  const ring = openLog(100);
  // 10 bytes a line with its newline: 10 fit.
  for (let i = 1; i <= 10; i++) keepLine(ring, "line " + String(i).padStart(4, "0"));
  assert.is(ring.used, 100);
  let r = read();
  assert.equal([r.next, r.lines.length, r.lines[0], r.lines[9]], [10, 10, "line 0001", "line 0010"]);
  keepLine(ring, "line 0011");
  r = read();
  assert.equal([r.next, r.lines.length, r.lines[0], r.lines[9]], [11, 10, "line 0002", "line 0011"]);
  // A longer line pushes out as many as it needs.
  keepLine(ring, "z".repeat(35));
  r = read();
  assert.equal([r.next, r.lines.length, r.lines[0], r.lines[r.lines.length - 1]], [12, 7, "line 0006", "z".repeat(35)]);
  assert.equal(read("10").lines, ["line 0011", "z".repeat(35)]);
  assert.is(ring.text.length, 100, "the buffer never grows");
});

test("at most LINES_MAX lines, however short", () => {
  const ring = openLog(LOG_BYTES);
  for (let i = 1; i <= LINES_MAX + 5; i++) keepLine(ring, "#" + i);
  const r = read();
  assert.is(r.next, LINES_MAX + 5);
  assert.is(r.lines.length, LINES_MAX);
  assert.is(r.lines[0], "#6");
  assert.is(r.lines[LINES_MAX - 1], "#" + (LINES_MAX + 5));
});

test("a line as long as the whole buffer replaces everything", () => {
  const ring = openLog(LINE_MAX + 1);
  keepLine(ring, "short");
  keepLine(ring, "w".repeat(LINE_MAX));
  assert.equal(read(), { next: 2, lines: ["w".repeat(LINE_MAX)] });
  keepLine(ring, "after");
  assert.equal(read(), { next: 3, lines: ["after"] });
});

test("without its module a line is printed only; a module that logs while it loads does not loop", () => {
  const hosts = g.PIXLOOP_HOST_MODULES as (id: string) => unknown;
  const ring = openLog();
  let loads = 0;
  try {
    g.PIXLOOP_HOST_MODULES = (id: string) => {
      if (id !== "logs/keep") return hosts(id);
      loads++;
      // As loadModule reports a module that throws while it evaluates.
      log("module logs/keep is broken");
      throw new Error("module logs/keep did not load");
    };
    log("lost event");
  } finally {
    g.PIXLOOP_HOST_MODULES = hosts;
  }
  assert.is(loads, 1);
  assert.equal(printed.slice(-2), ["lost event", "module logs/keep is broken"]);
  assert.equal([ring.seq, ring.used], [0, 0]);
  log("kept again");
  assert.equal(read().lines.length, 1);
});

test.run();
