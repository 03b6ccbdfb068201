// PUT /api/v1/apps/pushed/{name}: an object is the app {name}; an array makes {name}0, {name}1, ...
// of its object elements (other elements take no number). All or nothing: every payload is
// checked, and the new names must fit under the cap, before any app changes. An app that exists
// is replaced in place (its place in the loop stays; its page, when loaded, is made again).
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { failure, isFailure } from "../core/failure";
import { roomFor } from "./room";
import type { StoredPayload } from "../payload/stored";
import { checkPayloads } from "../payload/check";
import { payloadFields } from "../payload/stored";
import type { PushedApp } from "./payload-app";
import type { AppLoop } from "./loop";
import { findApp } from "./find-app";
import type RefreshLoop from "./refresh.mod";
import { loadModule } from "../platform/modules";

/** Pushed apps resident at once. */
const APPS_MAX = 50;
/** Variables kept free for the clock's own work once the apps are stored. */
const RESERVE_VARS = 1500;

type Bag = { [key: string]: unknown };

function isObject(v: unknown): v is Bag {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function pushedApp(loop: AppLoop, name: string): PushedApp | null {
  const a = findApp(loop, name);
  return a && a.origin === "pushed" ? a as PushedApp : null;
}

/** Sets what the loop reads every frame from the payload: only what was given. */
function configure(a: PushedApp, p: StoredPayload, family: number, now: number): void {
  const f = payloadFields(p);
  a.p = p;
  delete a.du;
  delete a.rp;
  delete a.ex;
  delete a.mk;
  delete a.fam;
  if (f.durationMs) a.du = f.durationMs;
  if (f.repeat) a.rp = f.repeat;
  if (f.lifetimeMs) a.ex = f.lifetimeExpiry === "mark" ? -(now + f.lifetimeMs) : now + f.lifetimeMs;
  if (family) a.fam = family;
}

const push: Handler = (req, app) => {
  const base = req.params.name;
  const body = req.body;
  const bodies: Bag[] = [];
  const names: string[] = [];
  if (Array.isArray(body)) {
    for (const e of body) {
      if (!isObject(e)) continue;
      names.push(base + bodies.length);
      bodies.push(e);
    }
  } else if (isObject(body)) {
    if (Object.keys(body).length) {
      names.push(base);
      bodies.push(body);
    }
  } else if (body !== undefined) {
    return failure(400, "invalidJson", "a payload must be a JSON object or an array of objects");
  }
  if (!bodies.length) {
    return failure(422, "validationFailed", "a JSON body is required; use DELETE /api/v1/apps/{name} to remove the app");
  }
  const stored = checkPayloads(bodies, false);
  if (isFailure(stored)) return stored;
  const display = app.display;
  const loop = display.loop;
  let count = 0;
  for (const a of loop.apps) if (a.origin === "pushed") count++;
  for (const name of names) if (!pushedApp(loop, name)) count++;
  if (count > APPS_MAX) return failure(507, "insufficientStorage", "at most " + APPS_MAX + " pushed apps; delete one first");
  if (!roomFor(RESERVE_VARS)) return failure(507, "insufficientStorage", "not enough free memory to keep the app");
  const now = loop.life;
  const family = Array.isArray(body) ? base.length : 0;
  for (let i = 0; i < names.length; i++) {
    let a = pushedApp(loop, names[i]);
    if (!a) {
      a = new display.Pushed(names[i], stored[i]);
      loop.apps.push(a);
    }
    configure(a, stored[i], family, now);
    if (a.ex !== undefined) loop.expires = Math.min(loop.expires, Math.abs(a.ex));
    // An app on screen (or next) shows its new payload at once.
    if (a.page) {
      a.release();
      a.load();
    }
  }
  // Pages are made once this request has let go of its parsed body.
  loadModule<typeof RefreshLoop>("apps/refresh")(loop, true);
  return ok();
};
export default push;
