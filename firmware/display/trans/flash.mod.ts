// Flash: the old page ramps into solid white and the new one ramps out of it. White is the colour
// selected on `out` when the draw starts (the render loop selects its graded white there); it is
// scaled by how far the flash has come and lies under the page, dimmed as much, until it outshines
// it.
import type { MakeTransition } from "../transitions";
import { Dimmer, seeThrough, seeThroughView } from "./fading";

const flash: MakeTransition = (w, h, scratch) => {
  const old = new Dimmer(w, h);
  const fresh = new Dimmer(w, h, scratch);
  const over = seeThroughView();
  return {
    draw: (out, from, to, t) => {
      const white = out.getColor();
      const glow = t < 0.5 ? 2 * t : 2 - 2 * t;
      const r = Math.round(((white >> 16) & 255) * glow);
      const g = Math.round(((white >> 8) & 255) * glow);
      const b = Math.round((white & 255) * glow);
      out.setColor((r << 16) | (g << 8) | b);
      out.fillRect(0, 0, from.width - 1, from.height - 1);
      if (glow < 0.5) out.drawImage(seeThrough(over, t < 0.5 ? old.dim(from, 1 - glow) : fresh.dim(to, 1 - glow)), 0, 0);
    },
  };
};
export default flash;
