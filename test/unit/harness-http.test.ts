// The simulator's `http` server raises the events Espruino's does, at the same moments (measured
// on the Linux build of 2v29 with a server that logs every event of every request).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as net from "node:net";
import { SimNetwork, espruinoInteger, parseHead } from "../harness/http";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Ev = { on(ev: string, fn: (...a: unknown[]) => void): void };
type Res = Ev & { writeHead(s: number, h?: object): void; write(d: string): void; end(d?: string): void };

interface Seen {
  events: string[];
  req: Ev & { method: string; url: string; headers: { [k: string]: string } };
  res: Res;
}

const t = suite("simulated http server");
const network = new SimNetwork();
let port = 0;
let requests: Seen[] = [];
/** What the firmware does with each request; by default it answers once the body has ended. */
let onRequest: (s: Seen) => void = () => undefined;

t.before(async () => {
  port = await network.listen(0);
  network.module().createServer((req, res) => {
    const s: Seen = { events: [], req: req as Seen["req"], res: res as Res };
    requests.push(s);
    let body = "";
    s.req.on("data", (d) => { body += d; s.events.push("data " + d); });
    s.req.on("end", () => s.events.push("end " + body.length));
    s.req.on("close", () => s.events.push("req close"));
    s.req.on("error", () => s.events.push("req error"));
    s.res.on("close", () => s.events.push("res close"));
    s.res.on("end", () => s.events.push("res end"));
    s.res.on("error", () => s.events.push("res error"));
    onRequest(s);
  }).listen(80);
});
t.after(async () => { await network.close(); });
t.before.each(() => {
  requests = [];
  onRequest = (s) => s.req.on("end", () => {
    s.res.writeHead(200, { "Content-Type": "text/plain", "Connection": "close" });
    s.res.end("ok");
  });
});

/** Sends `parts` with pauses, then ends the connection as asked; resolves with what came back. */
function client(parts: string[], ending: "reset" | "half-close" | "close" | "keep", waitMs = 100): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    let got = "";
    let done = false;
    const finish = () => { if (!done) { done = true; resolve(got); } };
    s.on("data", (d) => { got += d.toString("latin1"); });
    s.on("error", () => undefined);
    s.on("close", finish);
    s.on("connect", async () => {
      for (const p of parts) {
        s.write(p);
        await sleep(30);
      }
      await sleep(waitMs);
      if (ending === "keep") return;
      if (ending === "reset") s.resetAndDestroy();
      else if (ending === "half-close") {
        s.end();
        await sleep(waitMs);
        s.destroy();
      } else s.destroy();
      await sleep(30);
      finish();
    });
  });
}

const PUT = (headers: string) => "PUT /x HTTP/1.1\r\nHost: a\r\n" + headers + "\r\n";
const BODY = "{\"brightness\":18}";

t("a complete body: data, end, and close on both once the answer has left", async () => {
  const got = await client([PUT("Content-Length: 17\r\n"), BODY], "keep");
  assert.is(got, "HTTP/1.1 200 OK\r\nServer: Espruino 2v29\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nok");
  assert.equal(requests[0].events, ["data " + BODY, "end 17", "res end", "req close", "res close"]);
});

t("a body cut short raises nothing more, whatever the client does, and is not answered", async () => {
  for (const ending of ["reset", "half-close", "close"] as const) {
    requests = [];
    const got = await client([PUT("Content-Length: 1000\r\n"), BODY], ending);
    await sleep(50);
    assert.is(got, "", ending);
    assert.equal(requests[0].events, ["data " + BODY], ending);
  }
});

t("a half-closed connection stays open until the client drops it", async () => {
  let serverClosed = false;
  await new Promise<void>((resolve) => {
    const s = net.connect(port, "127.0.0.1", () => {
      s.write(PUT("Content-Length: 1000\r\n") + BODY);
      s.end();
    });
    s.on("end", () => { serverClosed = true; });
    setTimeout(() => { s.destroy(); resolve(); }, 300);
  });
  assert.not.ok(serverClosed, "the server never ends its side");
});

t("an answer to a reset connection closes it: close on both, no error", async () => {
  onRequest = (s) => setTimeout(() => s.res.end("late"), 150);
  await client([PUT("Content-Length: 1000\r\n"), BODY], "reset", 20);
  await sleep(250);
  assert.equal(requests[0].events, ["data " + BODY, "res end", "req close", "res close"]);
});

