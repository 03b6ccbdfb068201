// The app loop over HTTP: the inventory, stepping, and choosing the page on screen.
import type { App } from "../app";
import type { ApiRequest, Reply, Route } from "../http/types";
import type { Failure } from "../core/failure";
import { failure } from "../core/failure";
import { json, ok } from "../http/types";
import { nowMs } from "../platform/system";
import { parseJson } from "../core/json";

/** GET /api/v1/apps: the rotation in order, then the apps not in it. */
function listApps(app: App): object[] {
  const loop = app.display.loop;
  const members = loop.members();
  const out: object[] = [];
  for (let i = 0; i < members.length; i++) {
    const a = members[i];
    out.push({ name: a.name, enabled: true, inLoop: true, slot: i, present: true, origin: a.origin });
  }
  return out;
}

/**
 * {name, fast?}; a body that does not start with a brace is the name itself, and so is one whose
 * JSON does not parse (which then names no app).
 */
function activate(req: ApiRequest, app: App): Reply | Failure {
  const raw = req.raw.trim();
  let name: unknown = raw;
  let fast = false;
  const parsed = raw.charAt(0) === "{" ? parseJson(raw) : null;
  if (parsed && typeof parsed.value === "object" && parsed.value !== null) {
    const o = parsed.value as { name?: unknown; fast?: unknown };
    name = o.name;
    fast = o.fast === true;
  }
  if (typeof name !== "string" || !app.display.loop.activate(name, nowMs(), fast)) {
    return failure(404, "notFound", "app not found");
  }
  return ok();
}

/** POST that moves the loop one page forward (1) or back (-1), with the transition. */
function stepRoute(path: string, step: number): Route {
  return {
    path,
    methods: {
      POST: {
        maxBody: 0,
        handler: (req, app) => {
          app.display.loop.step(step, nowMs(), false);
          return ok();
        },
      },
    },
  };
}

export const appRoutes: Route[] = [
  {
    path: "/api/v1/apps",
    methods: { GET: { handler: (req, app) => json(listApps(app)) } },
  },
  {
    path: "/api/v1/apps/active",
    methods: { PUT: { rawBody: true, handler: activate } },
  },
  stepRoute("/api/v1/apps/next", 1),
  stepRoute("/api/v1/apps/previous", -1),
];
