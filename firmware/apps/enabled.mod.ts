// PUT /api/v1/apps/{name}/enabled: the body true or false switches one app on or off, as naming it
// in (or leaving it out of) the disabled list does; kept in flash like the order. The name may
// wait for its app.
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { failure, invalid } from "../core/failure";
import { LIST_MAX, saveArrangement } from "./arrangement";
import type RefreshLoop from "./refresh.mod";
import { loadModule } from "../platform/modules";

const putEnabled: Handler = (req, app) => {
  const on = req.body;
  if (typeof on !== "boolean") return invalid("enabled", "must be true or false");
  const loop = app.display.loop;
  const name = req.params.name;
  const at = loop.off.indexOf(name);
  if (on && at >= 0) loop.off.splice(at, 1);
  if (!on && at < 0) {
    if (loop.off.length >= LIST_MAX) return invalid("enabled", "at most " + LIST_MAX + " apps can be switched off");
    loop.off.push(name);
  }
  loadModule<typeof RefreshLoop>("apps/refresh")(loop);
  return saveArrangement(loop) ? ok() : failure(507, "insufficientStorage", "the change is in force but could not be saved");
};
export default putEnabled;
