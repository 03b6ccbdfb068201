// PATCH /api/v1/display: power, brightness (the stored setting), overlay and overlaySettings;
// all or nothing.
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { invalid } from "../core/failure";
import { isInteger } from "../core/number";
import { applyOverlayPatch } from "./overlay";
import type { OverlayState } from "./overlay";
import { patchSettings } from "../settings/patch";

const patchDisplay: Handler = (req, app) => {
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
    const saved = patchSettings(app.settings, { body: { brightness: b.brightness } });
    if (saved) return saved;
  }
  if ("overlay" in b || "overlaySettings" in b) app.display.setOverlay(next);
  if ("power" in b) app.runtime.matrixPower = b.power as boolean;
  return ok();
};
export default patchDisplay;
