// The {id} of /api/v1/indicators/{id}: 1 to 3, else 404 before the method is looked at.
import type { ParamsCheck } from "../http/types";
import { failure } from "../core/failure";
import { indicatorSlot } from "./indicator-apply";

const indicatorId: ParamsCheck = (params) =>
  indicatorSlot(params.id) < 0 ? failure(404, "notFound", "indicator id must be 1..3") : null;
export default indicatorId;
