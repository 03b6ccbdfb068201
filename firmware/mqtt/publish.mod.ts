// The payloads of the state topics, built and published for what MqttState has pending, in the
// order of its bits. Loaded for each publish and dropped after: the builders (device state,
// settings, capabilities) cost memory only while a payload is made.
import type { MqttState } from "./state";
import type Discovery from "./discovery.mod";
import { ACTIVE_APP, BUTTONS, CAPABILITIES, DEVICE, DISCOVERY, PREFIX, SETTINGS, WATCH_MS } from "./topics";
import { toJson } from "../core/json";
import { deviceState } from "../device/state";
import { capabilities } from "../device/capabilities";
import { publicSettings } from "../settings/schema";
import { loadModule } from "../platform/modules";
import { nowMs } from "../platform/system";

/** state/capabilities as the MQTT reference lists it: the sound outputs come down to `radio`. */
function capabilitiesJson(st: MqttState): string {
  const c = capabilities(st.app) as { [key: string]: unknown; audio: { radio: boolean } };
  const out: { [key: string]: unknown } = { effects: c.effects };
  if (c.paletteEffects) out.paletteEffects = c.paletteEffects;
  out.transitions = c.transitions;
  out.overlays = c.overlays;
  out.palettes = c.palettes;
  out.radio = c.audio.radio;
  out.gpio = c.gpio;
  return toJson(out);
}

/** What state/device carried power and the indicators at, for MqttState.tick to compare. */
function remember(st: MqttState, now: number): void {
  const rt = st.app.runtime;
  const seen = st.seen;
  let k = 0;
  seen[k++] = rt.matrixPower ? 1 : 0;
  for (const s of rt.indicators.slots) {
    seen[k++] = s.on ? 1 : 0;
    seen[k++] = s.color;
    seen[k++] = s.blinkMs;
    seen[k++] = s.fadeMs;
  }
  st.deviceAt = now;
}

/** Publishes one pending topic; false when the link refused it. */
function send(st: MqttState, bit: number, base: string, now: number): boolean {
  const link = st.link;
  const app = st.app;
  switch (bit) {
    case PREFIX:
      return link.publish(base + "prefix", link.prefix(), true, 0);
    case CAPABILITIES:
      return link.publish(base + "capabilities", capabilitiesJson(st), true, 0);
    case SETTINGS:
      return link.publish(base + "settings", toJson(publicSettings(app.settings.current)), true, 0);
    case ACTIVE_APP: {
      const name = app.runtime.currentApp;
      // Before the first frame there is no app yet, and an empty retained payload would erase
      // the topic rather than say so.
      if (name !== "" && !link.publish(base + "apps/active", name, true, 0)) return false;
      st.shownApp = name;
      return true;
    }
    case DEVICE:
      if (!link.publish(base + "device", toJson(deviceState(app)), true, 0)) return false;
      remember(st, now);
      return true;
    case BUTTONS: {
      const cfg = app.system.config;
      const pins = [cfg.pinBtnLeft, cfg.pinBtnSelect, cfg.pinBtnRight];
      const names = ["left", "select", "right"];
      for (let i = 0; i < 3; i++) {
        // Active low: a pressed button pulls its pin to ground.
        if (pins[i] >= 0 && !link.publish(base + "buttons/" + names[i], digitalRead(pins[i]) ? "0" : "1", true, 0)) return false;
      }
      return true;
    }
    default:
      return loadModule<typeof Discovery>("mqtt/discovery")(st, null);
  }
}

export default function publishPending(st: MqttState): void {
  const base = st.link.prefix() + "/state/";
  const now = nowMs();
  for (let bit = PREFIX; bit <= DISCOVERY; bit *= 2) {
    if (!(st.pending & bit)) continue;
    // Change-driven publishes of state/device are spaced: a blinking automation costs one
    // message per WATCH_MS, not one per change.
    if (bit === DEVICE && now - st.deviceAt < WATCH_MS) continue;
    if (!send(st, bit, base, now)) return;
    st.pending &= ~bit;
  }
}
