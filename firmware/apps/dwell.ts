// How long a pushed app or a notification stays on screen: the same rule for both, asked in every
// frame. durationMs and repeat arrive already checked (0 means "not given").
import type { FrameContext } from "./types";
import type { PayloadPage } from "../payload/stored";

/**
 * Whether the page's time is up at f.shownMs. With `repeat` and text that moves, the passes
 * decide (and a durationMs of its own is the least it stays); otherwise its durationMs, else the
 * global appDurationMs.
 */
export function timeUp(f: FrameContext, appDurationMs: number, durationMs: number, repeat: number,
  page: PayloadPage | undefined): boolean {
  const passes = repeat > 0 && page ? page.passes(f) : -1;
  if (passes >= 0) return passes >= repeat && f.shownMs >= durationMs;
  return f.shownMs >= (durationMs > 0 ? durationMs : appDurationMs);
}