t("the body is complete only after Content-Length bytes, however they are split", async () => {
  const got = await client([PUT("Content-Length: 17\r\n"), BODY.slice(0, 5), BODY.slice(5, 9), BODY.slice(9)], "keep");
  assert.match(got, /^HTTP\/1\.1 200 OK\r\n/);
  assert.equal(requests[0].events.slice(0, 4), ["data " + BODY.slice(0, 5), "data " + BODY.slice(5, 9), "data " + BODY.slice(9), "end 17"]);
});

t("bytes past Content-Length still arrive as data", async () => {
  await client([PUT("Content-Length: 5\r\n"), BODY], "keep");
  assert.equal(requests[0].events.slice(0, 2), ["data " + BODY, "end 17"]);
});

t("no Content-Length: what came with the head arrives, then end", async () => {
  await client([PUT("") + BODY], "keep");
  assert.equal(requests[0].events.slice(0, 2), ["data " + BODY, "end 17"]);
});

t("a chunked body arrives decoded, and ends with its last chunk only", async () => {
  const chunk = "11\r\n" + BODY + "\r\n";
  await client([PUT("Transfer-Encoding: chunked\r\n"), chunk, "3\r\nabc\r\n", "0\r\n\r\n"], "keep");
  assert.equal(requests[0].events.slice(0, 3), ["data " + BODY, "data abc", "end 20"]);
  requests = [];
  const got = await client([PUT("Transfer-Encoding: chunked\r\n"), chunk], "half-close");
  assert.is(got, "");
  assert.equal(requests[0].events, ["data " + BODY]);
});

t("the body comes in reads of at most 536 bytes, the first one sharing its read with the head", async () => {
  const head = PUT("Content-Length: 3000\r\n");
  await client([head + "x".repeat(3000)], "keep");
  const sizes = requests[0].events.filter((e) => e.startsWith("data ")).map((e) => e.length - 5);
  assert.is(sizes[0], 536 - head.length);
  assert.ok(sizes.every((n) => n <= 536));
  assert.is(sizes.reduce((a, b) => a + b, 0), 3000);
});

t("a head that never ends never reaches the firmware", async () => {
  await client(["PUT /x HTTP/1.1\r\nContent-Length: 40\r\n"], "reset");
  await client(["PUT /x HTTP/1.1\r\nContent-Length: 40\r\n"], "half-close");
  assert.is(requests.length, 0);
});

t("write after end throws, as Espruino's does", async () => {
  let thrown = "";
  onRequest = (s) => s.req.on("end", () => {
    s.res.end("a");
    try { s.res.write("b"); } catch (e) { thrown = (e as Error).message; }
  });
  const got = await client([PUT("")], "keep");
  assert.is(thrown, "This socket is closed");
  assert.is(got, "HTTP/1.1 200 OK\r\nServer: Espruino 2v29\r\n\r\na");
});

t("a chunked answer is written as chunks, ending with the empty one", async () => {
  onRequest = (s) => s.req.on("end", () => {
    s.res.writeHead(200, { "Transfer-Encoding": "chunked" });
    s.res.write("ab");
    s.res.end("c");
  });
  const got = await client([PUT("")], "keep");
  assert.is(got, "HTTP/1.1 200 OK\r\nServer: Espruino 2v29\r\nTransfer-Encoding: chunked\r\n\r\n" +
    "2\r\nab\r\n1\r\nc\r\n0\r\n\r\n");
});

t.run();

const parse = suite("how Espruino reads a head");

parse("header names as sent, values without leading blanks, empty ones dropped, the first of a repeat kept", () => {
  const h = parseHead("PUT /a?b=1 HTTP/1.1\r\nHost: x\r\ncontent-length:  12 \r\nX-Empty: \r\nX-Dup: 1\r\nX-Dup: 2\r\nno colon");
  assert.is(h.method, "PUT");
  assert.is(h.url, "/a?b=1");
  assert.equal(h.headers, { "Host": "x", "content-length": "12 ", "X-Dup": "1" });
});

parse("Content-Length as Espruino turns a string into an integer", () => {
  // Measured: "abc", "12abc" and "-5" end the body at once; " 3" after 3 bytes; "0x10" waits for 16.
  const cases: [string, number][] = [
    ["17", 17], [" 3", 3], ["abc", 0], ["12abc", 0], ["-5", -5], ["0x10", 16], ["010", 8], ["08", 8],
    ["17 ", 0], ["", 0], ["0", 0], ["1.5", 1],
  ];
  for (const [s, n] of cases) assert.is(espruinoInteger(s), n, JSON.stringify(s));
});

parse.run();
