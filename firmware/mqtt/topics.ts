// What the state publisher and its modules share: the bits of MqttState.pending (each a topic
// waiting to go out, in the order they are published) and the pace of change-driven publishes.

export const PREFIX = 1;
export const CAPABILITIES = 2;
export const SETTINGS = 4;
export const ACTIVE_APP = 8;
export const DEVICE = 16;
export const BUTTONS = 32;
export const DISCOVERY = 64;
/** What a (re)connect publishes; the discovery document only when it is on. */
export const ON_CONNECT = 127;

/** How often changes are looked for, and the least time between two change-driven publishes. */
export const WATCH_MS = 250;

/** Home Assistant's discovery prefix when haPrefix is empty. */
export const HA_PREFIX = "homeassistant";
