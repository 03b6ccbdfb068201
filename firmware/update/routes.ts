// Firmware update: POST /update (firmware/update/README.md). Not in setup mode (403 forbidden);
// cross-site requests are refused (it replaces the firmware); the transport reads a refused body
// whole before answering, the login's 401 included.
import type { Route } from "../http/types";

/** The largest package (8 MiB, the specification's limit) and room for the multipart framing. */
const UPDATE_UPLOAD_MAX = 8388608 + 4096;

export const updateRoutes: Route[] = [
  { path: "/update", methods: { POST: { handler: "update/upload", guarded: true, upload: true, maxBody: UPDATE_UPLOAD_MAX } } },
];
