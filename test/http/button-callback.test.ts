// The buttonCallback webhook against a listener this test runs on 127.0.0.1: every edge of a
// button (down and up) is one POST of button=<left|middle|right>&state=<1|0>&uid=<uid>, at most
// one request is out at a time (edges meanwhile are coalesced into the newest), nothing is sent
// twice, a failure is logged once. Buttons are pressed through the simulator's pins, so these
// tests need the simulator; the module itself runs in the real interpreter in
// test/unit/button-callback-espruino.test.ts.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { startTarget, call, type Target } from "./target";
import { chip as esp32 } from "../../boards/esp32";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PINS = { left: esp32.defaults.pinBtnLeft, middle: esp32.defaults.pinBtnSelect, right: esp32.defaults.pinBtnRight };

interface Hit { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }

/** A listener that records every request and answers `status`, or holds answers while `hold` is set. */
class Listener {
  readonly hits: Hit[] = [];
  /** Requests received and not answered yet. */
  open = 0;
  /** The most requests that were open at once. */
  most = 0;
  status = 200;
  hold = false;
  private held: (() => void)[] = [];
  private server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("latin1");
    req.on("data", (c) => { body += c; });
    req.on("end", () => {
      this.hits.push({ method: req.method || "", url: req.url || "", headers: req.headers, body });
      this.open++;
      this.most = Math.max(this.most, this.open);
      const answer = () => {
        this.open--;
        res.writeHead(this.status, { "Content-Type": "text/plain" });
        res.end("noted");
      };
      if (this.hold) this.held.push(answer);
      else answer();
    });
  });
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  release(): void {
    this.hold = false;
    for (const a of this.held.splice(0)) a();
  }

  bodies(): string[] {
    return this.hits.map((h) => h.body);
  }

  stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function until(what: string, cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting for " + what);
    await sleep(10);
  }
}

const t = suite("buttonCallback");
let dut: Target;
let listener: Listener;
let uid = "";

t.before(async () => {
  dut = await startTarget();
  listener = await new Listener().start();
  uid = (await call(dut, "GET", "/api/v1/device")).body.uid;
  assert.match(uid, /^[0-9a-f]{12}$/);
  const r = await call(dut, "PATCH", "/api/v1/settings", { body: { transitionDurationMs: 0, autoTransition: false } });
  assert.is(r.status, 200, r.text);
});
t.after(async () => {
  await listener.stop();
  await dut.stop();
});

async function setUrl(url: string): Promise<void> {
  const r = await call(dut, "PUT", "/api/v1/system", { body: { buttonCallback: url } });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.buttonCallback, url);
}

/** The level of a button: down (pressed, the pin pulled low) or up. */
function set(name: keyof typeof PINS, down: boolean): void {
  const sim = dut.sim;
  if (!sim) throw new Error("needs the simulator");
  sim.device.setPin(PINS[name], !down);
}

const edge = (name: string, down: boolean) => "button=" + name + "&state=" + (down ? "1" : "0") + "&uid=" + uid;

async function logLines(): Promise<string[]> {
  return ((await call(dut, "GET", "/api/v1/logs")).body.lines as string[]).filter((l) => l.includes("buttonCallback"));
}

t("a press and its release are two form POSTs to the URL, set without a reboot; the button keeps its job", async () => {
  if (!dut.sim) return;
  await setUrl("http://127.0.0.1:" + listener.port + "/hook?room=kitchen");
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Time", fast: true } });
  set("right", true);
  await until("the press", () => listener.hits.length === 1);
  set("right", false);
  await until("the release", () => listener.hits.length === 2);
  const [down, up] = listener.hits;
  assert.is(down.method, "POST");
  assert.is(down.url, "/hook?room=kitchen");
  assert.is(down.headers["content-type"], "application/x-www-form-urlencoded");
  assert.is(down.headers.host, "127.0.0.1:" + listener.port);
  assert.is(down.headers["content-length"], String(down.body.length));
  assert.is(down.body, edge("right", true));
  assert.is(up.body, edge("right", false));
  await sleep(60);
  assert.is((await call(dut, "GET", "/api/v1/device")).body.currentApp, "Date", "the right button still steps the loop");
});

t("the buttons are named after their wiring: left, middle (select), right", async () => {
  if (!dut.sim) return;
  listener.hits.length = 0;
  for (const name of ["left", "middle", "right"] as const) {
    set(name, true);
    await until(name + " down", () => listener.hits.length % 2 === 1);
    set(name, false);
    await until(name + " up", () => listener.hits.length % 2 === 0);
  }
  assert.equal(listener.bodies(), [edge("left", true), edge("left", false), edge("middle", true), edge("middle", false),
    edge("right", true), edge("right", false)]);
});

