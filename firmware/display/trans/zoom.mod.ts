// Zoom: the new page grows from the centre over the old one, scaled with t.
import type { MakeTransition } from "../transitions";

const zoom: MakeTransition = () => {
  // Reused by every frame.
  const options: DrawImageOptions = { scale: 1 };
  return {
    draw: (out, from, to, t) => {
      out.drawImage(from, 0, 0);
      // drawImage takes a scale of 0 as 1, and a scaled draw may land a pixel off the unscaled one.
      if (t <= 0) return;
      if (t >= 1) {
        out.drawImage(to, 0, 0);
        return;
      }
      const w = from.width;
      const h = from.height;
      // drawImage steps through the image by 256 / scale, cut to a whole number: a scale of
      // 256 / (n + 1/2) keeps that step clear of the cut, so no build's rounding can move it.
      const s = 256 / (Math.floor(256 / t) + 0.5);
      options.scale = s;
      out.drawImage(to, Math.round((w - s * w) / 2), Math.round((h - s * h) / 2), options);
    },
  };
};
export default zoom;
