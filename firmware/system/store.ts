// The stored system configuration: two-copy atomic record "sys". Reading a stored copy back
// (defaults for whatever is missing or damaged, the board's pin map when the stored one is
// unusable) is the module system/load.
import type { Board, ChipRules } from "../../boards/board";
import { AtomicRecord } from "../core/persist";
import type { RecordFlash } from "../core/persist";
import { loadModule } from "../platform/modules";
import { fwFile } from "../platform/slot";
import type SystemLoad from "./load.mod";
import type { SystemConfig } from "./schema";

/**
 * The fields read while frames and timers run (clock, brightness, readings, the status dot, the
 * time server) and on every button edge (the webhook). The rest is read only by requests and at
 * boot.
 */
export type LiveConfig = Pick<SystemConfig, "tz" | "ntpServer" | "mqttEnabled" | "mqttHost" |
  "brightnessSmoothing" | "ldrFactor" | "ldrGamma" | "ldrOnGround" | "maxBrightness" | "minBrightness" |
  "tempDecimals" | "tempOffset" | "humOffset" | "batteryDividerRatio" | "buttonCallback">;

/** How long the whole configuration stays in memory after it was last asked for. */
const HOLD_MS = 500;

export class SystemStore {
  /** What frames and timers read; replaced (never changed) by every load, save and wipe. */
  live!: LiveConfig;
  /** True when the last load found an unusable pin map and runs on the board defaults instead. */
  pinFallback: boolean;
  private record: AtomicRecord;
  private board: Board;
  /**
   * The whole configuration while it is held, else null (read again from flash when asked). A
   * caller that knows it will not be asked for soon may let it go (a restore, before applying
   * what does not need it).
   */
  held: SystemConfig | null;
  private drop: number | undefined;
  /**
   * The login every request is checked against, "user:pass", or "" when requests need none
   * (authEnabled off): kept on its own so that the check does not read the whole configuration.
   * Replaced by every load and save.
   */
  login: string;

  constructor(flash: RecordFlash, board: Board) {
    this.board = board;
    this.record = new AtomicRecord(flash, "sys");
    this.pinFallback = false;
    this.held = null;
    this.login = "";
  }

  /**
   * The whole stored configuration. Requests and boot read it; it is read from flash (and checked)
   * when not in memory and dropped HOLD_MS after its last use, so that the idle clock holds only
   * the live fields. A PUT replaces the object: read it where it is used, do not keep it.
   */
  get config(): SystemConfig {
    if (!this.held) {
      // Read again after it was let go: the same stored copy that `live` and `login` were made
      // from (every save and wipe makes them afresh), so they are kept, not made again beside
      // whatever still holds their strings.
      this.held = loadModule<typeof SystemLoad>("system/load")(this.record.load(), this.chip()).config;
    }
    this.hold();
    return this.held as SystemConfig;
  }

  /** Reads the newest intact copy; see system/load.mod.ts. */
  load(): void {
    const loaded = loadModule<typeof SystemLoad>("system/load")(this.record.load(), this.chip());
    this.use(loaded.config);
    this.pinFallback = loaded.pinFallback;
  }

  /** Persists `next` and makes it current; false (nothing changed) when the flash refused. */
  save(next: SystemConfig): boolean {
    if (!this.record.save(next)) return false;
    this.use(next);
    this.pinFallback = false;
    return true;
  }

  private use(config: SystemConfig): void {
    this.held = config;
    this.login = config.authEnabled ? config.authUser + ":" + config.authPass : "";
    this.hold();
    const live = {} as { [name: string]: unknown };
    // The names of LiveConfig. A literal here rather than a top-level constant: a top-level string
    // would be copied into memory for good (about 20 variables), this one only while use() runs.
    const names = ("tz ntpServer mqttEnabled mqttHost brightnessSmoothing ldrFactor ldrGamma ldrOnGround " +
      "maxBrightness minBrightness tempDecimals tempOffset humOffset batteryDividerRatio buttonCallback").split(" ");
    for (let i = 0; i < names.length; i++) live[names[i]] = (config as unknown as { [name: string]: unknown })[names[i]];
    this.live = live as unknown as LiveConfig;
  }

  private hold(): void {
    if (this.drop !== undefined) clearTimeout(this.drop);
    this.drop = setTimeout(() => {
      this.held = null;
      this.drop = undefined;
    }, HOLD_MS);
  }

  /**
   * The board's chip rules, read from their Storage file (build/chips.mjs) for each use: pins
   * are validated and reported rarely, and the tables are not held in between.
   */
  chip(): ChipRules {
    // Through the record's flash: one property less on an object that lives as long as the firmware.
    const text = this.record.flash.read(fwFile("chip." + this.board.id));
    if (text === undefined) throw new Error("chip rules chip." + this.board.id + " are missing");
    return JSON.parse(text) as ChipRules;
  }

}
