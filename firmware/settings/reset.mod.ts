// POST /api/v1/settings/reset: erases the stored settings now; the restart after the answer
// brings up the defaults.
import type { Handler } from "../http/types";
import { okThen } from "../http/types";
import { wipeSettings } from "./store";

const resetSettings: Handler = (req, app) => {
  wipeSettings(app.settings);
  return okThen(() => app.restart());
};
export default resetSettings;
