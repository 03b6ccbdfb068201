// PUT /api/v1/apps/active: {name, fast?}; a body that does not start with a brace is the name
// itself, and so is one whose JSON does not parse (which then names no app).
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { failure } from "../core/failure";
import { nowMs } from "../platform/system";
import { parseJson } from "../core/json";
import { activateApp } from "./moves";

const activate: Handler = (req, app) => {
  const raw = req.raw.trim();
  let name: unknown = raw;
  let fast = false;
  const parsed = raw.charAt(0) === "{" ? parseJson(raw) : null;
  if (parsed && typeof parsed.value === "object" && parsed.value !== null) {
    const o = parsed.value as { name?: unknown; fast?: unknown };
    name = o.name;
    fast = o.fast === true;
  }
  if (typeof name !== "string" || !activateApp(app.display.loop, name, nowMs(), fast)) {
    return failure(404, "notFound", "app not found");
  }
  return ok();
};
export default activate;
