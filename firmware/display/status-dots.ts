// The connection dots on the left edge: red top left while Wi-Fi is down, yellow bottom left
// while Wi-Fi is up but a configured MQTT broker is not connected. One at a time.
import type { Canvas } from "./canvas";

const NO_WIFI = 0xff0000;
const NO_BROKER = 0xffff00;
/** One breath of the pulsing dot. */
const PULSE_MS = 2000;

export interface LinkHealth {
  wifiUp: boolean;
  /** A broker is configured and not connected. */
  brokerDown: boolean;
}

export function drawStatusDot(c: Canvas, now: number, health: LinkHealth): void {
  if (health.wifiUp && !health.brokerDown) return;
  // Never fully dark, so the dot reads as pulsing rather than blinking.
  c.color(health.wifiUp ? NO_BROKER : NO_WIFI, 0.6 - 0.4 * Math.cos((2 * Math.PI * (now % PULSE_MS)) / PULSE_MS));
  c.g.setPixel(0, health.wifiUp ? c.height - 1 : 0);
}
