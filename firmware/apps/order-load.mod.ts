// At boot: the arrangement kept in flash, put in force before the first frame; true when there was
// one (the loop then re-reads its rotation).
import type { AppLoop } from "./loop";
import { loadArrangement } from "./arrangement";

const restoreOrder = (loop: AppLoop): boolean => {
  const a = loadArrangement();
  if (!a) return false;
  loop.order = a.order;
  loop.off = a.disabled;
  return true;
};
export default restoreOrder;
