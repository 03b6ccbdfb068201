// PUT /api/v1/apps/order: {order?, disabled}. `order` replaces the arrangement (names may wait for
// their app; duplicates rotate twice); `disabled` switches apps off; a name in neither list keeps
// whether it was on. Applied, then kept in flash: a write that fails is 507, the change in force.
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { failure, isFailure } from "../core/failure";
import { nameList, saveArrangement } from "./arrangement";
import type RefreshLoop from "./refresh.mod";
import { loadModule } from "../platform/modules";

function unsaved() {
  return failure(507, "insufficientStorage", "the order is in force but could not be saved");
}

const putOrder: Handler = (req, app) => {
  const b = req.body as { order?: unknown; disabled?: unknown };
  if (typeof b !== "object" || b === null || Array.isArray(b) || b.disabled === undefined) {
    return failure(400, "invalidJson", "body must be an object with a disabled list");
  }
  const disabled = nameList(b.disabled, "disabled");
  if (isFailure(disabled)) return disabled;
  const order = b.order === undefined ? null : nameList(b.order, "order");
  if (isFailure(order)) return order;
  const loop = app.display.loop;
  // Named in order and not in disabled: switched on; named in neither: as it was.
  const off: string[] = [];
  for (const name of loop.off) if ((!order || order.indexOf(name) < 0) && off.indexOf(name) < 0) off.push(name);
  for (const name of disabled) if (off.indexOf(name) < 0) off.push(name);
  if (order) loop.order = order;
  loop.off = off;
  loadModule<typeof RefreshLoop>("apps/refresh")(loop);
  return saveArrangement(loop) ? ok() : unsaved();
};
export default putOrder;
