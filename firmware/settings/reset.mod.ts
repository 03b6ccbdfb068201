// POST /api/v1/settings/reset: erases the stored settings now; the restart after the answer
// brings up the defaults.
import type { Handler } from "../http/types";
import { okThen } from "../http/types";

const resetSettings: Handler = (req, app) => {
  app.settings.wipe();
  return okThen(() => app.restart());
};
export default resetSettings;
