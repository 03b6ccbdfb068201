// What a backup archive holds, by entry name: what GET /api/v1/backup writes and what
// POST /api/v1/restore applies, in this order.

/** The product the manifest must name, and the layout this firmware writes and reads. */
export const BACKUP_APP = "pixloop";
export const BACKUP_FORMAT = 1;

export const MANIFEST = "manifest.json";
export const WIFI_ENTRY = "config/wifi.json";
export const SYSTEM_ENTRY = "config/system.json";
export const SETTINGS_ENTRY = "config/settings.json";
export const ORDER_ENTRY = "apploop.json";

/**
 * The configuration entries' names by kind (restore-state.ts: "-" for kind 0), the names above:
 * made when asked for, so that a module reading archives does not hold them.
 */
export function entryNames(): string {
  return "- manifest.json config/wifi.json config/system.json config/settings.json apploop.json";
}

// Lists are words of one string, split where they are used: an array of strings held by a module
// costs a few variables per word for as long as the module is loaded.

/** The system fields that travel in WIFI_ENTRY rather than SYSTEM_ENTRY. */
export const WIFI_FIELDS = "wifiSsid wifiPass";

/**
 * Archive folders of the files API's folders ("ICONS/mail.gif" is /ICONS/mail.gif), made when
 * asked for.
 */
export function fileFolders(): string {
  return "ICONS MELODIES PALETTES MP3";
}

/** Whether `word` is one of the words of `list`. */
export function isWordOf(list: string, word: string): boolean {
  return list.split(" ").indexOf(word) >= 0;
}

