// PUT /api/v1/icons/origins {name, origin}: records where icon `name` (an id, or its file name)
// came from; DELETE /api/v1/icons/origins {name} (or ?name=) forgets it. An origin is 1-256
// bytes of text without control characters (an address, a catalogue id), else 400
// invalidOrigin. 400 invalidName for a name no icon can have, 404 notFound for an icon that is
// not there (PUT) or has no origin (DELETE), 500 storageError when the record cannot be read or
// saved.
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { failure } from "../core/failure";
import { checkName, existing, notFound } from "./names";
import { iconId, openOrigins } from "./origins";

const ORIGIN_MAX = 256;

function validOrigin(v: unknown): boolean {
  if (typeof v !== "string" || v.trim() === "" || v.length > ORIGIN_MAX) return false;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 32 || c === 127) return false;
  }
  return true;
}

const origins: Handler = (req) => {
  const body = (req.body && typeof req.body === "object" ? req.body : {}) as { name?: unknown; origin?: unknown };
  const name = body.name !== undefined ? body.name : req.query.name;
  if (typeof name !== "string" || name === "" || checkName("/ICONS", iconId(name) + ".gif")) {
    return failure(400, "invalidName", "name must be an icon name", "name");
  }
  const id = iconId(name);
  const rec = openOrigins();
  if (rec.broken) return failure(500, "storageError", "icon links could not be read");
  if (req.method === "PUT") {
    if (!validOrigin(body.origin)) {
      return failure(400, "invalidOrigin", "origin must be 1-" + ORIGIN_MAX + " characters of text", "origin");
    }
    const present = id === name ? existing("/ICONS", id + ".gif") || existing("/ICONS", id + ".jpg") : existing("/ICONS", name);
    if (!present) return notFound();
    rec.map[id] = body.origin as string;
  } else {
    if (rec.map[id] === undefined) return failure(404, "notFound", "no origin for that icon");
    delete rec.map[id];
  }
  return rec.save() ? ok() : failure(500, "storageError", "icon links could not be saved");
};
export default origins;
