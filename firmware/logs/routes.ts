// Recent log lines: GET /api/v1/logs. Not in setup mode: the transport answers 403 forbidden there.
import type { Route } from "../http/types";

export const logsRoutes: Route[] = [
  { path: "/api/v1/logs", methods: { GET: { handler: "logs/get", maxBody: 0 } } },
];
