// A write whose body never arrives whole changes nothing and is not answered: the client declares
// more bytes than it sends (what it sends is valid JSON by itself), then resets the connection,
// half-closes it, or just waits and closes it. Over raw TCP, as a client that gives up would.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as net from "node:net";
import { startTarget, call, type Target } from "./target";
import { makeZip } from "../unit/backup-archives";

const t = suite("incomplete bodies");
let dut: Target;

t.before(async () => { dut = await startTarget(); });
t.after(async () => { await dut.stop(); });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long the transport waits for more of an upload before it gives the upload up. */
const UPLOAD_IDLE_MS = 10000;

/** How the client gives up on a body it declared longer than it sent. */
type Ending = "reset" | "half-close" | "wait";
const ENDINGS: Ending[] = ["reset", "half-close", "wait"];

interface Write {
  method: string;
  path: string;
  body: string;
  /** The state the write would change, read back with GETs. */
  state(): Promise<unknown>;
}

const get = async (path: string) => {
  const r = await call(dut, "GET", path);
  assert.is(r.status, 200, path + ": " + r.text);
  return r.body;
};

const WRITES: Write[] = [
  {
    method: "PATCH", path: "/api/v1/settings", body: JSON.stringify({ brightness: 18 }),
    state: async () => (await get("/api/v1/settings")).brightness,
  },
  {
    method: "PUT", path: "/api/v1/system", body: JSON.stringify({ tzName: "Pacific/Chatham" }),
    state: async () => (await get("/api/v1/system")).tzName,
  },
  {
    method: "PATCH", path: "/api/v1/display", body: JSON.stringify({ power: false, overlay: "snow" }),
    state: async () => {
      const d = await get("/api/v1/display");
      return { power: d.power, overlay: d.overlay };
    },
  },
  {
    method: "PUT", path: "/api/v1/display/moodlight", body: JSON.stringify({ color: "#FF8000", brightness: 10 }),
    state: async () => (await get("/api/v1/display")).moodlight,
  },
  {
    method: "PUT", path: "/api/v1/indicators/2", body: JSON.stringify({ color: "#00FF00", blinkMs: 500 }),
    state: async () => (await get("/api/v1/device")).indicators[1],
  },
];

/**
 * Opens a connection, sends the head and `parts` (with a pause after each), then ends it as
 * `ending` says. Resolves with every byte the device sent back.
 */
function exchange(head: string, parts: string[], ending: Ending | "keep"): Promise<string> {
  const u = new URL(dut.url);
  return new Promise((resolve, reject) => {
    const s = net.connect(+u.port, u.hostname);
    let got = "";
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(got);
    };
    s.on("data", (d) => { got += d.toString("latin1"); });
    s.on("error", (e) => { if (ending === "keep") reject(e); });
    s.on("close", () => finish());
    s.on("connect", async () => {
      s.write(head, "latin1");
      for (const p of parts) {
        s.write(p, "latin1");
        await sleep(150);
      }
      if (ending === "keep") return; // the device answers and closes
      await sleep(150);
      if (ending === "reset") {
        s.resetAndDestroy();
        finish();
        return;
      }
      if (ending === "half-close") s.end();
      // Espruino never closes a connection whose body is still due: the client has to.
      await sleep(400);
      s.destroy();
      finish();
    });
  });
}

function headOf(w: { method: string; path: string }, headers: { [k: string]: string | number }): string {
  const u = new URL(dut.url);
  let h = w.method + " " + w.path + " HTTP/1.1\r\nHost: " + u.host + "\r\nContent-Type: application/json\r\n";
  for (const k in headers) h += k + ": " + headers[k] + "\r\n";
  return h + "\r\n";
}

function statusOf(answer: string): number {
  const m = /^HTTP\/1\.[01] (\d{3}) /.exec(answer);
  return m ? +m[1] : 0;
}

for (const w of WRITES) {
  t(w.method + " " + w.path + ": a body cut short changes nothing, however the client gives up", async () => {
    const before = await w.state();
    for (const ending of ENDINGS) {
      const answer = await exchange(headOf(w, { "Content-Length": w.body.length + 500 }), [w.body], ending);
      assert.is(answer, "", ending + ": no answer expected, got " + JSON.stringify(answer.slice(0, 120)));
      assert.equal(await w.state(), before, ending + ": the state changed");
    }
    // The same bytes, declared at their true length, do change it.
    const answer = await exchange(headOf(w, { "Content-Length": w.body.length }), [w.body], "keep");
    assert.is(statusOf(answer), 200, answer);
    assert.not.equal(await w.state(), before, "the complete write applies");
  });
}

