// Home Assistant device discovery: one retained document on <haPrefix>/device/<uid>/config that
// describes the clock and every entity, each bound to the ordinary <P>/cmd/... and <P>/state/...
// topics. Loaded only to publish it (on connect, or when PUT /system changes haDiscovery or
// haPrefix) and dropped after.
import type { MqttState } from "./state";
import type { SystemConfig } from "../system/schema";
import { HA_PREFIX } from "./topics";
import { toJson } from "../core/json";
import { findText } from "../core/text";
import { TRANSITIONS } from "../device/names";

type Bag = { [key: string]: unknown };
type Discovery = Pick<SystemConfig, "haDiscovery" | "haPrefix">;

/** Where the document of this clock lives under the configured discovery prefix. */
function topicOf(cfg: Discovery, uid: string): string {
  return (cfg.haPrefix || HA_PREFIX) + "/device/" + uid + "/config";
}

/** "r,g,b" out of a "#RRGGBB" in the state, as Home Assistant's rgb_value_template wants it. */
function rgbOf(expr: string): string {
  let out = "";
  for (let i = 1; i < 7; i += 2) out += (i > 1 ? "," : "") + "{{ " + expr + "[" + i + ":" + (i + 2) + "]|int(base=16) }}";
  return out;
}

/** A state template that reads back as one of two command payloads (a light's on and off). */
function either(test: string, on: string, off: string): string {
  return "{{ " + test + " and '" + on + "' or '" + off + "' }}";
}

/** A sensor on state/device. */
function reading(field: string, unit: string, deviceClass: string, diagnostic: boolean): Bag {
  const c: Bag = { stat_t: "~/state/device", val_tpl: "{{ value_json." + field + " }}" };
  if (unit) c.unit_of_meas = unit;
  if (deviceClass) c.dev_cla = deviceClass;
  if (diagnostic) c.ent_cat = "diagnostic";
  return c;
}

