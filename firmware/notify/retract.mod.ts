// DELETE /api/v1/notifications/{name}: every notification of that name ends, wherever it waits;
// one still waiting leaves unseen. 404 when none has it.
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { failure } from "../core/failure";

const retract: Handler = (req, app) => {
  const q = app.display.notices;
  const name = req.params.name;
  let found = false;
  for (let i = q.items.length - 1; i >= 0; i--) {
    if (q.items[i].p.n !== name) continue;
    q.drop(i);
    found = true;
  }
  if (!found) return failure(404, "notFound", "not found");
  q.prepare();
  return ok();
};
export default retract;
