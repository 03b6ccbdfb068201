// Which apps take turns, worked out outside frames (boot, requests) from the arrangement and the
// apps present; see loop.ts for what the loop keeps.
import type { AppLoop } from "./loop";
import type { LoopApp } from "./types";
import { findApp } from "./find-app";
import { prepareLoop } from "./prepare";
import { isPresent } from "./present";

/**
 * Re-reads which apps take turns (after a change of apps, arrangement or hardware); the page on
 * screen, and one arriving, stay where they are when they still take turns. Runs outside frames
 * (boot, requests): the pages on screen and next are loaded, or with `soon` right after (a
 * request that pushed a large payload has then let go of its parsed body).
 */
const refreshLoop = (loop: AppLoop, soon?: boolean): void => {
  const current = loop.selected();
  const arriving = loop.target >= 0 ? loop.rotation[loop.target] : null;
  const order = loop.order || [];
  const next: LoopApp[] = [];
  const off = loop.off;
  for (let i = 0; i < order.length; i++) {
    const app = findApp(loop, order[i]);
    if (app && isPresent(app) && off.indexOf(app.name) < 0) next.push(app);
  }
  for (let i = 0; i < loop.apps.length; i++) {
    const app = loop.apps[i];
    if (isPresent(app) && off.indexOf(app.name) < 0 && order.indexOf(app.name) < 0) next.push(app);
  }
  const old = loop.index;
  loop.rotation = next;
  loop.ahead = -1;
  const at = current ? next.indexOf(current) : -1;
  // A page that left the rotation gives its place to the one that followed it.
  loop.index = at >= 0 ? at : old < next.length ? old : 0;
  if (at < 0) {
    loop.shownAt = NaN;
    loop.soon = false;
  }
  const to = arriving && at >= 0 ? next.indexOf(arriving) : -1;
  loop.target = to !== loop.index ? to : -1;
  if (soon) loop.later();
  else prepareLoop(loop);
};
export default refreshLoop;
