// Who may ask: HTTP Basic auth, cross-site protection of the five protected routes, and the
// setup-mode host policy with its reduced route set.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import { startTarget, call, type Target } from "./target";

function assertError(r: { status: number; body: any }, status: number, code: string, message?: string) {
  assert.is(r.status, status, JSON.stringify(r.body));
  assert.is(r.body.error.code, code);
  if (message !== undefined) assert.is(r.body.error.message, message);
  assert.not.ok("field" in r.body.error);
}

const basic = (user: string, pass: string) => "Basic " + Buffer.from(user + ":" + pass).toString("base64");

// ---------------------------------------------------------------------------------------------
const auth = suite("auth");
let dut: Target;
const login = { Authorization: basic("admin", "s3cret") };

auth.before(async () => {
  dut = await startTarget();
  const r = await call(dut, "PUT", "/api/v1/system", { body: { authEnabled: true, authUser: "admin", authPass: "s3cret" } });
  assert.is(r.status, 200, r.text);
  assert.not.ok("authPass" in r.body, "a PUT answer never holds secrets");
});
auth.after(async () => { await dut.stop(); });

auth("without credentials every route answers 401 with the challenge and a JSON body", async () => {
  for (const [method, path] of [["GET", "/api/v1/device"], ["GET", "/"], ["GET", "/api/v1/no-route"],
    ["PUT", "/api/v1/system"], ["POST", "/api/v1/device/reboot"]]) {
    const r = await call(dut, method, path, method === "PUT" ? { body: { tzName: "x" } } : {});
    assertError(r, 401, "unauthorized", "authentication required");
    assert.is(r.headers.get("www-authenticate"), "Basic realm=\"pixloop\"");
    assert.is(r.headers.get("content-type"), "application/json");
  }
  assert.is.not((await call(dut, "GET", "/api/v1/system", { headers: login })).body.tzName, "x");
});

auth("wrong credentials are refused, right ones pass", async () => {
  assertError(await call(dut, "GET", "/api/v1/device", { headers: { Authorization: basic("admin", "wrong") } }), 401, "unauthorized");
  assertError(await call(dut, "GET", "/api/v1/device", { headers: { Authorization: "Bearer abc" } }), 401, "unauthorized");
  assert.is((await call(dut, "GET", "/api/v1/device", { headers: login })).status, 200);
  const page = await call(dut, "GET", "/", { headers: login });
  assert.is(page.status, 200);
  assert.ok(page.text.includes("<title>pixloop</title>"));
});

auth("OPTIONS preflights need no credentials", async () => {
  assert.is((await call(dut, "OPTIONS", "/api/v1/device")).status, 204);
});

auth("the login check runs before the cross-site check", async () => {
  const r = await call(dut, "PUT", "/api/v1/system", { body: { tzName: "y" }, headers: { Origin: "http://evil.example" } });
  assertError(r, 401, "unauthorized");
});

auth("turning auth off keeps the credentials, so it can be turned on again without them", async () => {
  const off = await call(dut, "PUT", "/api/v1/system", { body: { authEnabled: false }, headers: login });
  assert.is(off.status, 200);
  assert.is(off.body.authUser, "admin");
  assert.is((await call(dut, "GET", "/api/v1/device")).status, 200);
  const on = await call(dut, "PUT", "/api/v1/system", { body: { authEnabled: true } });
  assert.is(on.status, 200, on.text);
  assertError(await call(dut, "GET", "/api/v1/device"), 401, "unauthorized");
  assert.is((await call(dut, "PUT", "/api/v1/system", { body: { authEnabled: false }, headers: login })).status, 200);
});

auth.run();

// ---------------------------------------------------------------------------------------------
const xsite = suite("cross-site protection");

xsite.before(async () => { dut = await startTarget(); });
xsite.after(async () => { await dut.stop(); });

xsite("a foreign Origin on PUT /api/v1/system answers 403 forbiddenOrigin and changes nothing", async () => {
  const r = await call(dut, "PUT", "/api/v1/system", { body: { tzName: "Evil/Place" }, headers: { Origin: "http://evil.example" } });
  assertError(r, 403, "forbiddenOrigin");
  assert.is(r.headers.get("access-control-allow-origin"), null);
  assert.is.not((await call(dut, "GET", "/api/v1/system")).body.tzName, "Evil/Place");
});

xsite("Sec-Fetch-Site other than same-origin or none is refused on protected routes", async () => {
  for (const site of ["cross-site", "same-site"]) {
    assertError(await call(dut, "PUT", "/api/v1/system", { body: { tzName: "A/B" }, headers: { "Sec-Fetch-Site": site } }),
      403, "forbiddenOrigin");
    assertError(await call(dut, "GET", "/api/v1/system?secrets=1", { headers: { "Sec-Fetch-Site": site } }), 403, "forbiddenOrigin");
    assertError(await call(dut, "POST", "/api/v1/device/factory-reset", { headers: { "Sec-Fetch-Site": site } }), 403, "forbiddenOrigin");
  }
  for (const site of ["same-origin", "none"]) {
    assert.is((await call(dut, "PUT", "/api/v1/system", { body: { tzName: "Europe/Berlin" }, headers: { "Sec-Fetch-Site": site } })).status, 200);
  }
});

