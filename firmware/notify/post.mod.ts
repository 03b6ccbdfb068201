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
import type { Notice } from "./queue";

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
  const q = app.display.notices;
  const f = payloadFields(p);
  const replace = f.stack === false && q.items.length > 0;
  if (!replace && q.items.length >= QUEUE_MAX) return failure(507, "insufficientStorage", "the notification queue is full");
  if (!roomFor(RESERVE_VARS)) return failure(507, "insufficientStorage", "not enough free memory to queue it");
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
  // Pages are made once this request has let go of its parsed body.
  app.display.loop.later();
  return ok();
};
export default postNotification;
