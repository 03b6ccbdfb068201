// The transport rules of uploads, through POST /api/v1/files: the login check answered only once
// the whole upload was read, no method override, multipart only, the route's ceiling, chunked
// bodies, refusals answered while the client still sends, malformed and incomplete bodies that
// change nothing. Over raw TCP where the timing of the answer matters.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as net from "node:net";
import { startTarget, call, type Answer, type Target } from "./target";
import { makeGif } from "../unit/icons-support";

const t = suite("uploads");
let dut: Target;

t.before(async () => { dut = await startTarget(); });
t.after(async () => { await dut.stop(); });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BOUNDARY = "pixloopUploadsBoundary9876543210";
const TYPE = "multipart/form-data; boundary=" + BOUNDARY;

function gif(color: number): Buffer {
  return makeGif({ width: 8, height: 8, palette: [color, 0], frames: [{ w: 8, h: 8, pixels: new Array(64).fill(0), delay: 0 }] });
}

/** A multipart/form-data body of `files` and plain form `fields`. */
function multipart(files: { name: string; data: Buffer }[], fields: { [k: string]: string } = {}): Buffer {
  const parts: Buffer[] = [];
  for (const k in fields) {
    parts.push(Buffer.from("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + k + "\"\r\n\r\n" + fields[k] + "\r\n", "latin1"));
  }
  for (const f of files) {
    parts.push(Buffer.from("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + f.name +
      "\"\r\nContent-Type: image/gif\r\n\r\n", "latin1"), f.data, Buffer.from("\r\n", "latin1"));
  }
  parts.push(Buffer.from("--" + BOUNDARY + "--\r\n", "latin1"));
  return Buffer.concat(parts);
}

async function upload(files: { name: string; data: Buffer }[], headers: { [k: string]: string } = {}): Promise<Answer> {
  const r = await fetch(dut.url + "/api/v1/files", {
    method: "POST", headers: Object.assign({ "Content-Type": TYPE }, headers), body: new Uint8Array(multipart(files)),
  });
  const text = await r.text();
  let body: unknown;
  try { body = JSON.parse(text); } catch (e) { body = undefined; }
  return { status: r.status, headers: r.headers, text, body };
}

async function listing(): Promise<{ files: { name: string; size: number }[]; usedBytes: number }> {
  const r = await call(dut, "GET", "/api/v1/files");
  assert.is(r.status, 200, r.text);
  return r.body;
}

/** An open connection: what it has received so far, and when the device closed it. */
interface Conn {
  socket: net.Socket;
  got: () => string;
  closed: Promise<void>;
}

function connect(): Promise<Conn> {
  const u = new URL(dut.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(+u.port, u.hostname);
    let got = "";
    let done: () => void = () => undefined;
    const closed = new Promise<void>((r) => { done = r; });
    socket.on("data", (d) => { got += d.toString("latin1"); });
    socket.on("error", () => done());
    socket.on("close", () => done());
    socket.on("connect", () => resolve({ socket, got: () => got, closed }));
    socket.on("error", reject);
  });
}

function head(path: string, headers: { [k: string]: string | number }): string {
  const u = new URL(dut.url);
  let h = "POST " + path + " HTTP/1.1\r\nHost: " + u.host + "\r\n";
  for (const k in headers) h += k + ": " + headers[k] + "\r\n";
  return h + "\r\n";
}

const statusOf = (answer: string) => {
  const m = /^HTTP\/1\.[01] (\d{3}) /.exec(answer);
  return m ? +m[1] : 0;
};
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));

/** Sends `parts` with a pause after each, then waits for the device to close; the answer. */
async function exchange(start: string, parts: (string | Buffer)[], pauseMs = 50): Promise<string> {
  const c = await connect();
  c.socket.write(start);
  for (const p of parts) {
    if (typeof p === "string") c.socket.write(p, "latin1");
    else c.socket.write(p);
    await sleep(pauseMs);
  }
  await Promise.race([c.closed, sleep(5000)]);
  c.socket.destroy();
  return c.got();
}

