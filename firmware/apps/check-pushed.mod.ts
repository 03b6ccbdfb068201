// The {name} of PUT /api/v1/apps/pushed/{name}: no built-in's name either.
import type { ParamsCheck } from "../http/types";
import { checkAppName } from "./names";

const checkPushed: ParamsCheck = (params) => checkAppName(params.name, true);
export default checkPushed;
