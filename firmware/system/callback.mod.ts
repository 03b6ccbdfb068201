// One button edge posted to the buttonCallback URL: POST with the form fields
// button=<left|middle|right>&state=<1|0>&uid=<the device's uid>. Fire and forget: the answer is
// read and dropped, redirects are not followed, nothing is sent twice. At most one request is out
// at a time; edges that come meanwhile are coalesced: the newest one waits and goes out when the
// request ends, so the listener always learns the last state. A failure is logged once per URL,
// until a request succeeds. Only plain http:// URLs are sent.
import type { CallbackState } from "./button-callback";
import { log } from "../logs/log";

interface Target { host: string; port: number; path: string }

/** Host, port and path of a plain http:// URL; null for anything else (https:// included). */
function httpTarget(url: string): Target | null {
  if (url.substr(0, 7).toLowerCase() !== "http://") return null;
  let rest = url.substr(7);
  const hash = rest.indexOf("#");
  if (hash >= 0) rest = rest.substr(0, hash);
  let split = rest.indexOf("/");
  const query = rest.indexOf("?");
  if (query >= 0 && (split < 0 || query < split)) split = query;
  // Credentials in the URL are dropped: the webhook sends no Authorization.
  const authority = (split < 0 ? rest : rest.substr(0, split)).split("@");
  let host = authority[authority.length - 1];
  let path = split < 0 ? "/" : rest.substr(split);
  if (path.charAt(0) === "?") path = "/" + path;
  let port = 80;
  const colon = host.indexOf(":");
  if (colon >= 0) {
    const digits = host.substr(colon + 1);
    port = /^[0-9]+$/.test(digits) ? parseInt(digits, 10) : 0;
    host = host.substr(0, colon);
  }
  if (!host || port < 1 || port > 65535) return null;
  return { host, port, path };
}

function failed(st: CallbackState, url: string, why: string): void {
  if (st.failed === url) return;
  st.failed = url;
  log("buttonCallback " + url + ": " + why);
}

function post(st: CallbackState, edge: string): void {
  const app = st.app;
  const url = app.system.live.buttonCallback;
  // Emptied while a request was out.
  if (!url) return;
  const to = httpTarget(url);
  if (!to) return failed(st, url, "not sent, only plain http:// URLs are");
  const body = edge + "&uid=" + app.runtime.uid;
  st.busy = true;
  let over = false;
  const done = (why: string) => {
    if (over) return;
    over = true;
    st.busy = false;
    if (why) failed(st, url, why);
    else st.failed = "";
    const next = st.next;
    st.next = "";
    if (next) post(st, next);
  };
  try {
    const req = require("http").request({
      host: to.host, port: to.port, path: to.path, method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "" + body.length },
    }, (res) => {
      // Read and dropped: an answer left unread would pile up in memory until the close.
      res.on("data", () => undefined);
      res.on("close", () => done(+res.statusCode >= 400 ? "answered " + res.statusCode : ""));
    });
    req.on("error", (e) => done((e && e.message) || "failed"));
    req.end(body);
  } catch (e) {
    // A host name that does not resolve throws here; the error event may still come, and is ignored.
    done("" + e);
  }
}

/** An edge of button `name`: sent now, or, while a request is out, kept as the one to send next. */
const sendCallback = (st: CallbackState, name: string, pressed: boolean): void => {
  const edge = "button=" + name + "&state=" + (pressed ? "1" : "0");
  if (st.busy) st.next = edge;
  else post(st, edge);
};
export default sendCallback;
