// DELETE /api/v1/indicators/{id}
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { indicatorSlot } from "./indicators";

const deleteIndicator: Handler = (req, app) => {
  app.display.indicators.reset(indicatorSlot(req.params.id));
  return ok();
};
export default deleteIndicator;
