// The stored settings: two-copy atomic record "set" and listeners that apply a change the moment
// it is made. Reading a stored copy back (with every key's check) is the module settings/load.
import { AtomicRecord, eraseRecord } from "../core/persist";
import type { RecordFlash } from "../core/persist";
import { loadModule } from "../platform/modules";
import type SettingsLoad from "./load.mod";
import type { Settings } from "./types";

export type SettingsListener = (current: Settings) => void;

export class SettingsStore {
  current!: Settings;
  readonly record: AtomicRecord;
  private listeners: SettingsListener[];

  constructor(flash: RecordFlash) {
    this.record = new AtomicRecord(flash, "set");
    this.listeners = [];
  }

  /** Reads the newest intact copy (the defaults for whatever is missing or no longer valid). */
  load(): void {
    this.current = loadModule<typeof SettingsLoad>("settings/load")(this.record.load());
    this.changed();
  }

  /** Persists `next` and makes it current; false (nothing changed) when the flash refused. */
  save(next: Settings): boolean {
    if (!this.record.save(next)) return false;
    this.current = next;
    this.changed();
    return true;
  }

  /** `fn` runs with the new settings after every load, save and wipe. */
  onChange(fn: SettingsListener): void {
    this.listeners.push(fn);
  }

  private changed(): void {
    for (let i = 0; i < this.listeners.length; i++) this.listeners[i](this.current);
  }
}

/**
 * Erases both stored copies of the settings and returns to the defaults. Not a method: only the
 * reset's module runs it, and a method would stay in memory with the class.
 */
export function wipeSettings(store: SettingsStore): void {
  eraseRecord(store.record);
  store.load();
}
