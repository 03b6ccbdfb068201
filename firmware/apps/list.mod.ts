// GET /api/v1/apps: the arranged names first, one entry per place in the order (a name may wait
// for its app), then the other apps in the default order, then switched-off names of apps that
// are not here. Without an arrangement the rotation's places are the slots.
import type { Handler } from "../http/types";
import { json } from "../http/types";
import type { AppLoop } from "./loop";
import type { LoopApp } from "./types";
import type { PushedApp } from "./payload-app";
import { payloadFields } from "../payload/stored";
import { findApp } from "./find-app";
import { isPresent } from "./present";

interface Entry {
  name: string;
  enabled: boolean;
  inLoop: boolean;
  slot: number | null;
  present: boolean;
  origin: string | null;
  icon?: string;
}

function entry(loop: AppLoop, name: string, a: LoopApp | null, slot: number | null): Entry {
  const enabled = loop.off.indexOf(name) < 0;
  const e: Entry = { name, enabled, inLoop: !!a && enabled, slot, present: !!a, origin: a ? a.origin : null };
  if (a && a.origin === "pushed") {
    const icon = payloadFields((a as PushedApp).p).icon;
    if (icon) e.icon = icon;
  }
  return e;
}

const listApps: Handler = (req, app) => {
  const loop = app.display.loop;
  const order = loop.order;
  const out: Entry[] = [];
  if (order) {
    for (const name of order) {
      const a = findApp(loop, name);
      // A built-in whose hardware is missing cannot be arranged: it does not exist.
      if (a && !isPresent(a)) continue;
      out.push(entry(loop, name, a, out.length));
    }
  }
  const members = loop.rotation;
  for (const a of loop.apps) {
    if (!isPresent(a) || (order && order.indexOf(a.name) >= 0)) continue;
    const at = order ? -1 : members.indexOf(a);
    out.push(entry(loop, a.name, a, at >= 0 ? at : null));
  }
  for (const name of loop.off) {
    if (!findApp(loop, name) && (!order || order.indexOf(name) < 0)) out.push(entry(loop, name, null, null));
  }
  return json(out);
};
export default listApps;
