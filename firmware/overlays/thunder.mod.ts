// thunder: a storm, and now and then lightning: the whole panel flashes white, a few seconds
// apart at irregular moments, sometimes twice in quick succession (weather.ts flashing). The
// flash is white whatever the palette; the streaks take its colours as the storm's do.
import type { EffectModule } from "../effects/types";
import { fall } from "./weather";

const thunder: EffectModule = {
  // The storm's tones (weather.ts: dim, middle, bright).
  stock: "1E2D5A@0 1E2D5A@30 32508C@40 32508C@60 96B4F0@70 96B4F0@100",
  // The storm's fall (its own seed), with lightning.
  make: (w, h) => fall(w, h, 25, 3, 3, false, 1, 230, 0x7d0, true),
};
export default thunder;
