// PUT /api/v1/indicators/{id}
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { applyIndicator, indicatorSlot } from "./indicator-apply";

const putIndicator: Handler = (req, app) =>
  applyIndicator(app.display.indicators, indicatorSlot(req.params.id), req.body) || ok();
export default putIndicator;
