// The stored system configuration: two-copy atomic record "sys". Reading a stored copy back
// (defaults for whatever is missing or damaged, the board's pin map when the stored one is
// unusable) is the module system/load.
import type { Board, ChipRules } from "../../boards/board";
import { AtomicRecord } from "../core/persist";
import type { RecordFlash } from "../core/persist";
import { loadModule } from "../platform/modules";
import type SystemLoad from "./load.mod";
import type { SystemConfig } from "./schema";

export class SystemStore {
  config!: SystemConfig;
  /** True when the last load found an unusable pin map and runs on the board defaults instead. */
  pinFallback: boolean;
  private record: AtomicRecord;
  private board: Board;
  private flash: RecordFlash;

  constructor(flash: RecordFlash, board: Board) {
    this.board = board;
    this.flash = flash;
    this.record = new AtomicRecord(flash, "sys");
    this.pinFallback = false;
  }

  /** Reads the newest intact copy; see system/load.mod.ts. */
  load(): void {
    const loaded = loadModule<typeof SystemLoad>("system/load")(this.record.load(), this.board, this.chip());
    this.config = loaded.config;
    this.pinFallback = loaded.pinFallback;
  }

  /**
   * The board's chip rules, read from their Storage file (build/chips.mjs) for each use: pins
   * are validated and reported rarely, and the tables are not held in between.
   */
  chip(): ChipRules {
    const text = this.flash.read("chip." + this.board.id);
    if (text === undefined) throw new Error("chip rules chip." + this.board.id + " are missing");
    return JSON.parse(text) as ChipRules;
  }

  /** Persists `next` and makes it current; false (nothing changed) when the flash refused. */
  save(next: SystemConfig): boolean {
    if (!this.record.save(next)) return false;
    this.config = next;
    this.pinFallback = false;
    return true;
  }

  /** Erases both stored copies and returns to the factory configuration. */
  wipe(): void {
    this.record.erase();
    this.load();
  }
}
