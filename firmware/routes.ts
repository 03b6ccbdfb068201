// Every route the device answers, in matching order. An API area adds its routes to its own
// table (firmware/<area>/routes.ts); this list joins them. It is data for the build, which writes
// it into the Storage file `routes` (http/router.ts): the running firmware never imports it.
import type { Route } from "./http/types";
import { systemRoutes } from "./system/routes";
import { deviceRoutes } from "./device/routes";
import { settingsRoutes } from "./settings/routes";
import { displayRoutes } from "./display/routes";
import { appRoutes } from "./apps/routes";
import { notifyRoutes } from "./notify/routes";
import { webRoutes } from "./web/routes";
import { filesRoutes } from "./files/routes";
import { backupRoutes } from "./backup/routes";
import { updateRoutes } from "./update/routes";
import { logsRoutes } from "./logs/routes";

export const ROUTES: Route[] = ([] as Route[]).concat(deviceRoutes, systemRoutes, settingsRoutes, displayRoutes, appRoutes,
  notifyRoutes, filesRoutes, backupRoutes, updateRoutes, logsRoutes, webRoutes);
