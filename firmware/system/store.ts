// The stored system configuration: two-copy atomic record "sys", defaults for whatever is
// missing or damaged, and the board's pin map when the stored one is unusable.
import type { Board } from "../../boards/board";
import { AtomicRecord } from "../core/persist";
import type { RecordFlash } from "../core/persist";
import { fieldRows, defaultConfig, parseField } from "./schema";
import type { Bag, SystemConfig } from "./schema";
import { checkField, isInteger } from "./validate";
import { checkI2sSet, validatePinMap } from "./pins";

export class SystemStore {
  config: SystemConfig;
  /** True when the last load found an unusable pin map and runs on the board defaults instead. */
  pinFallback: boolean;
  private record: AtomicRecord;
  private board: Board;

  constructor(flash: RecordFlash, board: Board) {
    this.board = board;
    this.record = new AtomicRecord(flash, "sys");
    this.config = defaultConfig(board);
    this.pinFallback = false;
  }

  /**
   * Reads the newest intact copy. Stored fields override the defaults when they have the right
   * type and range; unknown keys are dropped. A pin map that fails validation is replaced as a
   * whole by the board's defaults (the stored copy is left as it is).
   */
  load(): void {
    const chip = this.board.chip;
    const raw = this.record.load();
    const src: Bag = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw as Bag : {};
    const cfg = defaultConfig(this.board);
    const out = cfg as unknown as Bag;
    const rows = fieldRows();
    for (let i = 0; i < rows.length; i++) {
      const spec = parseField(rows[i]);
      const v = src[spec.name];
      if (v === undefined) continue;
      if (spec.kind === "pin") {
        // Any integer; whether the map is usable is decided for the map as a whole below.
        if (isInteger(v)) out[spec.name] = v;
        continue;
      }
      const r = checkField(spec, v, chip);
      if (typeof r !== "string" && r.mask === undefined) out[spec.name] = r.value;
    }
    this.pinFallback = validatePinMap(cfg, chip) !== null || checkI2sSet(cfg) !== null;
    if (this.pinFallback) {
      const defaults = this.board.defaults as unknown as Bag;
      for (let name in defaults) out[name] = defaults[name];
    }
    this.config = cfg;
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
    this.config = defaultConfig(this.board);
    this.pinFallback = false;
  }
}
