// GET /api/v1/capabilities: the names this build accepts and the sound outputs and pin rules of
// this device.
import type { App } from "../app";
import { gpioCapabilities } from "../system/pins";
import { EFFECTS, OVERLAYS, PALETTES, TRANSITIONS } from "./names";

export function capabilities(app: App): object {
  const cfg = app.system.config;
  return {
    effects: EFFECTS,
    transitions: TRANSITIONS,
    overlays: OVERLAYS,
    palettes: PALETTES,
    audio: {
      buzzer: cfg.pinBuzzer >= 0,
      track: !!cfg.modulePlayer && cfg.pinModuleRx >= 0 && cfg.pinModuleTx >= 0,
      // Stored MP3 and internet radio need an I2S output, which Espruino does not offer on the
      // ESP32 or the ESP32-S3: both are unavailable whatever the pin map says.
      mp3: false,
      radio: false,
    },
    gpio: gpioCapabilities(app.board, app.system.chip()),
  };
}
