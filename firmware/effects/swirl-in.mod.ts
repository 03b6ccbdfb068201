// SwirlIn: dots streaming along a spiral from the page's edge into its middle (see swirl.ts).
import type { EffectModule } from "./types";
import { makeSwirl } from "./swirl";
import { HUE_WHEEL } from "./pace";

const swirlIn: EffectModule = {
  stock: HUE_WHEEL,
  make: (w, h) => makeSwirl(w, h, true),
};
export default swirlIn;
