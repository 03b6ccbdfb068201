// DELETE /api/v1/indicators/{id}
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { indicatorSlot, resetIndicator } from "./indicator-apply";

const deleteIndicator: Handler = (req, app) => {
  resetIndicator(app.display.indicators, indicatorSlot(req.params.id));
  return ok();
};
export default deleteIndicator;
