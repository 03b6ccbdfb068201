// Display routes: power and overlay, the mood light, the screen capture, the indicators.
import type { App } from "../app";
import type { ApiRequest, Reply, Route } from "../http/types";
import type { Failure } from "../core/failure";
import { failure, invalid } from "../core/failure";
import { json, ok } from "../http/types";
import { nowMs } from "../platform/system";
import { Indicators } from "./indicators";
import { applyOverlayPatch } from "./overlay";
import type { OverlayState } from "./overlay";
import { isInteger } from "../system/validate";

function displayView(app: App): object {
  const d = app.display;
  const o = d.overlay;
  return {
    power: app.runtime.matrixPower,
    brightness: app.runtime.brightness,
    overlay: o.name,
    overlaySettings: { speed: o.speed, palette: o.palette, blend: o.blend },
    moodlight: d.moodlight.view(),
  };
}

/** power, brightness (the stored setting), overlay and overlaySettings; all or nothing. */
function patchDisplay(req: ApiRequest, app: App): Reply | Failure {
  const body = req.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return invalid("body", "must be a JSON object");
  const b = body as { [k: string]: unknown };
  if ("power" in b && typeof b.power !== "boolean") return invalid("power", "must be a boolean");
  if ("brightness" in b) {
    if (!isInteger(b.brightness)) return invalid("brightness", "must be an integer");
    if (b.brightness < 0 || b.brightness > 255) return invalid("brightness", "out of range");
  }
  const cur = app.display.overlay;
  const next: OverlayState = { name: cur.name, speed: cur.speed, palette: cur.palette, blend: cur.blend };
  const bad = applyOverlayPatch(b, next);
  if (bad) return bad;
  if ("brightness" in b) {
    const saved = app.settings.patch({ brightness: b.brightness });
    if (saved) return saved;
  }
  app.display.overlay = next;
  if ("power" in b) app.runtime.matrixPower = b.power as boolean;
  return ok();
}

function indicatorSlot(params: { [name: string]: string }): Failure | null {
  return Indicators.slotOf(params.id) < 0 ? failure(404, "notFound", "indicator id must be 1..3") : null;
}

export const displayRoutes: Route[] = [
  {
    path: "/api/v1/display",
    methods: {
      GET: { handler: (req, app) => json(displayView(app)) },
      PATCH: { handler: patchDisplay },
    },
  },
  {
    path: "/api/v1/display/moodlight",
    methods: {
      PUT: {
        emptyBody: "pass",
        handler: (req, app) => app.display.moodlight.apply(req.body) || ok(),
      },
      DELETE: {
        maxBody: 0,
        handler: (req, app) => {
          app.display.moodlight.off();
          return ok();
        },
      },
    },
  },
  {
    path: "/api/v1/display/screen",
    methods: {
      GET: {
        handler: (req, app) => ({ status: 200, text: app.display.engine.screenJson(nowMs()), contentType: "application/json" }),
      },
    },
  },
  {
    path: "/api/v1/indicators/{id}",
    checkParams: indicatorSlot,
    methods: {
      PUT: {
        emptyBody: "pass",
        handler: (req, app) => app.display.indicators.apply(Indicators.slotOf(req.params.id), req.body) || ok(),
      },
      DELETE: {
        maxBody: 0,
        handler: (req, app) => {
          app.display.indicators.reset(Indicators.slotOf(req.params.id));
          return ok();
        },
      },
    },
  },
];
