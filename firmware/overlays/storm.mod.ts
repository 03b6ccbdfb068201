// storm: dense streaks with long tails, slanted by the wind a column for every three rows,
// 25 steps a second.
import type { EffectModule } from "../effects/types";
import { Fall } from "./weather";

const storm: EffectModule = {
  // Tones (weather.ts tone): dim unused, the tails' blue, the heads' pale blue.
  stock: "1E2D5A@0 1E2D5A@30 32508C@40 32508C@60 96B4F0@70 96B4F0@100",
  make: (w, h) => new Fall(w, h, { rate: 25, tail: 3, slant: 3, flakes: false, spare: 1, chance: 230, seed: 0x570 }),
};
export default storm;
