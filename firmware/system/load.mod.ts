// A stored system configuration read back. Stored fields override the defaults when they have
// the right type and range; unknown keys are dropped. A pin map that fails validation is
// replaced as a whole by the board's defaults (the stored copy is left as it is). Nothing stored
// gives the factory configuration.
import type { ChipRules } from "../../boards/board";
import { fieldRows, defaultConfig, parseField } from "./schema";
import type { Bag, SystemConfig } from "./schema";
import { checkField } from "./validate";
import { isInteger } from "../core/number";
import { checkI2sSet, validatePinMap } from "./pins";

function loadSystem(raw: unknown, chip: ChipRules): { config: SystemConfig; pinFallback: boolean } {
  const src: Bag = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw as Bag : {};
  const cfg = defaultConfig(chip);
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
  const pinFallback = validatePinMap(cfg, chip) !== null || checkI2sSet(cfg) !== null;
  if (pinFallback) {
    const defaults = chip.defaults as unknown as Bag;
    for (let name in defaults) out[name] = defaults[name];
  }
  return { config: cfg, pinFallback };
}
export default loadSystem;
