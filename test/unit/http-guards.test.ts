import { test } from "uvu";
import * as assert from "uvu/assert";
import { hostOf, isAuthorized, crossSite } from "../../firmware/http/guards";
import { splitTarget, percentDecode } from "../../firmware/http/query";
import { allowedMethods, encodeRoutes, matchRoute, methodSpec, paramsCheck } from "../../firmware/http/router";
import type { Route } from "../../firmware/http/types";

const b64 = (s: string) => Buffer.from(s, "latin1").toString("base64");

test("hostOf strips the port and lower-cases", () => {
  assert.is(hostOf("Clock.Local:8080"), "clock.local");
  assert.is(hostOf("192.168.4.1"), "192.168.4.1");
  assert.is(hostOf("[::1]:80"), "[::1]");
  assert.is(hostOf(""), "");
});

test("isAuthorized compares Basic credentials exactly", () => {
  assert.ok(isAuthorized("Basic " + b64("admin:pw"), "admin:pw"));
  assert.ok(isAuthorized("basic  " + b64("admin:p:w"), "admin:p:w"));
  assert.not.ok(isAuthorized("Basic " + b64("admin:px"), "admin:pw"));
  assert.not.ok(isAuthorized("Bearer " + b64("admin:pw"), "admin:pw"));
  assert.not.ok(isAuthorized("", "admin:pw"));
});

test("crossSite: Origin against Host, and Sec-Fetch-Site", () => {
  assert.not.ok(crossSite("", "clock.local", ""));
  assert.not.ok(crossSite("http://clock.local", "clock.local", ""));
  assert.not.ok(crossSite("http://clock.local:80", "clock.local", "same-origin"));
  assert.not.ok(crossSite("http://127.0.0.1:8080", "127.0.0.1:8080", "none"));
  assert.ok(crossSite("http://127.0.0.1:9090", "127.0.0.1:8080", ""));
  assert.ok(crossSite("http://evil.example", "clock.local", ""));
  assert.ok(crossSite("null", "clock.local", ""));
  assert.ok(crossSite("", "clock.local", "cross-site"));
  assert.ok(crossSite("", "clock.local", "same-site"));
});

test("splitTarget decodes path and query byte by byte", () => {
  assert.equal(splitTarget("/api/v1/system?secrets=1&x"), { path: "/api/v1/system", query: { secrets: "1", x: "" } });
  assert.equal(splitTarget("/a%20b?n=%C3%A9+x"), { path: "/a b", query: { n: "\xc3\xa9 x" } });
  assert.is(percentDecode("100%"), "100%");
  assert.is(percentDecode("%zz"), "%zz");
});

test("route table: literal paths before patterns, params, methods and flags survive the encoding", () => {
  const routes: Route[] = [
    { path: "/api/v1/apps/{name}", checkParams: "apps/name", methods: { DELETE: { handler: "apps/delete", maxBody: 0 } } },
    { path: "/api/v1/apps/active", methods: { PUT: { handler: "apps/activate", rawBody: true } } },
    {
      path: "/api/v1/system",
      methods: {
        GET: { handler: "system/get", setup: true, guarded: "secrets", maxBody: 0 },
        PUT: { handler: "system/put", setup: true, guarded: true, emptyBody: "invalidJson" },
      },
    },
    { path: "/api/v1/display/moodlight", methods: { PUT: { handler: "display/moodlight-put", emptyBody: "pass" } } },
    { path: "/api/v1/notifications", methods: { POST: { handler: "notify/post", parser: "payload/parse-body" } } },
  ];
  const table = encodeRoutes(routes);
  const active = matchRoute(table, "/api/v1/apps/active")!;
  assert.equal(methodSpec(active, "PUT"), {
    handler: "apps/activate", setup: false, guarded: false, emptyBody: undefined, rawBody: true, maxBody: undefined,
  });
  assert.is(paramsCheck(active), "");
  assert.is(methodSpec(matchRoute(table, "/api/v1/notifications")!, "POST")!.parser, "payload/parse-body");
  const named = matchRoute(table, "/api/v1/apps/clock")!;
  assert.equal(named.params, { name: "clock" });
  assert.is(paramsCheck(named), "apps/name");
  assert.is(methodSpec(named, "DELETE")!.maxBody, 0);
  assert.is(methodSpec(named, "PUT"), null);
  assert.is(matchRoute(table, "/api/v1/apps"), null);
  assert.is(matchRoute(table, "/api/v1/apps/a/b"), null);
  assert.is(matchRoute(table, "/api/v1/system/"), null);
  // A path that only starts like a route is no match (Espruino's indexOf would report one).
  assert.is(matchRoute(table, "/api/v1/sys"), null);
  const system = matchRoute(table, "/api/v1/system")!;
  assert.is(allowedMethods(system), "GET, PUT");
  assert.equal(methodSpec(system, "GET"), {
    handler: "system/get", setup: true, guarded: "secrets", emptyBody: undefined, rawBody: false, maxBody: 0,
  });
  assert.equal(methodSpec(system, "PUT"), {
    handler: "system/put", setup: true, guarded: true, emptyBody: "invalidJson", rawBody: false, maxBody: undefined,
  });
  assert.is(methodSpec(matchRoute(table, "/api/v1/display/moodlight")!, "PUT")!.emptyBody, "pass");
});

test.run();
