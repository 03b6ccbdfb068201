// Path matching over the route table. Routes are tried in table order, so literal paths that
// share a prefix with a `{param}` route must come first.
import type { Route, Method } from "./types";

export interface RouteMatch { route: Route; params: { [name: string]: string } }

export function matchRoute(routes: Route[], path: string): RouteMatch | null {
  const parts = path.split("/");
  for (const route of routes) {
    const pattern = route.path.split("/");
    if (pattern.length !== parts.length) continue;
    const params: { [name: string]: string } = {};
    let matched = true;
    for (let i = 0; i < pattern.length; i++) {
      const seg = pattern[i];
      if (seg.charAt(0) === "{") params[seg.substr(1, seg.length - 2)] = parts[i];
      else if (seg !== parts[i]) { matched = false; break; }
    }
    if (matched) return { route, params };
  }
  return null;
}

/** "GET, PUT": the order methods are written in the route table. */
export function allowedMethods(route: Route): string {
  return Object.keys(route.methods).join(", ");
}

export function methodOf(route: Route, method: string): Method | null {
  return Object.prototype.hasOwnProperty.call(route.methods, method) ? method as Method : null;
}
