// The web page at `/`.
import type { Route } from "../http/types";

export const webRoutes: Route[] = [{ path: "/", methods: { GET: { setup: true, maxBody: 0, handler: "web/page" } } }];
