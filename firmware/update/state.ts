// `update` in GET /api/v1/device: what the last firmware update is doing or came to.
import type { App } from "../app";
import { loadRecord } from "./record";

export interface UpdateView { state: string; release: string; error: string }

/**
 * applying: a package is being taken in (or has been, and the restart is due); boot-pending: the
 * running release is on trial; confirmed: it proved itself; failed: the last update did not take
 * (a release rolled back, or an install that broke off); idle: no update since the last flash.
 */
export function updateView(app: App): UpdateView {
  const live = app.update;
  if (live) return { state: live.state, release: live.release, error: live.error };
  const s = loadRecord().state;
  if (s.run !== s.good) return { state: "boot-pending", release: s.release, error: "" };
  return { state: s.last === "confirmed" || s.last === "failed" ? s.last : "idle", release: s.release, error: s.error };
}
