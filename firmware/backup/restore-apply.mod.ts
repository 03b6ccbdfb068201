// The part of POST /api/v1/restore that runs once the archive has been read (restore.mod.ts has
// the whole story): each configuration entry, in archive order, read from the Storage file it was
// written to, goes through the handler of the route that writes it (PUT /api/v1/system, PATCH
// /api/v1/settings, PUT /api/v1/apps/order) as the body of a request, so it is checked as a
// request would be and takes effect the same way. One entry is decoded at a time, and each
// handler is dropped before the next is loaded.
import type { ApiRequest, Handler, Reply } from "../http/types";
import type { App } from "../app";
import { failure, isFailure } from "../core/failure";
import type { Failure } from "../core/failure";
import { parseJson } from "../core/json";
import { loadModule } from "../platform/modules";
import { MANIFEST, ORDER_ENTRY, SETTINGS_ENTRY, SYSTEM_ENTRY, WIFI_ENTRY, WIFI_FIELDS, isWordOf } from "./layout";
import { K_SYSTEM, K_WIFI, warn } from "./restore-state";
import type { RestoreState } from "./restore-state";

/** By kind: the entry's name, the route handler that applies it, and its count in `applied`. */
const NAMES = "- " + MANIFEST + " " + WIFI_ENTRY + " " + SYSTEM_ENTRY + " " + SETTINGS_ENTRY + " " + ORDER_ENTRY;
const HANDLERS = "- - system/put system/put settings/patch apps/order";
const COUNTS = "- - wifi system settings appLoop";

type Bag = { [key: string]: unknown };

function isObject(v: unknown): v is Bag {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Why entry `kind`, parsed into `entry.value`, was not applied ("storage" for want of room), or "".
 * The value is moved out of `entry` into the request, so that once the handler has taken what it
 * needs from the body (system/put lets it go before saving) nothing else holds it.
 */
function applyOne(kind: number, entry: { value: unknown }, app: App): string {
  let value = entry.value;
  entry.value = undefined;
  if (kind === K_WIFI || kind === K_SYSTEM) {
    if (!isObject(value)) return "not a JSON object";
    // Each entry carries its own part of the configuration: the Wi-Fi fields or the rest. The
    // other part is taken out in place rather than the wanted one copied (the keys first: a key
    // deleted while an object is walked would end the walk).
    const other: string[] = [];
    let n = 0;
    for (const key in value) {
      if (isWordOf(WIFI_FIELDS, key) === (kind === K_WIFI)) n++;
      else other.push(key);
    }
    for (let i = 0; i < other.length; i++) delete value[other[i]];
    if (kind === K_WIFI && !n) return "holds neither wifiSsid nor wifiPass";
  }
  const req: ApiRequest = { method: "PUT", path: "", query: {}, header: () => "", body: value, raw: "", params: {} };
  value = undefined;
  let out: Reply | Failure;
  try {
    out = loadModule<Handler>(HANDLERS.split(" ")[kind])(req, app);
  } catch (e) {
    out = failure(500, "internalError", "command failed");
  }
  if (!isFailure(out)) return "";
  if (out.status === 507) return "storage";
  return (out.field ? out.field + ": " : "") + out.message;
}

/** Applies the entries of `st.queue`, erasing each one's file; their warnings go where they fall. */
function applyAll(st: RestoreState, app: App): void {
  const Storage = require("Storage");
  let queue = st.queue;
  st.queue = "";
  /** Warnings these entries gave so far: each one's place comes after them. */
  let given = 0;
  while (queue) {
    const semi = queue.indexOf(";");
    const rec = queue.substr(0, semi).split(",");
    queue = queue.substr(semi + 1);
    const kind = +rec[0];
    const len = +rec[1];
    const file = st.stash + rec[3];
    const parsed = parseJson(len ? Storage.read(file, 0, len) as string : "");
    Storage.erase(file);
    const why = parsed ? applyOne(kind, parsed, app) : "not valid JSON";
    if (!why) {
      st.applied[COUNTS.split(" ")[kind]]++;
      continue;
    }
    const name = NAMES.split(" ")[kind];
    if (why === "storage") {
      st.unsaved++;
      warn(st, name + ": not stored, storage is full", +rec[2] + given);
    } else {
      st.applied.skipped++;
      warn(st, name + ": " + why + "; skipped", +rec[2] + given);
    }
    given++;
  }
}
export default applyAll;

