// DELETE /api/v1/notifications/active: the notification on screen ends (a held one too), and the
// next one comes; fine when none is shown.
import type { Handler } from "../http/types";
import { ok } from "../http/types";

const dismiss: Handler = (req, app) => {
  const q = app.display.notices;
  q.drop(0);
  q.prepare();
  return ok();
};
export default dismiss;
