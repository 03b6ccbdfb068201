// GET /api/v1/device
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { deviceState } from "./state";

const getState: Handler = (req, app) => json(deviceState(app));
export default getState;
