// GET /api/v1/capabilities
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { capabilities } from "./capabilities";

const getCapabilities: Handler = (req, app) => json(capabilities(app));
export default getCapabilities;
