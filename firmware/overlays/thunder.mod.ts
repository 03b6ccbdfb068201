// thunder: a storm, and now and then lightning: the whole panel flashes white, a few seconds
// apart at irregular moments, sometimes twice in quick succession (weather.ts flashing). The
// flash is white whatever the palette; the streaks take its colours as the storm's do.
import type { EffectModule } from "../effects/types";
import { Fall, flashing } from "./weather";

const thunder: EffectModule = {
  // The storm's tones (weather.ts tone).
  stock: "1E2D5A@0 1E2D5A@30 32508C@40 32508C@60 96B4F0@70 96B4F0@100",
  make: (w, h) => {
    const storm = new Fall(w, h, { rate: 25, tail: 3, slant: 3, flakes: false, spare: 1, chance: 230, seed: 0x7d0 });
    return {
      draw: (g, t, ink) => {
        storm.draw(g, t, ink);
        if (!flashing(t)) return;
        g.setColor(ink.rgb(0xffffff));
        g.fillRect(0, 0, w - 1, h - 1);
      },
    };
  },
};
export default thunder;
