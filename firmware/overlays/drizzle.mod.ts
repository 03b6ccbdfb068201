// drizzle: fine mist, sparse bare flecks of a lighter blue with no tail, 10 steps a second.
import type { EffectModule } from "../effects/types";
import { Fall } from "./weather";

const drizzle: EffectModule = {
  // Tones (weather.ts tone): only the bright one, a light blue.
  stock: "3C6E96@0 3C6E96@30 6496C8@40 6496C8@60 A0D2FF@70 A0D2FF@100",
  make: (w, h) => new Fall(w, h, { rate: 10, tail: 0, slant: 0, flakes: false, spare: 6, chance: 140, seed: 0xd71 }),
};
export default drizzle;
