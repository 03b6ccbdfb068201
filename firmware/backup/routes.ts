// Backup and restore: GET /api/v1/backup, POST /api/v1/restore.
import type { Route } from "../http/types";

/**
 * Ceiling of a restore upload. An archive is streamed, never held, but one larger than the
 * device's Storage (896 KB) could not be restored anyway.
 */
const RESTORE_MAX = 1048576;

export const backupRoutes: Route[] = [
  // Not in setup mode: the open access point must not hand out what the clock holds.
  { path: "/api/v1/backup", methods: { GET: { handler: "backup/backup", guarded: "secrets", maxBody: 0 } } },
  {
    path: "/api/v1/restore",
    methods: { POST: { handler: "backup/restore", setup: true, guarded: true, upload: true, maxBody: RESTORE_MAX } },
  },
];
