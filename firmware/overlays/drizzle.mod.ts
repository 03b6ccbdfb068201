// drizzle: fine mist, sparse bare flecks of a lighter blue with no tail, 10 steps a second.
import type { EffectModule } from "../effects/types";
import { fall } from "./weather";

const drizzle: EffectModule = {
  // Tones (weather.ts: dim, middle, bright): only the bright one, a light blue.
  stock: "3C6E96@0 3C6E96@30 6496C8@40 6496C8@60 A0D2FF@70 A0D2FF@100",
  // weather.ts fall: 10 steps a second, no tail, plumb, drops (not flakes), a wait of up to 6
  // steps, 140 cycles in 256 with a drop, its seed, no lightning.
  make: (w, h) => fall(w, h, 10, 0, 0, false, 6, 140, 0xd71, false),
};
export default drizzle;