xsite("the device's own page may write: an Origin naming the addressed host passes", async () => {
  const origin = dut.url;
  const r = await call(dut, "PUT", "/api/v1/system", { body: { tzName: "Europe/Vienna" }, headers: { Origin: origin } });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.tzName, "Europe/Vienna");
});

xsite("unprotected routes stay open to other sites and carry the CORS header", async () => {
  const r = await call(dut, "GET", "/api/v1/system", { headers: { Origin: "http://dashboard.example", "Sec-Fetch-Site": "cross-site" } });
  assert.is(r.status, 200);
  assert.is(r.headers.get("access-control-allow-origin"), "*");
  assert.not.ok("wifiPass" in r.body);
  const d = await call(dut, "GET", "/api/v1/device", { headers: { Origin: "http://dashboard.example" } });
  assert.is(d.status, 200);
});

xsite("secrets are only in GET /api/v1/system?secrets=1", async () => {
  assert.is((await call(dut, "PUT", "/api/v1/system", { body: { mqttPass: "m-pass" } })).status, 200);
  const plain = await call(dut, "GET", "/api/v1/system");
  for (const k of ["wifiPass", "mqttPass", "authPass"]) assert.not.ok(k in plain.body, k);
  const withSecrets = await call(dut, "GET", "/api/v1/system?secrets=1");
  assert.is(withSecrets.body.mqttPass, "m-pass");
  assert.ok("wifiPass" in withSecrets.body && "authPass" in withSecrets.body);
});

xsite.run();

// ---------------------------------------------------------------------------------------------
const setup = suite("setup mode");
let fresh: Target;

function rawGet(path: string, host: string | null): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  const u = new URL(fresh.url);
  const headers: { [k: string]: string } = {};
  if (host !== null) headers.Host = host;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, headers, setHost: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode || 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

setup.before(async () => { fresh = await startTarget({ setup: true }); });
setup.after(async () => { await fresh.stop(); });

setup("the simulator's own address is the device's own in setup mode", async () => {
  const d = await call(fresh, "GET", "/api/v1/device");
  assert.is(d.status, 200);
  assert.is(d.body.wifi.state, "accessPoint");
  const page = await call(fresh, "GET", "/");
  assert.is(page.status, 200);
  assert.ok(page.text.includes("Join a Wi-Fi network"));
});

setup("a GET with a foreign or missing Host is redirected to the access point", async () => {
  for (const host of ["captive.example.com", "connectivitycheck.example:80", null]) {
    const r = await rawGet("/generate_204", host);
    assert.is(r.status, 302, String(host));
    assert.is(r.headers.location, "http://127.0.0.1/");
  }
});

setup("a write to a foreign host answers 403 forbidden; a foreign Origin 403 forbiddenOrigin", async () => {
  const u = new URL(fresh.url);
  const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method: "PUT", path: "/api/v1/system", setHost: false,
      headers: { Host: "evil.example", "Content-Type": "application/json" } }, (res) => {
      let body = "";
      res.on("data", (c) => { body += c; });
      res.on("end", () => resolve({ status: res.statusCode || 0, body }));
    });
    req.on("error", reject);
    req.end("{\"wifiSsid\":\"x\"}");
  });
  assert.is(r.status, 403);
  assert.is(JSON.parse(r.body).error.code, "forbidden");
  assertError(await call(fresh, "PUT", "/api/v1/system", { body: { wifiSsid: "x" }, headers: { Origin: "http://evil.example" } }),
    403, "forbiddenOrigin");
  assert.is((await call(fresh, "GET", "/api/v1/system")).body.wifiSsid, "");
});

setup("only the setup routes answer; the rest is 403 forbidden", async () => {
  assertError(await call(fresh, "GET", "/api/v1/system?secrets=1"), 403, "forbidden", "not available during provisioning");
  assertError(await call(fresh, "POST", "/api/v1/device/factory-reset"), 403, "forbidden", "not available during provisioning");
  assertError(await call(fresh, "POST", "/api/v1/device/sleep", { body: { durationMs: 1000 } }), 403, "forbidden");
  for (const path of ["/api/v1/device", "/api/v1/capabilities", "/api/v1/version", "/version", "/api/v1/system"]) {
    assert.is((await call(fresh, "GET", path)).status, 200, path);
  }
  const scan = await call(fresh, "GET", "/api/v1/system/wifi-scan");
  assert.is(scan.status, 202);
  assert.equal(scan.body, { scanning: true });
});

setup("Wi-Fi setup through PUT /api/v1/system and a reboot brings the device into station mode", async () => {
  const put = await call(fresh, "PUT", "/api/v1/system", { body: { wifiSsid: "pixloop-sim", wifiPass: "simulated" } });
  assert.is(put.status, 200, put.text);
  const booted = fresh.nextBoot();
  assert.equal((await call(fresh, "POST", "/api/v1/device/reboot")).body, { ok: true });
  await booted;
  await fresh.waitForServer();
  const d = await call(fresh, "GET", "/api/v1/device");
  assert.is(d.body.wifi.state, "connected");
  assert.is(d.body.wifi.host, "pixloop-sim");
  assert.is(d.body.resetReason, "software");
  // Station mode: no redirect for foreign hosts.
  assert.is((await rawGet("/api/v1/version", "other.example")).status, 200);
});

setup.run();
