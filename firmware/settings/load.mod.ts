// A stored settings record read back: each stored value replaces its default only when it still
// passes its row's check (colours are stored packed, which the colour parser accepts, and
// weekdays as numbers); unknown keys are dropped. Nothing stored gives the defaults.
import { isFailure } from "../core/failure";
import { defaultSettings, eachField, holderOf, leafName } from "./schema";
import type { Bag } from "./schema";
import { checkValue, weekdaysFrom } from "./validate";
import type { Settings } from "./types";

function loadSettings(raw: unknown): Settings {
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
  return out;
}
export default loadSettings;
