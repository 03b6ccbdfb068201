// The MQTT session: the client to the broker (its connection, last will and availability) and the
// MQTT surface on it. The core starts it once the system configuration enables MQTT, at boot or
// with the PUT /api/v1/system that does, and holds it from then on: a clock that never uses MQTT
// keeps none of its code in memory.
import type { App } from "../app";
import type { SystemConfig } from "../system/schema";
import type { ConnectionStatus } from "../net/status";
import { MqttClient } from "./client";
import { startMqttSurface } from "./start";

/** Starts the session; what app.systemSaved does from now on is returned. */
export default function startSession(app: App): (before: SystemConfig, after: SystemConfig) => void {
  // main.ts made the status before loading this module.
  const client = new MqttClient(app.runtime.mqtt as ConnectionStatus, app.runtime.uid, () => app.system.config);
  startMqttSurface(app, client);
  // A saved configuration reaches both: the client reconnects when a connection field changed
  // (enabled, host, port, credentials, TLS, prefix), the surface republishes or retracts discovery.
  const surface = app.systemSaved;
  client.reconfigure();
  return (before, after) => {
    client.reconfigure();
    if (surface) surface(before, after);
  };
}
