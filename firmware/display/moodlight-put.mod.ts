// PUT /api/v1/display/moodlight
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { applyMoodlight } from "./moodlight-apply";

const putMoodlight: Handler = (req, app) => applyMoodlight(app.display.moodlight, req.body) || ok();
export default putMoodlight;