t("with auth on, the 401 comes only once the whole upload has arrived, and nothing is stored", async () => {
  const login = { Authorization: "Basic " + Buffer.from("up:load").toString("base64") };
  assert.is((await call(dut, "PUT", "/api/v1/system", { body: { authEnabled: true, authUser: "up", authPass: "load" } })).status, 200);
  try {
    const body = multipart([{ name: "auth.gif", data: Buffer.concat([gif(1), Buffer.alloc(20000, 0)]) }]);
    const c = await connect();
    c.socket.write(head("/api/v1/files", { "Content-Type": TYPE, "Content-Length": body.length }));
    c.socket.write(body.subarray(0, 12000));
    await sleep(400);
    assert.is(c.got(), "", "no answer while the upload is still coming");
    c.socket.write(body.subarray(12000));
    await Promise.race([c.closed, sleep(5000)]);
    c.socket.destroy();
    const answer = c.got();
    assert.is(statusOf(answer), 401, answer);
    assert.match(answer, /\r\nWWW-Authenticate: Basic realm="pixloop"\r\n/);
    assert.is(bodyOf(answer).error.code, "unauthorized");
    const l = await call(dut, "GET", "/api/v1/files", { headers: login });
    assert.not.ok(l.body.files.some((f: { name: string }) => f.name === "auth.gif"));
    // With the credentials it goes through.
    const ok = await upload([{ name: "auth.gif", data: gif(2) }], login);
    assert.is(ok.status, 200, ok.text);
  } finally {
    const off = await call(dut, "PUT", "/api/v1/system", { body: { authEnabled: false }, headers: login });
    assert.is(off.status, 200);
  }
  await call(dut, "DELETE", "/api/v1/files?path=/ICONS/auth.gif");
});

t("a method override is not honoured on the upload path: the POST is an upload", async () => {
  for (const value of ["DELETE", "PUT", "GET", "nonsense"]) {
    const r = await upload([{ name: "over.gif", data: gif(3) }], { "X-HTTP-Method-Override": value });
    assert.is(r.status, 200, value + ": " + r.text);
  }
  assert.ok((await listing()).files.some((f) => f.name === "over.gif"));
  await call(dut, "DELETE", "/api/v1/files?path=/ICONS/over.gif");
});

t("a body that is not multipart/form-data answers 400 badRequest", async () => {
  for (const [type, body] of [["application/json", "{\"file\":1}"], ["text/plain", "GIF89a"], ["multipart/form-data", "x"],
    ["multipart/mixed; boundary=" + BOUNDARY, multipart([{ name: "m.gif", data: gif(1) }]).toString("latin1")]]) {
    const r = await call(dut, "POST", "/api/v1/files", { body, headers: { "Content-Type": type } });
    assert.is(r.status, 400, type + ": " + r.text);
    assert.is(r.body.error.code, "badRequest");
  }
  const none = await call(dut, "POST", "/api/v1/files");
  assert.is(none.status, 400, none.text);
  assert.is(none.body.error.code, "badRequest");
});

t("an upload holding no file, or a malformed one, answers 400 badRequest and stores nothing", async () => {
  const before = await listing();
  const fieldsOnly = multipart([], { note: "no file here" });
  const r1 = await call(dut, "POST", "/api/v1/files", { body: fieldsOnly.toString("latin1"), headers: { "Content-Type": TYPE } });
  assert.is(r1.status, 400, r1.text);
  assert.is(r1.body.error.code, "badRequest");
  const empty = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"\"\r\n\r\n\r\n--" + BOUNDARY + "--\r\n";
  assert.is((await call(dut, "POST", "/api/v1/files", { body: empty, headers: { "Content-Type": TYPE } })).status, 400);
  const garbage = "--" + BOUNDARY + "garbage\r\n\r\n";
  const r2 = await call(dut, "POST", "/api/v1/files", { body: garbage, headers: { "Content-Type": TYPE } });
  assert.is(r2.status, 400, r2.text);
  assert.is(r2.body.error.code, "badRequest");
  // Whole by its Content-Length, but the closing delimiter never came: the file is not published.
  const cut = multipart([{ name: "cut.gif", data: gif(4) }]).toString("latin1");
  const r3 = await call(dut, "POST", "/api/v1/files", { body: cut.slice(0, cut.length - 10), headers: { "Content-Type": TYPE } });
  assert.is(r3.status, 400, r3.text);
  assert.is(r3.body.error.code, "badRequest");
  const after = await listing();
  assert.equal(after.files, before.files);
  assert.is(after.usedBytes, before.usedBytes);
});

/** Opens an upload declared `length` bytes long, sends `first`, and waits (2 s at most) for an answer. */
async function earlyAnswer(path: string, length: number, first: Buffer): Promise<{ c: Conn; answer: string }> {
  const c = await connect();
  c.socket.write(head(path, { "Content-Type": TYPE, "Content-Length": length }));
  c.socket.write(first);
  for (let i = 0; i < 40 && !c.got().includes("}"); i++) await sleep(50);
  return { c, answer: c.got() };
}

