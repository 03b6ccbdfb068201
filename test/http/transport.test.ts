// Rules common to every route: errors, 404/405, OPTIONS and CORS, the Content-Type gate,
// method override, bad JSON, body ceilings.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import { startTarget, call, type Target } from "./target";

const t = suite("transport");
let dut: Target;

t.before(async () => { dut = await startTarget(); });
t.after(async () => { await dut.stop(); });

function assertError(r: { status: number; body: any }, status: number, code: string, message?: string, field?: string) {
  assert.is(r.status, status, JSON.stringify(r.body));
  assert.is(r.body.error.code, code);
  if (message !== undefined) assert.is(r.body.error.message, message);
  if (field === undefined) assert.not.ok("field" in r.body.error, "no field key expected");
  else assert.is(r.body.error.field, field);
  assert.equal(Object.keys(r.body), ["error"]);
}

/** A request with full control over framing (chunked bodies, no Host header). */
function raw(method: string, path: string, headers: { [k: string]: string }, chunks: string[],
  setHost = true): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const u = new URL(dut.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path, headers, setHost }, (res) => {
      let body = "";
      res.setEncoding("latin1");
      res.on("data", (c) => { body += c; });
      res.on("end", () => resolve({ status: res.statusCode || 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

t("an unknown route answers 404 notFound with the error body and no field", async () => {
  const r = await call(dut, "GET", "/api/v1/nothing-here");
  assertError(r, 404, "notFound", "unknown route");
  assert.is(r.headers.get("content-type"), "application/json");
  assert.is(r.headers.get("access-control-allow-origin"), "*");
});

t("a known path with a wrong method answers 405 listing the allowed methods", async () => {
  assertError(await call(dut, "POST", "/api/v1/device"), 405, "methodNotAllowed", "allowed method(s): GET");
  assertError(await call(dut, "DELETE", "/api/v1/system"), 405, "methodNotAllowed", "allowed method(s): GET, PUT");
  assertError(await call(dut, "GET", "/api/v1/device/reboot"), 405, "methodNotAllowed", "allowed method(s): POST");
});

t("OPTIONS answers 204 with no body and the CORS and private-network headers", async () => {
  for (const path of ["/api/v1/device", "/api/v1/system", "/no/such/path"]) {
    const r = await call(dut, "OPTIONS", path);
    assert.is(r.status, 204);
    assert.is(r.text, "");
    assert.is(r.headers.get("access-control-allow-origin"), "*");
    assert.is(r.headers.get("access-control-allow-private-network"), "true");
    assert.ok((r.headers.get("access-control-allow-headers") || "").includes("Content-Type"));
    assert.ok((r.headers.get("access-control-allow-methods") || "").length > 0);
  }
  const sys = await call(dut, "OPTIONS", "/api/v1/system");
  assert.is(sys.headers.get("access-control-allow-methods"), "GET, PUT, OPTIONS");
});

t("ordinary answers carry Access-Control-Allow-Origin: *, the protected routes never do", async () => {
  assert.is((await call(dut, "GET", "/api/v1/device")).headers.get("access-control-allow-origin"), "*");
  assert.is((await call(dut, "GET", "/api/v1/system")).headers.get("access-control-allow-origin"), "*");
  const secrets = await call(dut, "GET", "/api/v1/system?secrets=1");
  assert.is(secrets.status, 200);
  assert.is(secrets.headers.get("access-control-allow-origin"), null);
  const put = await call(dut, "PUT", "/api/v1/system", { body: { tzName: "Europe/Paris" } });
  assert.is(put.status, 200);
  assert.is(put.headers.get("access-control-allow-origin"), null);
  const badPut = await call(dut, "PUT", "/api/v1/system", { body: { mqttPort: 0 } });
  assert.is(badPut.status, 422);
  assert.is(badPut.headers.get("access-control-allow-origin"), null);
});

t("answers close the connection", async () => {
  const r = await raw("GET", "/api/v1/version", {}, []);
  assert.is(r.headers.connection, "close");
  assert.is(r.headers["content-length"], String(Buffer.byteLength(r.body, "latin1")));
});

t("HEAD answers like GET, without the body", async () => {
  const r = await raw("HEAD", "/api/v1/device", {}, []);
  assert.is(r.status, 200);
  assert.is(r.body, "");
  assert.ok(Number(r.headers["content-length"]) > 100, "the length of the GET body");
  assert.is(r.headers["content-type"], "application/json");
});

t("GET /version answers the version as plain text, equal to /api/v1/version", async () => {
  const plain = await call(dut, "GET", "/version");
  const json = await call(dut, "GET", "/api/v1/version");
  assert.is(plain.status, 200);
  assert.ok((plain.headers.get("content-type") || "").startsWith("text/plain"));
  assert.is(plain.text, json.body.version);
  assert.match(json.body.version, /^\d+\.\d+\.\d+$/);
});

t("PUT/PATCH with a non-JSON Content-Type is refused with 415 before the body is read", async () => {
  const r = await call(dut, "PUT", "/api/v1/system", {
    body: "{\"tzName\":\"Nowhere\"}", headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  assertError(r, 415, "unsupportedMediaType", "Content-Type must be application/json");
  assert.is.not((await call(dut, "GET", "/api/v1/system")).body.tzName, "Nowhere");
  // Declared JSON with parameters passes the gate; no header at all bypasses it.
  const withCharset = await call(dut, "PUT", "/api/v1/system", {
    body: "{\"tzName\":\"Europe/Rome\"}", headers: { "Content-Type": "application/json; charset=utf-8" },
  });
  assert.is(withCharset.status, 200);
  const noType = await raw("PUT", "/api/v1/system", {}, ["{\"tzName\":\"Europe/Oslo\"}"]);
  assert.is(noType.status, 200, noType.body);
  assert.is(JSON.parse(noType.body).tzName, "Europe/Oslo");
});

t("a body that is not JSON answers 400 invalidJson; an empty PUT body too", async () => {
  assertError(await call(dut, "PUT", "/api/v1/system", { body: "{\"tzName\": " }), 400, "invalidJson");
  assertError(await call(dut, "PUT", "/api/v1/system", { body: "", headers: { "Content-Type": "application/json" } }),
    400, "invalidJson");
});

t("a POST body declared as something other than JSON arrives empty", async () => {
  const r = await call(dut, "POST", "/api/v1/device/sleep", {
    body: "{\"durationMs\":1000}", headers: { "Content-Type": "text/plain" },
  });
  assertError(r, 400, "invalidJson");
});

t("a body over the route's ceiling is refused with 413, declared or chunked", async () => {
  const big = JSON.stringify({ tzName: "x".repeat(9000) });
  assertError(await call(dut, "PUT", "/api/v1/system", { body: big }), 413, "payloadTooLarge");
  const parts: string[] = [];
  for (let i = 0; i < big.length; i += 1000) parts.push(big.slice(i, i + 1000));
  const chunked = await raw("PUT", "/api/v1/system", { "Content-Type": "application/json" }, parts);
  assert.is(chunked.status, 413);
  assert.is(JSON.parse(chunked.body).error.code, "payloadTooLarge");
  assert.is.not((await call(dut, "GET", "/api/v1/system")).body.tzName.length, 9000);
});

t("method override: a POST carrying PUT/PATCH/DELETE is handled as that method", async () => {
  const r = await call(dut, "POST", "/api/v1/system", {
    body: { tzName: "Asia/Tokyo" }, headers: { "X-HTTP-Method-Override": "  pUt " },
  });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.tzName, "Asia/Tokyo");
  // Same 405 list as a real PATCH.
  assertError(await call(dut, "POST", "/api/v1/system", { body: {}, headers: { "X-HTTP-Method-Override": "PATCH" } }),
    405, "methodNotAllowed", "allowed method(s): GET, PUT");
  // Same Content-Type gate as a real PUT.
  assertError(await call(dut, "POST", "/api/v1/system", {
    body: "{}", headers: { "X-HTTP-Method-Override": "PUT", "Content-Type": "text/plain" },
  }), 415, "unsupportedMediaType");
  // An empty header is no override.
  assertError(await call(dut, "POST", "/api/v1/system", { body: {}, headers: { "X-HTTP-Method-Override": "" } }),
    405, "methodNotAllowed");
});

t("method override: wrong carrier, wrong value or the script upload answer 400 invalidMethodOverride", async () => {
  assertError(await call(dut, "GET", "/api/v1/system", { headers: { "X-HTTP-Method-Override": "PUT" } }),
    400, "invalidMethodOverride");
  assertError(await call(dut, "PUT", "/api/v1/system", { body: {}, headers: { "X-HTTP-Method-Override": "PATCH" } }),
    400, "invalidMethodOverride");
  for (const v of ["GET", "POST", "HEAD", "FETCH"]) {
    assertError(await call(dut, "POST", "/api/v1/system", { body: {}, headers: { "X-HTTP-Method-Override": v } }),
      400, "invalidMethodOverride");
  }
  assertError(await call(dut, "POST", "/api/v1/apps/script/clock", { body: "x", headers: { "X-HTTP-Method-Override": "PUT" } }),
    400, "invalidMethodOverride");
});

t("UTF-8 text goes in and comes out as UTF-8, escaped or not", async () => {
  const r = await call(dut, "PUT", "/api/v1/system", { body: "{\"tzName\":\"Zürich \\u0416 \\ud83d\\ude00\"}" });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.tzName, "Zürich Ж 😀");
  const back = await call(dut, "GET", "/api/v1/system");
  assert.is(back.body.tzName, "Zürich Ж 😀");
  assert.ok(back.text.includes("Zürich"), "raw UTF-8 in the answer, not \\u00XX escapes");
});

t.run();

const pressure = suite("memory pressure");
let low: Target;
pressure.before(async () => { low = await startTarget(); });
pressure.after(async () => { await low.stop(); });

pressure("short of memory, a large body is refused with 507; a small one still passes", async () => {
  if (!low.sim) return;
  low.sim.device.variablesInUse = 12000 - 1700;
  try {
    const large = await call(low, "PUT", "/api/v1/system", { body: { tzName: "x".repeat(3000) } });
    assert.is(large.status, 507, large.text);
    assert.is(large.body.error.code, "insufficientStorage");
    const small = await call(low, "PUT", "/api/v1/system", { body: { tzName: "Europe/Madrid" } });
    assert.is(small.status, 200, small.text);
  } finally {
    low.sim.device.variablesInUse = 2000;
  }
  assert.is((await call(low, "PUT", "/api/v1/system", { body: { tzName: "x".repeat(3000) } })).status, 200);
});

pressure.run();
