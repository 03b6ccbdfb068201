// storm: dense streaks with long tails, slanted by the wind a column for every three rows,
// 25 steps a second.
import type { EffectModule } from "../effects/types";
import { fall } from "./weather";

const storm: EffectModule = {
  // Tones (weather.ts: dim, middle, bright): dim unused, the tails' blue, the heads' pale blue.
  stock: "1E2D5A@0 1E2D5A@30 32508C@40 32508C@60 96B4F0@70 96B4F0@100",
  // weather.ts fall: 25 steps a second, 3 rows of tail, a column of drift every 3 rows, drops
  // (not flakes), a wait of up to 1 step, 230 cycles in 256 with a drop, its seed, no lightning.
  make: (w, h) => fall(w, h, 25, 3, 3, false, 1, 230, 0x570, false),
};
export default storm;