t("an upload above the route's ceiling answers 413 payloadTooLarge at once", async () => {
  const { c, answer } = await earlyAnswer("/api/v1/files", 2000000, Buffer.alloc(1000, 0x41));
  c.socket.destroy();
  assert.is(statusOf(answer), 413, answer);
  assert.is(bodyOf(answer).error.code, "payloadTooLarge");
});

t("a chunked upload is taken like any other", async () => {
  const body = multipart([{ name: "chunked.gif", data: gif(0x00ff00) }]);
  const parts: string[] = [];
  for (let i = 0; i < body.length; i += 100) {
    const piece = body.subarray(i, i + 100);
    parts.push(piece.length.toString(16) + "\r\n" + piece.toString("latin1") + "\r\n");
  }
  parts.push("0\r\n\r\n");
  const answer = await exchange(head("/api/v1/files", { "Content-Type": TYPE, "Transfer-Encoding": "chunked" }), parts, 5);
  assert.is(statusOf(answer), 200, answer);
  assert.ok((await listing()).files.some((f) => f.name === "chunked.gif" && f.size === gif(0x00ff00).length));
  await call(dut, "DELETE", "/api/v1/files?path=/ICONS/chunked.gif");
});

t("a refusal is answered as soon as it is known, while the client is still sending", async () => {
  const body = multipart([{ name: "wrong.gif", data: Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(100000, 1)]) }]);
  // Refused by the route's module before any part (a folder of no use), then by a file's content.
  for (const [path, status, code] of [["/api/v1/files?dir=/NOPE", 400, "invalidPath"], ["/api/v1/files", 415, "unsupportedMediaType"]] as const) {
    const { c, answer } = await earlyAnswer(path, body.length, body.subarray(0, 4000));
    assert.is(statusOf(answer), status, "answered with 96 KB still to come: " + JSON.stringify(answer.slice(0, 80)));
    assert.is(bodyOf(answer).error.code, code);
    // The rest is read and dropped; the connection then closes.
    c.socket.write(body.subarray(4000));
    await Promise.race([c.closed, sleep(5000)]);
    c.socket.destroy();
    assert.is(c.got(), answer, "one answer");
  }
  assert.is((await call(dut, "GET", "/api/v1/version")).status, 200);
});

t("an upload cut short (reset, half-close, stall) publishes nothing and leaves nothing behind", async () => {
  const before = await listing();
  const body = multipart([{ name: "first.gif", data: gif(0x0000ff) }, { name: "partial.gif", data: Buffer.concat([gif(5), Buffer.alloc(30000, 2)]) }]);
  const upTo = body.length - 12000;
  // A client that stops sending but stays: told once the device gives up on it.
  const stalled = await connect();
  stalled.socket.write(head("/api/v1/files", { "Content-Type": TYPE, "Content-Length": body.length }));
  stalled.socket.write(body.subarray(0, upTo));
  const ends = ["reset", "half-close"];
  for (const ending of ends) {
    const c = await connect();
    c.socket.write(head("/api/v1/files", { "Content-Type": TYPE, "Content-Length": body.length }));
    c.socket.write(body.subarray(0, upTo));
    await sleep(400);
    if (ending === "reset") c.socket.resetAndDestroy();
    else c.socket.end();
    await sleep(200);
    assert.is(c.got(), "", ending + ": no answer");
    c.socket.destroy();
  }
  const during = await listing();
  const names = during.files.map((f) => f.name);
  // The first file was whole, so it was published; the second never ended.
  assert.ok(names.includes("first.gif"), names.join());
  assert.not.ok(names.includes("partial.gif"), names.join());
  assert.is(stalled.got(), "", "no answer while the upload may still go on");
  // Given up once nothing more comes: what the second file had written is erased.
  await sleep(11000);
  const told = stalled.got();
  stalled.socket.destroy();
  assert.is(statusOf(told), 400, told);
  assert.is(bodyOf(told).error.code, "badRequest");
  await call(dut, "DELETE", "/api/v1/files?path=/ICONS/first.gif");
  const after = await listing();
  assert.equal(after.files, before.files);
  assert.is(after.usedBytes, before.usedBytes, "the temporary copies are gone");
});

t.run();
