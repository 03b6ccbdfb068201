// Display routes: power and overlay, the mood light, the screen capture, the indicators. Each
// handler is a module of this folder (`<handler>.mod.ts`).
import type { Route } from "../http/types";

export const displayRoutes: Route[] = [
  { path: "/api/v1/display", methods: { GET: { handler: "display/get" }, PATCH: { handler: "display/patch" } } },
  {
    path: "/api/v1/display/moodlight",
    methods: {
      PUT: { emptyBody: "pass", handler: "display/moodlight-put" },
      DELETE: { maxBody: 0, handler: "display/moodlight-delete" },
    },
  },
  { path: "/api/v1/display/screen", methods: { GET: { handler: "display/screen" } } },
  {
    path: "/api/v1/indicators/{id}",
    checkParams: "display/indicator-id",
    methods: {
      PUT: { emptyBody: "pass", handler: "display/indicator-put" },
      DELETE: { maxBody: 0, handler: "display/indicator-delete" },
    },
  },
];
