// GET /api/v1/display/screen: {width, height, pixels} of the logical picture.
import type { Handler } from "../http/types";
import { nowMs } from "../platform/system";

const getScreen: Handler = (req, app) =>
  ({ status: 200, text: app.display.engine.screenJson(nowMs()), contentType: "application/json" });
export default getScreen;
