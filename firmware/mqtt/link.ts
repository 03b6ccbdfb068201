// The boundary between the MQTT client (the connection: packets, keep-alive, reconnects) and the
// MQTT surface (what the topics mean: commands routed to the HTTP handlers, state, discovery).
//
// The client owns the connection to the broker named by the system configuration, its last will
// and the "online"/"offline" retained on <P>/availability, and the subscription to <P>/cmd/#.
// The surface sees messages and publishes; it never touches sockets.

export interface MqttLink {
  /** The topic prefix <P> in force: mqttPrefix, or the device uid when that is empty. */
  prefix(): string;
  /** Whether a session with the broker is up (CONNACK accepted, subscription sent). */
  connected(): boolean;
  /**
   * Queues a PUBLISH; false (and nothing sent) while not connected or when the outgoing queue is
   * full. QoS 1 messages are sent once and forgotten if the session drops before the PUBACK.
   */
  publish(topic: string, payload: string, retain: boolean, qos: 0 | 1): boolean;
  /**
   * Set by the surface. Each PUBLISH received under <P>/cmd/, with its whole topic and payload
   * (bytes as an 8-bit string), once, in the order received, never inside a frame.
   */
  onMessage: ((topic: string, payload: string) => void) | null;
  /** Set by the surface: called after every (re)connect, once the subscription is sent. */
  onConnect: (() => void) | null;
}
