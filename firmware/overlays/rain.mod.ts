// rain: scattered blue drops falling plumb with short darker tails, about a third of the columns
// wet at a time, 15 steps a second (half a second across the panel).
import type { EffectModule } from "../effects/types";
import { Fall } from "./weather";

const rain: EffectModule = {
  // Tones (weather.ts tone): dim unused, the tails' darker blue, the heads' blue.
  stock: "0A1E50@0 0A1E50@30 1E4696@40 1E4696@60 3C8CFF@70 3C8CFF@100",
  make: (w, h) => new Fall(w, h, { rate: 15, tail: 2, slant: 0, flakes: false, spare: 3, chance: 220, seed: 0x5a1 }),
};
export default rain;
