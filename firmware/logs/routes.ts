// Recent log lines: GET /api/v1/logs.
import type { Route } from "../http/types";

export const logsRoutes: Route[] = [];
