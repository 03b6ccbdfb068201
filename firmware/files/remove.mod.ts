// DELETE /api/v1/files?path=/<folder>/<name>: removes one file. 400 invalidPath for a path
// outside the four folders (or with ".."), 404 notFound when there is no such file.
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { isFailure } from "../core/failure";
import { existing, notFound, parsePath } from "./names";
import { removeFile, storageFull } from "./store";
import { iconId, openOrigins } from "./origins";

const remove: Handler = (req) => {
  const target = parsePath(req.query.path);
  if (isFailure(target)) return target;
  const stored = existing(target.dir, target.name);
  if (!stored) return notFound();
  if (!removeFile(target.dir, target.name, stored)) return storageFull();
  if (target.dir === "/ICONS") {
    // The origin goes with the icon's last file.
    const id = iconId(target.name);
    const origins = openOrigins();
    const left = id !== target.name && (existing("/ICONS", id + ".gif") !== "" || existing("/ICONS", id + ".jpg") !== "");
    if (origins.map[id] !== undefined && !left) {
      delete origins.map[id];
      origins.save();
    }
  }
  return ok();
};
export default remove;
