// GET/PUT /api/v1/system and the Wi-Fi scan used by the setup page. Each handler is a module of
// this folder (`<handler>.mod.ts`).
import type { Route } from "../http/types";

export const systemRoutes: Route[] = [
  { path: "/api/v1/system/wifi-scan", methods: { GET: { handler: "system/wifi-scan", setup: true, maxBody: 0 } } },
  {
    path: "/api/v1/system",
    methods: {
      GET: { handler: "system/get", setup: true, guarded: "secrets", maxBody: 0 },
      PUT: { handler: "system/put", setup: true, guarded: true, emptyBody: "invalidJson" },
    },
  },
];
