// The web page at `/`. Its HTML lives in a Storage file written when the firmware is flashed, so
// the page costs no interpreter memory until it is served.
import type { Route } from "../http/types";
import { failure } from "../core/failure";
import { flash } from "../platform/flash";

/** Storage name of the page. */
export const PAGE_FILE = "index.html";

export const webRoutes: Route[] = [
  {
    path: "/",
    methods: {
      GET: {
        setup: true,
        maxBody: 0,
        handler: () => {
          const page = flash.read(PAGE_FILE);
          if (page === undefined) return failure(404, "notFound", "file not found");
          return { status: 200, text: page, contentType: "text/html; charset=utf-8" };
        },
      },
    },
  },
];
