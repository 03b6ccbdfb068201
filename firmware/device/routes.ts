// Device routes: state, version, capabilities, reboot, deep sleep, factory reset.
import type { App } from "../app";
import type { ApiRequest, Reply, Route } from "../http/types";
import type { Failure } from "../core/failure";
import { invalid } from "../core/failure";
import { json, ok } from "../http/types";
import { deviceState } from "./state";
import { capabilities } from "./capabilities";

/** A 200 {ok: true} that runs `after` once it has been sent. */
function okThen(after: () => void): Reply {
  const r = ok();
  r.after = after;
  return r;
}

function sleepHandler(req: ApiRequest, app: App): Reply | Failure {
  const body = req.body as { durationMs?: unknown } | null;
  const ms = body && typeof body === "object" ? body.durationMs : undefined;
  if (typeof ms !== "number" || !isFinite(ms) || Math.floor(ms) !== ms || ms <= 0) {
    return invalid("durationMs", "must be a positive integer (milliseconds)");
  }
  return okThen(() => app.sleep(ms));
}

export const deviceRoutes: Route[] = [
  {
    path: "/api/v1/device",
    methods: { GET: { setup: true, handler: (req, app) => json(deviceState(app)) } },
  },
  {
    path: "/api/v1/version",
    methods: { GET: { setup: true, handler: (req, app) => json({ version: app.version }) } },
  },
  {
    path: "/version",
    methods: {
      GET: { setup: true, handler: (req, app) => ({ status: 200, text: app.version, contentType: "text/plain" }) },
    },
  },
  {
    path: "/api/v1/capabilities",
    methods: { GET: { setup: true, handler: (req, app) => json(capabilities(app)) } },
  },
  {
    path: "/api/v1/device/reboot",
    methods: { POST: { setup: true, maxBody: 0, handler: (req, app) => okThen(() => app.restart()) } },
  },
  {
    path: "/api/v1/device/sleep",
    methods: { POST: { emptyBody: "invalidJson", handler: sleepHandler } },
  },
  {
    // Not setup-allowed: the transport answers 403 forbidden during provisioning.
    path: "/api/v1/device/factory-reset",
    methods: { POST: { guarded: true, maxBody: 0, handler: (req, app) => okThen(() => app.factoryReset()) } },
  },
];
