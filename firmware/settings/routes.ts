// GET/PATCH /api/v1/settings and the settings reset. None of them is open in setup mode.
import type { ApiRequest, Reply, Route } from "../http/types";
import { json, ok } from "../http/types";
import type { App } from "../app";
import type { Failure } from "../core/failure";
import { publicSettings } from "./schema";

function getSettings(req: ApiRequest, app: App): Reply {
  return json(publicSettings(app.settings.current));
}

function patchSettings(req: ApiRequest, app: App): Reply | Failure {
  const refused = app.settings.patch(req.body);
  return refused ? refused : json(publicSettings(app.settings.current));
}

/** Erases the stored settings now; the restart after the answer brings up the defaults. */
function resetSettings(req: ApiRequest, app: App): Reply {
  app.settings.wipe();
  const r = ok();
  r.after = () => app.restart();
  return r;
}

export const settingsRoutes: Route[] = [
  {
    path: "/api/v1/settings",
    methods: {
      GET: { handler: getSettings, maxBody: 0 },
      PATCH: { handler: patchSettings, emptyBody: "invalidJson" },
    },
  },
  {
    path: "/api/v1/settings/reset",
    methods: { POST: { handler: resetSettings, maxBody: 0 } },
  },
];
