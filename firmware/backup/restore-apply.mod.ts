// The part of POST /api/v1/restore that runs once the archive has been read (restore.mod.ts has
// the whole story): it takes the sink over, and once the body has arrived whole applies each
// configuration entry, in archive order, read from the Storage file it was written to, and
// answers. An entry goes through the checks and effects of the route that writes it (PUT
// /api/v1/system, PATCH /api/v1/settings, PUT /api/v1/apps/order), as the body of a request, so
// it is checked as a request would be and takes effect the same way; for the first two through
// modules that share the route's code but make no answer (system/apply, settings/apply). One
// entry is decoded at a time, and each entry's module is dropped before the next is loaded.
import type { Reply } from "../http/types";
import { json } from "../http/types";
import type { App } from "../app";
import { failure, isFailure } from "../core/failure";
import type { Failure } from "../core/failure";
import { parseJson } from "../core/json";
import { loadModule } from "../platform/modules";
import { WIFI_FIELDS, entryNames, isWordOf } from "./layout";
import { A_SKIPPED, appliedNames, K_SYSTEM, K_WIFI, dropQueue, warn } from "./restore-state";
import type { RestoreSink, RestoreState } from "./restore-state";

/**
 * Entry `kind`'s (restore-state.ts) name, or with `module` the module that applies it: literals
 * here rather than constants of the module, which would be held for as long as it is.
 */
function byKind(module: boolean, kind: number): string {
  return (module ? "- - system/apply system/apply settings/apply apps/order" : entryNames()).split(" ")[kind];
}

type Bag = { [key: string]: unknown };

/**
 * Why entry `kind`, parsed into `entry.value`, was not applied ("storage" for want of room), or "".
 * The value is moved out of `entry` into the request, so that once the entry's module has taken
 * what it needs from the body (it lets it go before saving) nothing else holds it.
 */
function applyOne(kind: number, entry: { value: unknown }, app: App): string {
  let value = entry.value;
  entry.value = undefined;
  if (kind === K_WIFI || kind === K_SYSTEM) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
    // Each entry carries its own part of the configuration: the Wi-Fi fields or the rest. The
    // other part is taken out in place rather than the wanted one copied (the keys first: a key
    // deleted while an object is walked would end the walk).
    const other: string[] = [];
    let n = 0;
    for (const key in value as Bag) {
      if (isWordOf(WIFI_FIELDS, key) === (kind === K_WIFI)) n++;
      else other.push(key);
    }
    for (let i = 0; i < other.length; i++) delete (value as Bag)[other[i]];
    if (kind === K_WIFI && !n) return "holds neither wifiSsid nor wifiPass";
  }
  // All that these modules read of a request is its body.
  const req = { body: value };
  value = undefined;
  let out: unknown;
  try {
    out = loadModule<(req: { body: unknown }, app: App) => unknown>(byKind(true, kind))(req, app);
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
  /** Warnings these entries gave so far: each one's place comes after them. */
  let given = 0;
  while (st.queue) {
    const semi = st.queue.indexOf(";");
    const rec = st.queue.substr(0, semi).split(",");
    st.queue = st.queue.substr(semi + 1);
    const kind = +rec[0];
    const file = st.stash + rec[3];
    const parsed = parseJson(+rec[1] ? Storage.read(file, 0, +rec[1]) as string : "");
    Storage.erase(file);
    // The system configuration the entries before left held is not needed by the others.
    if (kind !== K_WIFI && kind !== K_SYSTEM) app.system.held = null;
    const why = parsed ? applyOne(kind, parsed, app) : "not valid JSON";
    if (!why) {
      st.applied[kind - K_WIFI]++;
      continue;
    }
    if (why === "storage") {
      st.unsaved++;
      warn(st, byKind(false, kind) + ": not stored, storage is full", +rec[2] + given);
    } else {
      st.applied[A_SKIPPED]++;
      warn(st, byKind(false, kind) + ": " + why + "; skipped", +rec[2] + given);
    }
    given++;
  }
  app.system.held = null;
}

// The sink's methods from the end of the archive's part (called as its methods: `this` is the
// sink). Parts after the archive are ignored, a second file with a warning.

function begin(this: RestoreSink, field: string): Failure | null {
  if (field === "file") warn(this.st, "the upload holds more than one file; only the first was read");
  return null;
}

function none(): Failure | null {
  return null;
}

/** The body has arrived whole: only now does the configuration change. */
function finish(this: RestoreSink): Reply | Failure {
  const st = this.st;
  if (st.queue) applyAll(st, this.app);
  const body: Bag = { ok: !st.rejected };
  if (st.rejected) body.error = st.rejected;
  const applied: Bag = {};
  const names = appliedNames().split(" ");
  for (let i = 0; i < names.length; i++) applied[names[i]] = st.applied[i];
  body.applied = applied;
  if (st.unlisted) st.warnings.push("and " + st.unlisted + " more");
  body.warnings = st.warnings;
  if (st.rejected) return json(body, 400);
  if (st.unsaved) {
    return failure(507, "insufficientStorage", "restored, but " + st.unsaved + " of its entries could not be " +
      "stored: free storage and restore again before rebooting");
  }
  return json(body);
}

/** The upload was cut short: the configuration entries are dropped unapplied. */
function abort(this: RestoreSink): void {
  dropQueue(this.st);
}

/** Takes sink `s` over from the reader, whose methods it replaces. */
function takeOver(s: RestoreSink): void {
  s.begin = begin;
  s.data = none;
  s.end = none;
  s.finish = finish;
  s.abort = abort;
}
export default takeOver;
