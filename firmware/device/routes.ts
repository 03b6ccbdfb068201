// Device routes: state, version, capabilities, reboot, deep sleep, factory reset. Each handler is
// a module of this folder (`<handler>.mod.ts`).
import type { Route } from "../http/types";

export const deviceRoutes: Route[] = [
  { path: "/api/v1/device", methods: { GET: { setup: true, handler: "device/get-state" } } },
  { path: "/api/v1/version", methods: { GET: { setup: true, handler: "device/get-version" } } },
  { path: "/version", methods: { GET: { setup: true, handler: "device/get-version" } } },
  { path: "/api/v1/capabilities", methods: { GET: { setup: true, handler: "device/get-capabilities" } } },
  { path: "/api/v1/device/reboot", methods: { POST: { setup: true, maxBody: 0, handler: "device/reboot" } } },
  { path: "/api/v1/device/sleep", methods: { POST: { emptyBody: "invalidJson", handler: "device/sleep" } } },
  // Not setup-allowed: the transport answers 403 forbidden during provisioning.
  { path: "/api/v1/device/factory-reset", methods: { POST: { guarded: true, maxBody: 0, handler: "device/factory-reset" } } },
];
