// Firmware update: POST /update.
import type { Route } from "../http/types";

export const updateRoutes: Route[] = [];
