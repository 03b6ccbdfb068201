// At boot: the arrangement kept in flash, put in force before the first frame.
import type { AppLoop } from "./loop";
import { loadArrangement } from "./arrangement";

const restoreOrder = (loop: AppLoop): void => {
  const a = loadArrangement();
  if (!a) return;
  loop.order = a.order;
  loop.off = a.disabled;
  loop.refresh();
};
export default restoreOrder;
