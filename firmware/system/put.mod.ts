// PUT /api/v1/system: validated whole, then stored atomically (system/apply, shared with a
// restore's system entries); the answer is the configuration now in force.
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { isFailure } from "../core/failure";
import { loadModule } from "../platform/modules";
import { publicView } from "./schema";
import type PutSystem from "./apply.mod";

const putRoute: Handler = (req, app) => {
  const next = loadModule<typeof PutSystem>("system/apply")(req, app);
  return isFailure(next) ? next : json(publicView(next, false));
};
export default putRoute;
