// GET /api/v1/system: the configuration, secrets only with ?secrets=1 and never in setup mode.
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { failure } from "../core/failure";
import { publicView } from "./schema";

const getSystem: Handler = (req, app) => {
  const secrets = req.query.secrets === "1";
  // The setup access point is open: credentials never leave through it.
  if (secrets && app.mode === "setup") return failure(403, "forbidden", "not available during provisioning");
  return json(publicView(app.system.config, secrets));
};
export default getSystem;