t("a chunked body without its last chunk changes nothing either", async () => {
  const w = { method: "PATCH", path: "/api/v1/settings" };
  const before = (await get("/api/v1/settings")).brightness;
  const body = JSON.stringify({ brightness: before === 77 ? 78 : 77 });
  const chunk = body.length.toString(16) + "\r\n" + body + "\r\n";
  for (const ending of ENDINGS) {
    const answer = await exchange(headOf(w, { "Transfer-Encoding": "chunked" }), [chunk], ending);
    assert.is(answer, "", ending);
    assert.is((await get("/api/v1/settings")).brightness, before, ending);
  }
  const answer = await exchange(headOf(w, { "Transfer-Encoding": "chunked" }), [chunk, "0\r\n\r\n"], "keep");
  assert.is(statusOf(answer), 200, answer);
  assert.is.not((await get("/api/v1/settings")).brightness, before);
});

t("a body that arrives in pieces is waited for and applied once whole", async () => {
  const w = { method: "PATCH", path: "/api/v1/settings" };
  const body = JSON.stringify({ brightness: 33 });
  const answer = await exchange(headOf(w, { "Content-Length": body.length }),
    [body.slice(0, 6), body.slice(6, 12), body.slice(12)], "keep");
  assert.is(statusOf(answer), 200, answer);
  assert.is((await get("/api/v1/settings")).brightness, 33);
});

t("bytes past the declared length are no part of the body", async () => {
  const w = { method: "PATCH", path: "/api/v1/settings" };
  const body = JSON.stringify({ brightness: 44 });
  const answer = await exchange(headOf(w, { "Content-Length": body.length }), [body + "xyz}"], "keep");
  assert.is(statusOf(answer), 200, answer);
  assert.is((await get("/api/v1/settings")).brightness, 44);
});

t("a request without Content-Length or chunked framing has no body", async () => {
  const w = { method: "PATCH", path: "/api/v1/settings" };
  const before = (await get("/api/v1/settings")).brightness;
  const answer = await exchange(headOf(w, {}), [JSON.stringify({ brightness: before === 55 ? 56 : 55 })], "keep");
  assert.is(statusOf(answer), 400, answer);
  assert.ok(answer.includes("\"invalidJson\""), answer);
  assert.is((await get("/api/v1/settings")).brightness, before);
});

t("a restore whose upload is cut short changes no configuration, however the client gives up", async () => {
  const before = (await get("/api/v1/settings")).brightness;
  const archive = makeZip([
    { name: "manifest.json", data: '{"app":"pixloop","backupFormat":1}' },
    { name: "config/settings.json", data: JSON.stringify({ brightness: before === 33 ? 34 : 33 }) },
  ]);
  const boundary = "pixloopCutRestore0042";
  // The whole archive and the closing delimiter: only the declared length is not reached.
  const body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"b.zip\"\r\n" +
    "Content-Type: application/zip\r\n\r\n" + archive.toString("latin1") + "\r\n--" + boundary + "--\r\n";
  const head = (length: number) => headOf({ method: "POST", path: "/api/v1/restore" }, { "Content-Length": length })
    .replace("application/json", "multipart/form-data; boundary=" + boundary);
  await Promise.all(ENDINGS.map((ending) => exchange(head(body.length + 500), [body], ending)));
  // Past the time an upload that stops arriving is given up (and its sink aborted) after.
  await sleep(UPLOAD_IDLE_MS + 1000);
  assert.is((await get("/api/v1/settings")).brightness, before, "a restore cut short applied its settings");
  const answer = await exchange(head(body.length), [body], "keep");
  assert.is(statusOf(answer), 200, answer);
  assert.is.not((await get("/api/v1/settings")).brightness, before, "the complete restore applies");
});

t("a refused request is still answered once its body has arrived", async () => {
  // 413 on the declared length, with the body drained.
  const big = "x".repeat(9000);
  const w = { method: "PUT", path: "/api/v1/system" };
  const answer = await exchange(headOf(w, { "Content-Length": big.length }), [big], "keep");
  assert.is(statusOf(answer), 413, answer);
  // A 404 whose body never completes is not answered, and nothing else happens.
  const lost = await exchange(headOf({ method: "PUT", path: "/api/v1/nothing" }, { "Content-Length": 100 }), ["{}"], "half-close");
  assert.is(lost, "");
  assert.is((await call(dut, "GET", "/api/v1/version")).status, 200);
});

t.run();
