// Lifetimes that ran out (the loop calls this outside frames when the soonest one is due): an app
// with lifetimeExpiry remove leaves the loop; one with mark stays, framed as stale. The soonest
// lifetime still running is handed back to the loop, and whether an app left it (the loop then
// re-reads its rotation).
import type { AppLoop } from "./loop";
import type { PushedApp } from "./payload-app";

const expire = (loop: AppLoop): boolean => {
  const now = loop.life;
  const apps = loop.apps;
  let soonest = Infinity;
  let gone = false;
  for (let i = apps.length - 1; i >= 0; i--) {
    const a = apps[i] as PushedApp;
    if (a.origin !== "pushed" || a.ex === undefined) continue;
    const end = Math.abs(a.ex);
    if (end > now) {
      if (end < soonest) soonest = end;
    } else if (a.ex > 0) {
      a.release();
      apps.splice(i, 1);
      gone = true;
    } else {
      delete a.ex;
      a.mk = 1;
      // A page in memory is made again, framed.
      if (a.page) {
        a.release();
        a.load();
      }
    }
  }
  loop.expires = soonest;
  return gone;
};
export default expire;
