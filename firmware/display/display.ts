// Everything on the panel, put together once at boot: the app loop with the built-in apps (whose
// pages are modules the loop loads while they are on screen or about to come), the indicators,
// the mood light, the global overlay, the brightness control and the render loop.
import type { SystemStore } from "../system/store";
import type { SettingsStore } from "../settings/store";
import type { Runtime } from "../device/runtime";
import type { LinkHealth } from "./status-dots";
import { AppLoop } from "../apps/loop";
import { builtinApps } from "../apps/builtin/index";
import { textKit } from "../apps/text-kit";
import { loopButtons } from "../apps/buttons";
import type MakeTextPage from "../apps/text-page.mod";
import type ReplaceApps from "../apps/replace.mod";
import { PushedApp, payloadHost } from "../apps/payload-app";
import { NoticeQueue } from "../notify/queue";
import type RestoreOrder from "../apps/order-load.mod";
import type RefreshLoop from "../apps/refresh.mod";
import { loadModule } from "../platform/modules";
import { watchButtons } from "../platform/buttons";
import type { ButtonListener } from "../platform/buttons";
import { Indicators } from "./indicators";
import { Moodlight } from "./moodlight";
import { newOverlay } from "./overlay";
import type { OverlayState } from "./overlay";
import { PanelOutput } from "./panel";
import { BrightnessControl } from "./brightness";
import { DisplayEngine, FRAME_MS } from "./engine";
import type Regrade from "./regrade.mod";
import { pickTransition } from "./transitions";
import { LocalClock } from "../time/clock";
import { nowMs } from "../platform/system";
import type { Layer } from "./layer";
import type { Layers } from "./layers.mod";
import type { StoredPalette } from "../payload/stored";
import { log } from "../logs/log";

const SETUP_COLOR = 0x00a0ff;

export class Display {
  readonly loop: AppLoop;
  readonly notices: NoticeQueue;
  /** The class of pushed apps, for the handler modules (whose own copy would hold their code). */
  readonly Pushed: typeof PushedApp;
  readonly indicators: Indicators;
  readonly moodlight: Moodlight;
  readonly clock: LocalClock;
  readonly engine: DisplayEngine;
  /** What hears the wired buttons: the loop, and in station mode the webhook and MQTT. */
  readonly buttons: ButtonListener[];
  overlay: OverlayState;
  /** The global overlay as drawn: made when it is set, dropped (with its module) when cleared. */
  private weather: Layer | null;

  constructor(system: SystemStore, settings: SettingsStore, runtime: Runtime, health: () => LinkHealth | null) {
    // No local for system.config: the closures made here keep this scope, and with it the whole
    // configuration, which the store holds only while requests use it. Frames read system.live.
    const live = () => system.live;
    const current = () => settings.current;
    this.indicators = runtime.indicators;
    this.moodlight = new Moodlight();
    this.overlay = newOverlay();
    this.weather = null;
    this.clock = new LocalClock(nowMs);
    let seed = 1;
    const host = { runtime, config: live, text: textKit() };
    payloadHost.text = host.text;
    this.loop = new AppLoop(
      builtinApps(host),
      current,
      // The transition the engine made ahead for this change of page.
      () => this.engine.take(),
      () => current().transitionDirection === "reverse",
    );
    this.notices = new NoticeQueue(this.loop, runtime);
    this.loop.cover = this.notices;
    this.Pushed = PushedApp;
    try {
      if (loadModule<typeof RestoreOrder>("apps/order-load")(this.loop)) loadModule<typeof RefreshLoop>("apps/refresh")(this.loop);
    } catch (e) {
      log("app order: " + e);
    }
    this.engine = new DisplayEngine({
      panel: new PanelOutput(system.config),
      loop: this.loop,
      indicators: this.indicators,
      moodlight: this.moodlight,
      clock: this.clock,
      tz: () => live().tz,
      brightness: new BrightnessControl(live, current),
      settings: current,
      colorOrder: system.config.panelColorOrder,
      health,
      report: runtime,
      pick: () => pickTransition(current().transitionEffect, seed++),
      weather: () => this.weather,
    });
    payloadHost.width = this.engine.width;
    settings.onChange(() => loadModule<typeof Regrade>("display/regrade")(this.engine));
    this.buttons = watchButtons(system.config);
    this.buttons.push(loopButtons(system.config, this.loop, () => current().blockNavigation, this.notices));
  }

  /**
   * The setup screen: instead of the loop, how to reach the clock (its access point carries the
   * hostname as its name).
   */
  showSetup(network: string, address: string): void {
    const text = "Setup: join " + network + ", open http://" + address;
    const makeTextPage = loadModule<typeof MakeTextPage>("apps/text-page");
    loadModule<typeof ReplaceApps>("apps/replace")(this.loop, [makeTextPage(payloadHost.text, "Setup", text, "small", SETUP_COLOR, true, { mode: "wrap", holdMs: 0 })]);
  }

  /** Puts a new global overlay in force (a request, outside frames). */
  setOverlay(o: OverlayState): void {
    this.overlay = o;
    this.weather = null;
    if (!o.name) return;
    try {
      const make = loadModule<Layers>("display/layers").makeLayer;
      this.weather = make("overlays", o.name, o.palette as StoredPalette | null, o.blend, o.speed, this.engine.width, 8);
    } catch (e) {
      log("overlay " + o.name + ": " + e);
    }
  }

  /** Starts the render loop: a frame every FRAME_MS. */
  start(): void {
    const engine = this.engine;
    // The first second of frames is a full one: fps stays as it is until then.
    engine.fpsWindowStart = nowMs();
    setInterval(() => {
      // A page that throws loses its frame, not the clock: the next frame comes as usual.
      try {
        engine.tick(nowMs());
      } catch (e) {
        engine.parts.report.fps = 0;
      }
    }, FRAME_MS);
  }
}
