// Notification routes. Each handler is a module of this folder (`<handler>.mod.ts`);
// /notifications/active is a literal path, so it is never taken for a notification's name.
import type { Route } from "../http/types";

export const notifyRoutes: Route[] = [
  { path: "/api/v1/notifications", methods: { POST: { emptyBody: "invalidJson", parser: "payload/parse-body", handler: "notify/post" } } },
  { path: "/api/v1/notifications/active", methods: { DELETE: { maxBody: 0, handler: "notify/dismiss" } } },
  { path: "/api/v1/notifications/{name}", methods: { DELETE: { maxBody: 0, handler: "notify/retract" } } },
];
