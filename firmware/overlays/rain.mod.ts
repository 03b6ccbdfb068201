// rain: scattered blue drops falling plumb with short darker tails, about a third of the columns
// wet at a time, 15 steps a second (half a second across the panel).
import type { EffectModule } from "../effects/types";
import { fall } from "./weather";

const rain: EffectModule = {
  // Tones (weather.ts: dim, middle, bright): dim unused, the tails' darker blue, the heads' blue.
  stock: "0A1E50@0 0A1E50@30 1E4696@40 1E4696@60 3C8CFF@70 3C8CFF@100",
  // weather.ts fall: 15 steps a second, 2 rows of tail, plumb, drops (not flakes), a wait of up to
  // 3 steps, 220 cycles in 256 with a drop, its seed, no lightning.
  make: (w, h) => fall(w, h, 15, 2, 0, false, 3, 220, 0x5a1, false),
};
export default rain;
