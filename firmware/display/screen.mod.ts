// GET /api/v1/display/screen: {width, height, pixels} of the logical picture.
import type { Handler } from "../http/types";
import { nowMs } from "../platform/system";
import { screenJson } from "./capture";

const getScreen: Handler = (req, app) =>
  ({ status: 200, text: screenJson(app.display.engine, nowMs()), contentType: "application/json" });
export default getScreen;
