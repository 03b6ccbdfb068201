// Whether a backup archive's manifest.json names this product and layout: a module of its own,
// run once as a restore's archive begins (restore.mod.ts) rather than held through the archive.
import { parseJson } from "../core/json";
import { BACKUP_APP, BACKUP_FORMAT, MANIFEST } from "./layout";
import { NAME_SHOWN } from "./restore-state";

/** A value from the archive as a message shows it: JSON, cut short. */
function shown(v: unknown): string {
  const t = JSON.stringify(v);
  if (t === undefined) return "none";
  return t.length > NAME_SHOWN ? t.substr(0, NAME_SHOWN) + "..." : t;
}

/** Why the manifest's `text` refuses the archive, or "" when it names this product and layout. */
function checkManifest(text: string): string {
  const parsed = parseJson(text);
  const m = parsed ? parsed.value as { [key: string]: unknown } : undefined;
  if (typeof m !== "object" || m === null || Array.isArray(m)) return MANIFEST + " is not a JSON object";
  if (m.app !== BACKUP_APP) return "not a " + BACKUP_APP + " backup: its manifest names app " + shown(m.app);
  if (m.backupFormat !== BACKUP_FORMAT) {
    return "backupFormat " + shown(m.backupFormat) + " is not supported (this firmware reads " + BACKUP_FORMAT + ")";
  }
  return "";
}
export default checkManifest;
