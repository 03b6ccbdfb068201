// GET /api/v1/apps: the rotation in order, then the apps not in it.
import type { Handler } from "../http/types";
import { json } from "../http/types";

const listApps: Handler = (req, app) => {
  const members = app.display.loop.members();
  const out: object[] = [];
  for (let i = 0; i < members.length; i++) {
    const a = members[i];
    out.push({ name: a.name, enabled: true, inLoop: true, slot: i, present: true, origin: a.origin });
  }
  return json(out);
};
export default listApps;
