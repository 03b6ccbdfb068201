// The retained state topics under <P>/state/: what changed is noted here, between frames, by a
// timer and the settings' listener; the payloads are built and published by the module
// mqtt/publish, loaded only when something goes out. Availability is the client's.
import type { App } from "../app";
import type { MqttLink } from "./link";
import type Publish from "./publish.mod";
import type Discovery from "./discovery.mod";
import type { SystemConfig } from "../system/schema";
import { loadModule } from "../platform/modules";
import { nowMs } from "../platform/system";
import { INDICATOR_COUNT } from "../display/indicators";
import { ACTIVE_APP, BUTTONS, DEVICE, DISCOVERY, ON_CONNECT, SETTINGS, WATCH_MS } from "./topics";
import { log } from "../logs/log";

/** The shortest statsInterval the system schema allows. */
const STATS_MIN_MS = 1000;

export class MqttState {
  readonly app: App;
  readonly link: MqttLink;
  /** Topics to publish at the next chance (the bits of ./topics). */
  pending: number;
  /** statsInterval in force: state/device goes out at least this often. */
  statsMs: number;
  /** When state/device last went out (ms). */
  deviceAt: number;
  /** Power and the indicators as state/device last carried them, compared at every tick. */
  seen: Uint32Array;
  /** The app state/apps/active last carried. */
  shownApp: string | null;
  /** Discovery topics to empty at the next chance, "|"-separated (a change made while offline). */
  drop: string;

  /** The change watch, running only while connected. */
  private timer: number | undefined;
  private watching: boolean;

  constructor(app: App, link: MqttLink) {
    this.app = app;
    this.link = link;
    this.pending = 0;
    this.statsMs = Math.max(STATS_MIN_MS, app.system.config.statsInterval);
    this.deviceAt = 0;
    // Power and four fields per indicator; as a typed array it costs a few variables, not 14.
    this.seen = new Uint32Array(1 + 4 * INDICATOR_COUNT);
    this.shownApp = null;
    this.drop = "";
    this.timer = undefined;
    this.watching = false;
    app.settings.onChange(() => {
      this.pending |= SETTINGS;
    });
  }

  /**
   * After every (re)connect: everything retained goes out again. The watch on changes and on the
   * buttons starts with the first connect: a clock that never reaches a broker keeps neither.
   */
  connected(): void {
    this.pending |= ON_CONNECT;
    // Not a change: state/device goes out now, however recently it went before.
    this.deviceAt = 0;
    if (this.timer === undefined) this.timer = setInterval(() => this.tick(), WATCH_MS);
    if (!this.watching) {
      this.watching = true;
      // Each button's level on its every edge, retained.
      this.app.display.buttons.push((name, pressed) => this.edge(name, pressed));
    }
    this.flush();
  }

  /** Every WATCH_MS: a change of power, an indicator or the app, or statsInterval elapsed. */
  tick(): void {
    if (!this.link.connected()) {
      // Until the next connect, which publishes everything anyway.
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const rt = this.app.runtime;
    if (rt.currentApp !== this.shownApp) this.pending |= ACTIVE_APP;
    const seen = this.seen;
    const slots = rt.indicators.slots;
    let k = 0;
    let moved = seen[k++] !== (rt.matrixPower ? 1 : 0);
    for (let i = 0; i < slots.length && !moved; i++) {
      const s = slots[i];
      moved = seen[k++] !== (s.on ? 1 : 0) || seen[k++] !== s.color || seen[k++] !== s.blinkMs || seen[k++] !== s.fadeMs;
    }
    if (moved || nowMs() - this.deviceAt >= this.statsMs) this.pending |= DEVICE;
    if (this.pending) this.flush();
  }

  /** Publishes what is pending; what the link refuses (queue full) waits for the next tick. */
  flush(): void {
    if (!this.link.connected()) return;
    try {
      loadModule<typeof Publish>("mqtt/publish")(this);
    } catch (e) {
      this.pending = 0;
      log("mqtt state: " + e);
    }
  }

  /**
   * PUT /system stored a new configuration: statsInterval applies at once, and so do haDiscovery
   * and haPrefix (the document is retracted or published in that request when connected).
   */
  configured(before: SystemConfig, after: SystemConfig): void {
    this.statsMs = Math.max(STATS_MIN_MS, after.statsInterval);
    if (before.haDiscovery === after.haDiscovery && before.haPrefix === after.haPrefix) return;
    try {
      if (!loadModule<typeof Discovery>("mqtt/discovery")(this, before)) this.pending |= DISCOVERY;
    } catch (e) {
      log("mqtt discovery: " + e);
    }
  }

  /** A button went down (pressed) or up: published at once, even between two ticks. */
  edge(name: string, pressed: boolean): void {
    const link = this.link;
    if (!link.connected()) return;
    if (!link.publish(link.prefix() + "/state/buttons/" + name, pressed ? "1" : "0", true, 0)) this.pending |= BUTTONS;
  }
}
