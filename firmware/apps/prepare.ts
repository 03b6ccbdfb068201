// Which pages of the loop are in memory (see loop.ts), worked out outside frames: after a frame
// that landed a page or found the change near (the loop runs the module apps/prepare then), and in
// the modules that move the loop or change its apps, which carry their own copy. None of it is
// resident: it runs a few times a page, never inside a frame.
import type { AppLoop } from "./loop";
import type { LoopApp } from "./types";
import type Expire from "./expire.mod";
import type RefreshLoop from "./refresh.mod";
import { loadModule } from "../platform/modules";
import { log } from "../logs/log";

/** Releases every app's page but those of `a` and `b`. */
export function keepOnly(loop: AppLoop, a: LoopApp | null, b: LoopApp | null): void {
  const apps = loop.apps;
  for (let i = 0; i < apps.length; i++) {
    const app = apps[i];
    if (app !== a && app !== b && app.release) app.release();
  }
}

/**
 * The first page from index `from` in steps of `delta` whose page can be loaded, loaded; -1 when
 * there is none. Outside transitions only: each candidate is loaded after every page but the one
 * on screen was released, so no more than two are ever in memory.
 */
export function seek(loop: AppLoop, from: number, delta: number): number {
  const n = loop.rotation.length;
  const cur = loop.selected();
  for (let k = 1; k < n; k++) {
    const i = (((from + k * delta) % n) + n) % n;
    const app = loop.rotation[i];
    keepOnly(loop, cur, app);
    if (!app.load || app.load()) return i;
  }
  keepOnly(loop, cur, null);
  return -1;
}

/**
 * Releases the pages that left, loads the page on screen, and, once the change is near, chooses
 * and loads the one to come next (skipping apps whose page cannot be loaded). Calling it again
 * changes nothing.
 */
export function prepareLoop(loop: AppLoop): void {
  if (loop.life >= loop.expires) {
    // Lifetimes ran out: a module removes or marks the apps (seldom needed). Not again at every
    // frame should the module be missing.
    loop.expires = Infinity;
    try {
      if (loadModule<typeof Expire>("apps/expire")(loop)) loadModule<typeof RefreshLoop>("apps/refresh")(loop);
    } catch (e) {
      log("lifetimes: " + e);
    }
  }
  if (loop.cover) loop.cover.prepare();
  const cur = loop.selected();
  const inc = loop.target >= 0 ? loop.rotation[loop.target] : null;
  if (cur && cur.load) cur.load();
  // Choosing the next page releases the others first (a page that comes next again, as in a
  // loop of two, stays loaded).
  if (!inc && loop.ahead < 0 && loop.soon) loop.ahead = seek(loop, loop.index, 1);
  keepOnly(loop, cur, inc || loop.upcoming());
}
