// Moving the loop from outside frames (a request, a button): a page forward or back, or an app
// by name. The page brought on screen is loaded here, not in a frame.
import type { AppLoop } from "./loop";
import { keepOnly, prepareLoop, seek } from "./prepare";

/** A request during a transition lands the incoming page first and moves on from there. */
function settle(loop: AppLoop, now: number): void {
  if (loop.target >= 0) loop.land(loop.target, now);
}

/** Brings the named app on screen; false when no app in the rotation has that name. */
export function activateApp(loop: AppLoop, name: string, now: number, fast: boolean): boolean {
  const rotation = loop.rotation;
  for (let i = 0; i < rotation.length; i++) {
    const app = rotation[i];
    if (app.name !== name) continue;
    settle(loop, now);
    if (i !== loop.index) {
      // Asked for by name, it comes even when its page cannot be loaded (it shows blank).
      keepOnly(loop, loop.selected(), app);
      if (app.load) app.load();
      loop.go(i, now, fast, false);
    }
    prepareLoop(loop);
    return true;
  }
  return false;
}

/**
 * One page forward (delta 1) or back (-1), past pages that cannot be loaded; back plays the
 * transition the other way.
 */
export function stepLoop(loop: AppLoop, delta: number, now: number, fast: boolean): void {
  if (loop.rotation.length < 2) return;
  settle(loop, now);
  const to = seek(loop, loop.index, delta);
  if (to >= 0) loop.go(to, now, fast, delta < 0);
  prepareLoop(loop);
}
