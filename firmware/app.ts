// What every handler may reach: the board, the stored configuration, the live state.
import type { Board } from "../boards/board";
import type { SystemStore } from "./system/store";
import type { SettingsStore } from "./settings/store";
import type { Runtime } from "./device/runtime";
import type { Display } from "./display/display";
import type { SystemConfig } from "./system/schema";

export type Mode = "station" | "setup";

export interface App {
  board: Board;
  version: string;
  mode: Mode;
  system: SystemStore;
  settings: SettingsStore;
  runtime: Runtime;
  display: Display;
  /** Host names (no port, lower case) a request may carry in Host or Origin to be our own. */
  ownHosts(): string[];
  /** The address the setup access point answers on. */
  accessPointIp(): string;
  restart(): void;
  sleep(ms: number): void;
  /** Set by the MQTT surface: PUT /api/v1/system stored `after` in place of `before`. */
  systemSaved?: (before: SystemConfig, after: SystemConfig) => void;
  /** Set by POST /update from the moment it accepts a package until the restart (firmware/update). */
  update?: { state: string; release: string; error: string };
}
