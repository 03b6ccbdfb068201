// GET /api/v1/display
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { moodlightView } from "./moodlight-apply";
import { paletteView } from "./overlay";

const getDisplay: Handler = (req, app) => {
  const d = app.display;
  const o = d.overlay;
  return json({
    power: app.runtime.matrixPower,
    brightness: app.runtime.brightness,
    overlay: o.name,
    overlaySettings: { speed: o.speed, palette: paletteView(o.palette), blend: o.blend },
    moodlight: moodlightView(d.moodlight),
  });
};
export default getDisplay;
