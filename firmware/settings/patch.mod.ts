// PATCH /api/v1/settings: any subset of keys, validated whole, applied at once.
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { publicSettings } from "./schema";
import { patchSettings } from "./patch";

const patchRoute: Handler = (req, app) => {
  const refused = patchSettings(app.settings, req.body);
  return refused ? refused : json(publicSettings(app.settings.current));
};
export default patchRoute;
