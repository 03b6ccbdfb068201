// DELETE /api/v1/apps/{name}: the pushed app of that name and the apps an array push to that name
// made ({name}0, {name}1, ...; an app pushed to such a name directly is its own). Built-ins stay;
// a name that names nothing is fine too. The arrangement keeps the name's place.
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import type { PushedApp } from "./payload-app";
import type RefreshLoop from "./refresh.mod";
import { loadModule } from "../platform/modules";

const removeApp: Handler = (req, app) => {
  const name = req.params.name;
  const loop = app.display.loop;
  const apps = loop.apps;
  let gone = false;
  for (let i = apps.length - 1; i >= 0; i--) {
    const a = apps[i] as PushedApp;
    if (a.origin !== "pushed") continue;
    if (a.name !== name && !(a.fam && a.name.substr(0, a.fam) === name)) continue;
    a.release();
    apps.splice(i, 1);
    gone = true;
  }
  if (gone) loadModule<typeof RefreshLoop>("apps/refresh")(loop);
  return ok();
};
export default removeApp;
