// GET/PATCH /api/v1/settings and the settings reset. None of them is open in setup mode. Each
// handler is a module of this folder (`<handler>.mod.ts`).
import type { Route } from "../http/types";

export const settingsRoutes: Route[] = [
  {
    path: "/api/v1/settings",
    methods: {
      GET: { handler: "settings/get", maxBody: 0 },
      PATCH: { handler: "settings/patch", emptyBody: "invalidJson" },
    },
  },
  { path: "/api/v1/settings/reset", methods: { POST: { handler: "settings/reset", maxBody: 0 } } },
];
