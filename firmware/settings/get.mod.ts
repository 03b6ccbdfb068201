// GET /api/v1/settings
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { publicSettings } from "./schema";

const getSettings: Handler = (req, app) => json(publicSettings(app.settings.current));
export default getSettings;
