// POST /api/v1/notifications: one payload (an array may carry at most one; an empty one, or one
// whose element is not an object, is a notification with every key at its default). Queued behind
// the others, or with stack false in place of the one on screen (those waiting stay, and a full
// queue does not refuse it). Nothing is queued when anything is refused.
import type { Handler } from "../http/types";
import { ok } from "../http/types";
import { failure, isFailure } from "../core/failure";
import { roomFor } from "../apps/room";
import { checkPayloads } from "../payload/check";
import { payloadFields } from "../payload/stored";
import { loadModule } from "../platform/modules";
import type NoticeQueue from "./queue.mod";
import type { Notice } from "./queue.mod";

/** The queue's capacity, the notification on screen included. */
const QUEUE_MAX = 32;
/** Variables kept free for the clock's own work once the notification is queued. */
const RESERVE_VARS = 1500;

function isObject(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const postNotification: Handler = (req, app) => {
  let body = req.body;
  if (Array.isArray(body)) {
    if (body.length > 1) {
      return failure(422, "validationFailed", "send one notification per request; an array of more than one is not accepted");
    }
    body = body.length && isObject(body[0]) ? body[0] : {};
  } else if (!isObject(body)) {
    return failure(400, "invalidJson", "a notification must be a JSON object");
  }
  const checked = checkPayloads([body], true);
  if (isFailure(checked)) return checked;
  const p = checked[0];
  const display = app.display;
  const loop = display.loop;
  const queued = loop.cover as NoticeQueue | null;
  const waiting = queued ? queued.items.length : 0;
  const f = payloadFields(p);
  const replace = f.stack === false && waiting > 0;
  if (!replace && waiting >= QUEUE_MAX) return failure(507, "insufficientStorage", "the notification queue is full");
  if (!roomFor(RESERVE_VARS)) return failure(507, "insufficientStorage", "not enough free memory to queue it");
  // The first notification brings the queue; it leaves with the last (queue.mod.ts).
  const q = queued || new (loadModule<typeof NoticeQueue>("notify/queue"))(loop, app.runtime, display.pages);
  const n: Notice = { p };
  if (f.durationMs) n.du = f.durationMs;
  if (f.repeat) n.rp = f.repeat;
  if (f.hold) n.hd = 1;
  if (f.wakeup) n.wk = 1;
  if (replace) {
    q.drop(0);
    q.items.unshift(n);
  } else {
    q.items.push(n);
  }
  // Set again after a replacement: dropping the only one took the queue off.
  loop.cover = q;
  // Pages are made once this request has let go of its parsed body.
  loop.later();
  return ok();
};
export default postNotification;
