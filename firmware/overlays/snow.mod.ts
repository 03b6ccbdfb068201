// snow: bright and dim grey flakes rocking sideways as they fall, 7 steps a second.
import type { EffectModule } from "../effects/types";
import { Fall } from "./weather";

const snow: EffectModule = {
  // Tones (weather.ts tone): dim and bright grey flakes; the middle one unused.
  stock: "787882@0 787882@30 AAAAB4@40 AAAAB4@60 F0F0F0@70 F0F0F0@100",
  make: (w, h) => new Fall(w, h, { rate: 7, tail: 0, slant: 0, flakes: true, spare: 4, chance: 205, seed: 0x540 }),
};
export default snow;
