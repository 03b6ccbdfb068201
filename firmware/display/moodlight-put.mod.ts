// PUT /api/v1/display/moodlight
import type { Handler } from "../http/types";
import { ok } from "../http/types";

const putMoodlight: Handler = (req, app) => app.display.moodlight.apply(req.body) || ok();
export default putMoodlight;
