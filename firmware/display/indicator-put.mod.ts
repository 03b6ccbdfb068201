// PUT /api/v1/indicators/{id}
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { indicatorSlot } from "./indicators";

const putIndicator: Handler = (req, app) => app.display.indicators.apply(indicatorSlot(req.params.id), req.body) || ok();
export default putIndicator;
