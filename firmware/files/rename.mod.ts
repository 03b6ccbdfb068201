// POST /api/v1/icons/rename {from, to}: gives an icon another id. `from` and `to` are icon ids
// ("mail"), or file names ("mail.gif") to move one file of an id that has both a GIF and a JPEG;
// an id moves all its files, each keeping its extension, and its origin (copied when a file of
// the old id stays). 400 invalidName (field
// from or to) for a name no icon can have, 404 notFound when `from` names no file, 409 nameTaken
// (field to) when `to` is taken, 507 when Storage has no room for the copies (Storage cannot
// rename: a file is copied under its new name, then the old one erased).
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import type { Failure } from "../core/failure";
import { failure, isFailure } from "../core/failure";
import { checkName, existing, notFound } from "./names";
import { publish, removeFile, storedSource } from "./store";
import { iconId, openOrigins } from "./origins";

const EXTS = [".gif", ".jpg"];

/** The icon id a rename names in `field`, and the extension it was given with ("" for none). */
function idOf(value: unknown, field: string): { id: string; ext: string } | Failure {
  if (typeof value !== "string") return failure(400, "invalidName", field + " must be an icon name", field);
  const id = iconId(value);
  const bad = checkName("/ICONS", id + ".gif", field);
  if (bad) return bad.code === "invalidPath" ? failure(400, "invalidName", field + " must be an icon name", field) : bad;
  return { id: id, ext: id === value ? "" : value.substr(id.length) };
}

const rename: Handler = (req) => {
  const body = (req.body && typeof req.body === "object" ? req.body : {}) as { from?: unknown; to?: unknown };
  const from = idOf(body.from, "from");
  if (isFailure(from)) return from;
  const to = idOf(body.to, "to");
  if (isFailure(to)) return to;
  const exts = from.ext ? [from.ext] : EXTS;
  const moving: string[] = [];
  for (let i = 0; i < exts.length; i++) if (existing("/ICONS", from.id + exts[i])) moving.push(exts[i]);
  if (moving.length === 0) return notFound();
  if (to.ext && (moving.length > 1 || to.ext !== moving[0])) {
    return failure(400, "invalidName", "a renamed icon keeps its extension", "to");
  }
  if (to.id === from.id) return ok();
  for (let i = 0; i < EXTS.length; i++) {
    if (existing("/ICONS", to.id + EXTS[i])) return failure(409, "nameTaken", "an icon of that name exists", "to");
  }
  for (let i = 0; i < moving.length; i++) {
    const oldName = from.id + moving[i];
    const stored = existing("/ICONS", oldName);
    const src = storedSource(stored);
    const out = src ? publish("/ICONS", to.id + moving[i], src) : notFound();
    if (out) return out;
    removeFile("/ICONS", oldName, stored);
  }
  const origins = openOrigins();
  if (origins.map[from.id] !== undefined) {
    origins.map[to.id] = origins.map[from.id];
    // An id that keeps a file keeps its origin too.
    if (!existing("/ICONS", from.id + ".gif") && !existing("/ICONS", from.id + ".jpg")) delete origins.map[from.id];
    if (!origins.save()) return failure(500, "storageError", "icon links could not be saved");
  }
  return ok();
};
export default rename;
