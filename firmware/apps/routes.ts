// The app loop over HTTP: the inventory, stepping, choosing the page on screen, the arrangement,
// and the pushed apps. Each handler is a module of this folder (`<handler>.mod.ts`). Literal paths
// win over patterns, so active, next, previous and order are never taken for app names; the name
// checks run before the method check and before the body is read.
import type { Route } from "../http/types";

export const appRoutes: Route[] = [
  { path: "/api/v1/apps", methods: { GET: { handler: "apps/list" } } },
  { path: "/api/v1/apps/active", methods: { PUT: { rawBody: true, handler: "apps/activate" } } },
  { path: "/api/v1/apps/next", methods: { POST: { maxBody: 0, handler: "apps/step" } } },
  { path: "/api/v1/apps/previous", methods: { POST: { maxBody: 0, handler: "apps/step" } } },
  { path: "/api/v1/apps/order", methods: { PUT: { handler: "apps/order" } } },
  {
    path: "/api/v1/apps/pushed/{name}",
    checkParams: "apps/check-pushed",
    methods: { PUT: { emptyBody: "pass", parser: "payload/parse-body", handler: "apps/push" } },
  },
  { path: "/api/v1/apps/{name}/enabled", checkParams: "apps/check-name", methods: { PUT: { handler: "apps/enabled" } } },
  { path: "/api/v1/apps/{name}", checkParams: "apps/check-name", methods: { DELETE: { maxBody: 0, handler: "apps/remove" } } },
];
