// The stored settings: two-copy atomic record "set", the default for every key that is missing
// or no longer valid, and listeners that apply a change the moment it is made.
import { AtomicRecord } from "../core/persist";
import type { RecordFlash } from "../core/persist";
import { failure, isFailure } from "../core/failure";
import type { Failure } from "../core/failure";
import { defaultSettings, eachField, holderOf, leafName } from "./schema";
import type { Bag } from "./schema";
import { applySettingsPatch, checkValue, weekdaysFrom } from "./validate";
import type { Settings } from "./types";

export type SettingsListener = (current: Settings) => void;

export class SettingsStore {
  current: Settings;
  private record: AtomicRecord;
  private listeners: SettingsListener[];

  constructor(flash: RecordFlash) {
    this.record = new AtomicRecord(flash, "set");
    this.current = defaultSettings();
    this.listeners = [];
  }

  /**
   * Reads the newest intact copy. Each stored value replaces its default only when it still
   * passes its row's check (colours are stored packed, which the colour parser accepts, and
   * weekdays as numbers); unknown keys are dropped.
   */
  load(): void {
    const raw = this.record.load();
    const src: Bag = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw as Bag : {};
    const out = defaultSettings();
    const bag = out as unknown as Bag;
    eachField((spec) => {
      // A group is filled field by field through its own rows.
      if (spec.kind === "group") return;
      const from = holderOf(src, spec.name);
      const leaf = leafName(spec.name);
      const v = typeof from === "object" && from !== null ? from[leaf] : undefined;
      if (v === undefined) return;
      const into = holderOf(bag, spec.name);
      const r = spec.kind === "days" ? weekdaysFrom(v, true) : checkValue(spec, v, into[leaf]);
      if (spec.kind === "days" ? r !== null : !isFailure(r)) into[leaf] = r;
    });
    this.current = out;
    this.changed();
  }

  /** Persists `next` and makes it current; false (nothing changed) when the flash refused. */
  save(next: Settings): boolean {
    if (!this.record.save(next)) return false;
    this.current = next;
    this.changed();
    return true;
  }

  /**
   * Applies a PATCH body (any subset of keys, validated whole) and saves the result. Null when
   * applied; otherwise the failure (422, or 507 when the flash refused), and nothing changed.
   */
  patch(body: unknown): Failure | null {
    const next = applySettingsPatch(this.current, body);
    if (isFailure(next)) return next;
    // An empty object changes nothing and need not wear the flash.
    if (Object.keys(body as object).length === 0) return null;
    return this.save(next) ? null : failure(507, "insufficientStorage", "storage capacity reached");
  }

  /** Erases both stored copies and returns to the defaults. */
  wipe(): void {
    this.record.erase();
    this.current = defaultSettings();
    this.changed();
  }

  /** `fn` runs with the new settings after every load, save and wipe. */
  onChange(fn: SettingsListener): void {
    this.listeners.push(fn);
  }

  private changed(): void {
    for (let i = 0; i < this.listeners.length; i++) this.listeners[i](this.current);
  }
}
