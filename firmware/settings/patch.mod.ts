// PATCH /api/v1/settings: any subset of keys, validated whole, applied at once (settings/apply,
// shared with a restore's settings entries); the answer is the settings now in force.
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { loadModule } from "../platform/modules";
import { publicSettings } from "./schema";
import type ApplySettings from "./apply.mod";

const patchRoute: Handler = (req, app) => {
  const refused = loadModule<typeof ApplySettings>("settings/apply")(req, app);
  return refused ? refused : json(publicSettings(app.settings.current));
};
export default patchRoute;
