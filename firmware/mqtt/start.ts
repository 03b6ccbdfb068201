// The MQTT surface on a link to the broker: commands in, state out, discovery. The client behind
// the link (its connection, last will and availability) is made by the caller.
import type { App } from "../app";
import type { MqttLink } from "./link";
import { commandReceiver } from "./commands";
import { MqttState } from "./state";

export function startMqttSurface(app: App, link: MqttLink): void {
  const state = new MqttState(app, link);
  link.onMessage = commandReceiver(app, link);
  link.onConnect = () => state.connected();
  app.systemSaved = (before, after) => state.configured(before, after);
}