/** The whole document for the clock as it is now (its fitted parts decide the conditional entities). */
function documentOf(st: MqttState): string {
  const app = st.app;
  const rt = app.runtime;
  const uid = rt.uid;
  const base = st.link.prefix();
  let out = "{\"dev\":" + toJson({ ids: uid, name: rt.hostname, sw: app.version, mf: "pixloop", mdl: "pixloop", hw: app.board.soc }) +
    ",\"o\":" + toJson({ name: "pixloop", sw: app.version }) + ",\"avty_t\":" + toJson(base + "/availability") + ",\"cmps\":{";
  let first = true;
  const add = (key: string, platform: string, name: string, extra: Bag) => {
    const c: Bag = { p: platform, "~": base, name, uniq_id: uid + "_" + key };
    for (const k in extra) c[k] = extra[k];
    out += (first ? "\"" : ",\"") + key + "\":" + toJson(c);
    first = false;
  };
  const powerOn = "{\"power\":true}";
  const powerOff = "{\"power\":false}";
  add("mat", "light", "Matrix", {
    cmd_t: "~/cmd/display", pl_on: powerOn, pl_off: powerOff,
    stat_t: "~/state/device", stat_val_tpl: either("value_json.matrixPower", powerOn, powerOff),
    bri_cmd_t: "~/cmd/settings", bri_cmd_tpl: "{\"brightness\":{{ value }}}",
    bri_stat_t: "~/state/device", bri_val_tpl: "{{ value_json.brightness }}",
    rgb_cmd_t: "~/cmd/settings", rgb_cmd_tpl: "{\"textColor\":[{{ red }},{{ green }},{{ blue }}]}",
    rgb_stat_t: "~/state/settings", rgb_val_tpl: rgbOf("value_json.textColor"),
  });
  const white = "{\"color\":\"#FFFFFF\"}";
  const dark = "{\"color\":0}";
  for (let i = 1; i <= 3; i++) {
    const cmd = "~/cmd/indicators/" + i;
    const ind = "value_json.indicators[" + (i - 1) + "]";
    add("ind" + i, "light", "Indicator " + i, {
      // The switch sends white first, then any colour chosen with it.
      cmd_t: cmd, pl_on: white, pl_off: dark, on_cmd_type: "first",
      stat_t: "~/state/device", stat_val_tpl: either(ind + ".on", white, dark),
      rgb_cmd_t: cmd, rgb_cmd_tpl: "{\"color\":[{{ red }},{{ green }},{{ blue }}]}",
      rgb_stat_t: "~/state/device", rgb_val_tpl: rgbOf(ind + ".color"),
    });
  }
  // Beyond the reference's set: the mood light (its own colour and brightness, off by an empty
  // payload, which is DELETE) and a notify entity that sends its message as a notification's text.
  add("mood", "light", "Mood light", {
    cmd_t: "~/cmd/display/moodlight", pl_on: white, pl_off: "", on_cmd_type: "first", opt: true,
    rgb_cmd_t: "~/cmd/display/moodlight", rgb_cmd_tpl: "{\"color\":[{{ red }},{{ green }},{{ blue }}]}",
    bri_cmd_t: "~/cmd/display/moodlight", bri_cmd_tpl: "{\"brightness\":{{ value }}}",
  });
  add("notify", "notify", "Notify", { cmd_t: "~/cmd/notify", cmd_tpl: "{\"text\":{{ value|tojson }}}" });
  add("brimode", "select", "Brightness mode", {
    cmd_t: "~/cmd/settings", cmd_tpl: "{\"autoBrightness\":{{ (value == 'Auto')|lower }}}", ops: ["Manual", "Auto"],
    stat_t: "~/state/settings", val_tpl: "{{ value_json.autoBrightness and 'Auto' or 'Manual' }}",
  });
  add("transeff", "select", "Transition effect", {
    cmd_t: "~/cmd/settings", cmd_tpl: "{\"transitionEffect\":\"{{ value }}\"}", ops: TRANSITIONS,
    stat_t: "~/state/settings", val_tpl: "{{ value_json.transitionEffect }}",
  });
  add("trans", "switch", "Transition", {
    cmd_t: "~/cmd/settings", pl_on: "{\"autoTransition\":true}", pl_off: "{\"autoTransition\":false}",
    stat_t: "~/state/settings", val_tpl: "{{ value_json.autoTransition and 'ON' or 'OFF' }}", stat_on: "ON", stat_off: "OFF",
  });
  add("next", "button", "Next app", { cmd_t: "~/cmd/apps/next" });
  add("prev", "button", "Previous app", { cmd_t: "~/cmd/apps/previous" });
  add("dismiss", "button", "Dismiss notification", { cmd_t: "~/cmd/notify/dismiss" });
  add("app", "sensor", "Current app", { stat_t: "~/state/apps/active" });
  add("ver", "sensor", "Version", reading("version", "", "", true));
  add("ip", "sensor", "IP address", reading("ipAddress", "", "", true));
  add("prefix", "sensor", "MQTT prefix", { stat_t: "~/state/prefix", ent_cat: "diagnostic" });
  add("rssi", "sensor", "WiFi strength", reading("wifiRssi", "dBm", "signal_strength", true));
  add("uptime", "sensor", "Uptime", reading("uptimeSeconds", "s", "duration", true));
  add("ram", "sensor", "Free RAM", reading("freeHeapBytes", "B", "data_size", true));
  const buttons = ["left", "select", "right"];
  const keys = ["btnl", "btnm", "btnr"];
  for (let i = 0; i < 3; i++) {
    add(keys[i], "binary_sensor", "Button " + buttons[i], { stat_t: "~/state/buttons/" + buttons[i], pl_on: "1", pl_off: "0" });
  }
  // Only what this clock has: an entity for a missing part would sit at "unknown" for ever.
  if (rt.light) add("light", "sensor", "Light level", reading("lightLevel", "%", "", false));
  const env = rt.env;
  if (env) {
    // "°C" as the UTF-8 bytes the device's 8-bit strings carry.
    add("temp", "sensor", "Temperature", reading("temperature", "\u00c2\u00b0C", "temperature", false));
    if (env.sensor.humidity) add("hum", "sensor", "Humidity", reading("humidity", "%", "humidity", false));
    if (env.sensor.pressure) add("press", "sensor", "Pressure", reading("pressureHpa", "hPa", "pressure", false));
  }
  if (rt.battery) {
    add("bat", "sensor", "Battery", reading("batteryPercent", "%", "battery", false));
    add("batv", "sensor", "Battery voltage", reading("batteryVoltage", "V", "voltage", true));
    add("lowbat", "binary_sensor", "Low battery", {
      stat_t: "~/state/device", val_tpl: "{{ value_json.lowBattery and 'ON' or 'OFF' }}", dev_cla: "battery",
    });
  }
  return out + "}}";
}

/**
 * On connect (`before` null): empties the topics left to retract while offline, then publishes
 * the document when discovery is on. After PUT /system changed haDiscovery or haPrefix (`before`
 * the configuration it replaced): retracts the old document (the old prefix first), publishes the
 * new one; offline, the retraction waits for the next connect, which publishes the document anyway.
 * False when the link refused something (it is tried again).
 */
export default function discover(st: MqttState, before: Discovery | null): boolean {
  const link = st.link;
  const cfg = st.app.system.config;
  const uid = st.app.runtime.uid;
  const topic = topicOf(cfg, uid);
  const up = link.connected();
  if (before) {
    const old = topicOf(before, uid);
    const moved = old !== topic;
    let sent = true;
    if (before.haDiscovery && (moved || !cfg.haDiscovery) && (!up || !link.publish(old, "", true, 0))) {
      if (findText("|" + st.drop + "|", "|" + old + "|") < 0) st.drop += (st.drop ? "|" : "") + old;
      sent = false;
    }
    if (cfg.haDiscovery && (moved || !before.haDiscovery)) sent = up && link.publish(topic, documentOf(st), true, 0) && sent;
    return sent;
  }
  while (st.drop !== "") {
    const bar = st.drop.indexOf("|");
    const next = bar < 0 ? st.drop : st.drop.substr(0, bar);
    if (!link.publish(next, "", true, 0)) return false;
    st.drop = bar < 0 ? "" : st.drop.substr(bar + 1);
  }
  return !cfg.haDiscovery || link.publish(topic, documentOf(st), true, 0);
}
