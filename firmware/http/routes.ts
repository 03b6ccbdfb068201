// Every route the device answers, in matching order. An API area adds its routes here.
import type { Route } from "./types";
import { systemRoutes } from "../system/routes";
import { deviceRoutes } from "../device/routes";
import { settingsRoutes } from "../settings/routes";
import { displayRoutes } from "../display/routes";
import { appRoutes } from "../apps/routes";
import { webRoutes } from "../web/routes";

export const ROUTES: Route[] = ([] as Route[]).concat(deviceRoutes, systemRoutes, settingsRoutes, displayRoutes, appRoutes,
  webRoutes);
