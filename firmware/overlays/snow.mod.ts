// snow: bright and dim grey flakes rocking sideways as they fall, 7 steps a second.
import type { EffectModule } from "../effects/types";
import { fall } from "./weather";

const snow: EffectModule = {
  // Tones (weather.ts: dim, middle, bright): dim and bright grey flakes; the middle one unused.
  stock: "787882@0 787882@30 AAAAB4@40 AAAAB4@60 F0F0F0@70 F0F0F0@100",
  // weather.ts fall: 7 steps a second, no tail, plumb, flakes, a wait of up to 4 steps, 205
  // cycles in 256 with a flake, its seed, no lightning.
  make: (w, h) => fall(w, h, 7, 0, 0, true, 4, 205, 0x540, false),
};
export default snow;