t("URL forms: no path is /, a query stays, a fragment and credentials are not sent", async () => {
  if (!dut.sim) return;
  const cases: [string, string][] = [
    ["http://127.0.0.1:" + listener.port, "/"],
    ["HTTP://127.0.0.1:" + listener.port + "?a=1&b=2#top", "/?a=1&b=2"],
    ["http://user:secret@127.0.0.1:" + listener.port + "/in#x", "/in"],
  ];
  for (const [url, path] of cases) {
    await setUrl(url);
    listener.hits.length = 0;
    set("left", true);
    await until(url, () => listener.hits.length === 1);
    set("left", false);
    await until(url + " up", () => listener.hits.length === 2);
    assert.is(listener.hits[0].url, path, url);
    assert.is(listener.hits[0].headers.authorization, undefined, url);
  }
  await setUrl("http://127.0.0.1:" + listener.port + "/hook");
});

t("one request at a time: edges that come meanwhile are coalesced into the newest, which goes out next", async () => {
  if (!dut.sim) return;
  listener.hits.length = 0;
  listener.most = 0;
  listener.hold = true;
  set("left", true);
  await until("the first edge", () => listener.hits.length === 1);
  set("left", false);
  set("right", true);
  set("right", false);
  await sleep(300);
  assert.is(listener.hits.length, 1, "nothing else while the first is out");
  listener.release();
  await until("the waiting edge", () => listener.hits.length === 2);
  await sleep(300);
  assert.equal(listener.bodies(), [edge("left", true), edge("right", false)]);
  assert.is(listener.most, 1);
});

t("a listener that fails gets every edge once, and the failure is logged once until one succeeds", async () => {
  if (!dut.sim) return;
  const url = "http://127.0.0.1:" + listener.port + "/broken";
  await setUrl(url);
  const logged = (await logLines()).length;
  listener.hits.length = 0;
  listener.status = 500;
  for (let i = 0; i < 2; i++) {
    set("middle", true);
    await until("down " + i, () => listener.hits.length === 2 * i + 1);
    set("middle", false);
    await until("up " + i, () => listener.hits.length === 2 * i + 2);
  }
  await sleep(200);
  assert.is(listener.hits.length, 4, "no retries");
  let lines = await logLines();
  assert.is(lines.length, logged + 1, lines.join("\n"));
  assert.ok(lines[lines.length - 1].includes(url) && lines[lines.length - 1].includes("500"), lines[lines.length - 1]);
  // One that works, and the next failure is news again.
  listener.status = 200;
  set("middle", true);
  await until("a success", () => listener.hits.length === 5);
  await sleep(50);
  listener.status = 500;
  set("middle", false);
  await until("a new failure", () => listener.hits.length === 6);
  await sleep(100);
  lines = await logLines();
  assert.is(lines.length, logged + 2, lines.join("\n"));
  listener.status = 200;
});

t("nobody listening: logged once, not retried; the next edge goes out once the listener is back", async () => {
  const sim = dut.sim;
  if (!sim) return;
  const gone = await new Listener().start();
  const port = gone.port;
  await gone.stop();
  const url = "http://127.0.0.1:" + port + "/";
  await setUrl(url);
  const logged = (await logLines()).length;
  const started = sim.device.httpClient.started;
  set("left", true);
  await sleep(150);
  set("left", false);
  await sleep(150);
  assert.is(sim.device.httpClient.started, started + 2, "one attempt per edge");
  const lines = await logLines();
  assert.is(lines.length, logged + 1, lines.join("\n"));
  assert.ok(lines[lines.length - 1].includes(url), lines[lines.length - 1]);
  await setUrl("http://127.0.0.1:" + listener.port + "/back");
  listener.hits.length = 0;
  set("left", true);
  await until("the listener back", () => listener.hits.length === 1);
  assert.is(listener.hits[0].url, "/back");
  set("left", false);
  await until("the release", () => listener.hits.length === 2);
});

t("https:// and other URLs send nothing (logged once); an empty one is off", async () => {
  const sim = dut.sim;
  if (!sim) return;
  listener.hits.length = 0;
  await setUrl("https://127.0.0.1:" + listener.port + "/secure");
  const logged = (await logLines()).length;
  const started = sim.device.httpClient.started;
  for (const down of [true, false, true, false]) {
    set("right", down);
    await sleep(50);
  }
  assert.is(sim.device.httpClient.started, started);
  const lines = await logLines();
  assert.is(lines.length, logged + 1, lines.join("\n"));
  assert.ok(lines[lines.length - 1].includes("http://"), lines[lines.length - 1]);
  await setUrl("");
  for (const down of [true, false]) {
    set("left", down);
    await sleep(50);
  }
  await sleep(100);
  assert.is(sim.device.httpClient.started, started);
  assert.is(listener.hits.length, 0);
  assert.is((await logLines()).length, logged + 1);
});

t.run();
