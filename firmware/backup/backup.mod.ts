// GET /api/v1/backup: the clock as an archive that POST /api/v1/restore takes back: the manifest,
// the configuration (Wi-Fi apart from the rest; secrets only with ?secrets=1, which the transport
// guards as it guards GET /api/v1/system?secrets=1), the settings, the app arrangement, then every
// file of the files API. A store-only ZIP sent a piece at a time: each file's CRC-32 is taken from
// flash before its header, its bytes are read from flash as they are sent, and what the central
// directory needs is kept as three numbers per entry.
import type { Handler, Reply } from "../http/types";
import type { App } from "../app";
import { toJson } from "../core/json";
import { publicView } from "../system/schema";
import type { Bag } from "../system/schema";
import { publicSettings } from "../settings/schema";
import { listFiles } from "../files/store";
import { centralHeader, dosTime, endRecord, localHeader } from "./zip";
import { BACKUP_APP, BACKUP_FORMAT, MANIFEST, ORDER_ENTRY, SETTINGS_ENTRY, SYSTEM_ENTRY, WIFI_ENTRY,
  WIFI_FIELDS, fileFolders, isWordOf } from "./layout";

/** Bytes of a file sent at a time. */
const SLICE = 1024;
/** Central directory records sent at a time. */
const RECORDS = 8;

/** The configuration entry `name` as JSON text. */
function entryText(app: App, name: string, secrets: boolean): string {
  if (name === MANIFEST) {
    return toJson({ app: BACKUP_APP, backupFormat: BACKUP_FORMAT, version: app.version, board: app.board.id, secrets });
  }
  if (name === SETTINGS_ENTRY) return toJson(publicSettings(app.settings.current));
  if (name === ORDER_ENTRY) {
    const loop = app.display.loop;
    // An arrangement never set stays unset: the order key is left out, as PUT takes it.
    return toJson(loop.order ? { order: loop.order, disabled: loop.off } : { disabled: loop.off });
  }
  const all = publicView(app.system.config, secrets);
  const out: Bag = {};
  const wifi = name === WIFI_ENTRY;
  for (const key in all) if (isWordOf(WIFI_FIELDS, key) === wifi) out[key] = all[key];
  return toJson(out);
}

/** An entry of the list: its archive name, and for a file a NUL and its Storage name. */
function archiveName(entry: string): string {
  const nul = entry.indexOf("\u0000");
  return nul < 0 ? entry : entry.substr(0, nul);
}

class BackupWriter {
  private app: App;
  private secrets: boolean;
  /** The entries in order, configuration first; one string each (see archiveName). */
  private entries: string[];
  private fixed: number;
  /** CRC-32, size and offset of each entry sent; size 0xFFFFFFFF for a file gone before its turn. */
  private table: Uint32Array;
  private time: number;
  private index: number;
  /** Bytes of the current file sent; -1 before its header. */
  private pos: number;
  private offset: number;
  private dirStart: number;
  private record: number;

  constructor(app: App, secrets: boolean) {
    this.app = app;
    this.secrets = secrets;
    const entries = [MANIFEST];
    if (app.system.config.wifiSsid !== "") entries.push(WIFI_ENTRY);
    entries.push(SYSTEM_ENTRY, SETTINGS_ENTRY, ORDER_ENTRY);
    this.fixed = entries.length;
    const folders = fileFolders().split(" ");
    for (let f = 0; f < folders.length; f++) {
      // Each file as its name, a NUL and its Storage name (long names included).
      const found = listFiles("/" + folders[f]);
      for (let i = 0; i < found.length; i++) entries.push(folders[f] + "/" + found[i]);
    }
    this.entries = entries;
    this.table = new Uint32Array(3 * entries.length);
    this.time = dosTime(Date.now());
    this.index = 0;
    this.pos = -1;
    this.offset = 0;
    this.dirStart = -1;
    this.record = 0;
  }

  /** The next piece of the archive, or undefined once it has all been sent. */
  next(): string | undefined {
    const count = this.entries.length;
    if (this.index < count) return this.entry();
    if (this.dirStart < 0) this.dirStart = this.offset;
    if (this.record > count) return undefined;
    let out = "";
    const t = this.table;
    for (let n = 0; n < RECORDS && this.record < count; n++, this.record++) {
      const i = this.record;
      if (t[3 * i + 1] !== 0xFFFFFFFF) out += centralHeader(archiveName(this.entries[i]), t[3 * i], t[3 * i + 1], this.time, t[3 * i + 2]);
    }
    if (this.record === count) {
      this.record++;
      let sent = 0;
      for (let i = 0; i < count; i++) if (t[3 * i + 1] !== 0xFFFFFFFF) sent++;
      const size = this.offset - this.dirStart + out.length;
      out += endRecord(sent, size, this.dirStart);
    }
    this.offset += out.length;
    return out;
  }

  /** A piece of the current entry: its header with the first bytes, or the next bytes. */
  private entry(): string {
    const i = this.index;
    const name = archiveName(this.entries[i]);
    const t = this.table;
    if (i < this.fixed) {
      const text = entryText(this.app, name, this.secrets);
      const crc = E.CRC32(text) >>> 0;
      const out = localHeader(name, crc, text.length, this.time) + text;
      this.remember(i, crc, text.length);
      this.offset += out.length;
      this.index++;
      return out;
    }
    const Storage = require("Storage");
    const file = this.entries[i].substr(name.length + 1);
    let out = "";
    if (this.pos < 0) {
      const whole = Storage.read(file);
      if (whole === undefined) {
        // Erased since the list was taken: left out of the archive.
        t[3 * i + 1] = 0xFFFFFFFF;
        this.index++;
        return "";
      }
      const crc = E.CRC32(whole) >>> 0;
      this.remember(i, crc, whole.length);
      out = localHeader(name, crc, whole.length, this.time);
      this.pos = 0;
    }
    const size = t[3 * i + 1];
    const n = Math.min(SLICE, size - this.pos);
    let piece = n > 0 ? Storage.read(file, this.pos, n) : "";
    // A file changed under the archive keeps its place; its CRC-32 then tells the restore.
    if (piece === undefined || piece.length !== n) piece = "\x00".repeat(n);
    out = out ? out + piece : piece;
    this.pos += n;
    if (this.pos >= size) {
      this.pos = -1;
      this.index++;
    }
    this.offset += out.length;
    return out;
  }

  private remember(i: number, crc: number, size: number): void {
    this.table[3 * i] = crc;
    this.table[3 * i + 1] = size;
    this.table[3 * i + 2] = this.offset;
  }
}

const getBackup: Handler = (req, app) => {
  const writer = new BackupWriter(app, req.query.secrets === "1");
  const reply: Reply = {
    status: 200,
    text: "",
    contentType: "application/zip",
    headers: { "Content-Disposition": "attachment; filename=\"pixloop-backup.zip\"" },
    chunks: () => writer.next(),
  };
  return reply;
};
export default getBackup;
