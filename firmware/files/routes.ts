// File storage: GET, POST and DELETE /api/v1/files, icon renames and icon origins. Each handler
// is a module of this folder (`<handler>.mod.ts`). None is allowed in setup mode (403 forbidden).
import type { Route } from "../http/types";

/** Ceiling of an upload of files: more than Storage holds (896 KB) with the multipart framing. */
const FILES_UPLOAD_MAX = 1048576;

export const filesRoutes: Route[] = [
  {
    path: "/api/v1/files",
    methods: {
      GET: { handler: "files/list", maxBody: 0 },
      POST: { handler: "files/upload", upload: true, maxBody: FILES_UPLOAD_MAX },
      DELETE: { handler: "files/remove", maxBody: 0 },
    },
  },
  { path: "/api/v1/icons/rename", methods: { POST: { handler: "files/rename", emptyBody: "invalidJson" } } },
  {
    path: "/api/v1/icons/origins",
    methods: {
      PUT: { handler: "files/origins", emptyBody: "invalidJson" },
      DELETE: { handler: "files/origins", emptyBody: "pass" },
    },
  },
];
