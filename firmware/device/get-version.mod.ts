// GET /api/v1/version ({version}) and GET /version (the bare text).
import type { Handler } from "../http/types";
import { json } from "../http/types";

const getVersion: Handler = (req, app) =>
  req.path === "/version" ? { status: 200, text: app.version, contentType: "text/plain" } : json({ version: app.version });
export default getVersion;
