// Backup and restore: GET /api/v1/backup, POST /api/v1/restore.
import type { Route } from "../http/types";

export const backupRoutes: Route[] = [];
