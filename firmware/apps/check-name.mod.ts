// The {name} of /api/v1/apps/{name} and /api/v1/apps/{name}/enabled (built-ins included).
import type { ParamsCheck } from "../http/types";
import { checkAppName } from "./names";

const checkName: ParamsCheck = (params) => checkAppName(params.name, false);
export default checkName;
