// The app loop over HTTP: the inventory, stepping, and choosing the page on screen. Each handler
// is a module of this folder (`<handler>.mod.ts`).
import type { Route } from "../http/types";

export const appRoutes: Route[] = [
  { path: "/api/v1/apps", methods: { GET: { handler: "apps/list" } } },
  { path: "/api/v1/apps/active", methods: { PUT: { rawBody: true, handler: "apps/activate" } } },
  { path: "/api/v1/apps/next", methods: { POST: { maxBody: 0, handler: "apps/step" } } },
  { path: "/api/v1/apps/previous", methods: { POST: { maxBody: 0, handler: "apps/step" } } },
];
