// SwirlOut: dots streaming along a spiral from the page's middle out to its edge (see swirl.ts).
import type { EffectModule } from "./types";
import { makeSwirl } from "./swirl";
import { HUE_WHEEL } from "./pace";

const swirlOut: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => makeSwirl(w, h, false),
};
export default swirlOut;
