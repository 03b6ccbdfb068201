// DELETE /api/v1/display/moodlight
import type { Handler } from "../http/types";
import { ok } from "../http/types";

const deleteMoodlight: Handler = (req, app) => {
  app.display.moodlight.on = false;
  return ok();
};
export default deleteMoodlight;
