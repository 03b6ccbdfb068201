// Rain: every column rolls the new page in from the top (reverse: from the bottom), in a fixed
// shuffled order. Columns not started or landed come through a rank mask in one go (see
// reveal.ts: a column is a tile, ranked by its start slot); only the few on their way are drawn
// one by one. A column takes long enough to roll visibly, short enough that about eight are on
// their way at once on any width.
import type { MakeTransition } from "../transitions";
import { unclip } from "./common";
import { reached } from "./columns";
import { makeReveal, settle, revealBelow, LEVELS, type RankMaking } from "./reveal";

const rain: MakeTransition = (w, h, scratch) => {
  // The order of the columns is the reveal's (a column is a tile): order[s] - 1 starts in slot s.
  const r = makeReveal(w, h, 1, h, 0x51ed270b, scratch);
  const order = (r.making as RankMaking).order;
  const fall = 8 / (w + 8);
  const rate = (w - 1) / (1 - fall);
  return {
    prepare: () => settle(r),
    draw: (out, from, to, t, reverse) => {
      const landed = reached(t, w, fall, rate, (h - 0.5) / h);
      const started = reached(t, w, fall, rate, 0.5 / h);
      revealBelow(out, from, to, r, landed < w ? Math.floor((landed * LEVELS) / w) : LEVELS);
      if (started === landed) return;
      const dir = reverse ? -1 : 1;
      // Rows rolled by slot s: round(h * (t - s / rate) / fall), as at + s * ds.
      const at = (t * h) / fall;
      const ds = -h / (fall * rate);
      for (let s = landed; s < started; s++) {
        const d = Math.round(at + s * ds);
        const x = order[s] - 1;
        out.setClipRect(x, 0, x, h - 1);
        out.drawImage(to, 0, dir * (d - h));
        out.drawImage(from, 0, dir * d);
      }
      unclip(out, from);
    },
  };
};
export default rain;
