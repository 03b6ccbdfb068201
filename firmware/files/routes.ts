// File storage: GET, POST and DELETE /api/v1/files, icon renames and icon origins.
import type { Route } from "../http/types";

export const filesRoutes: Route[] = [];
