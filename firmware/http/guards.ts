// Who may ask: HTTP Basic credentials, same-site checks, host names.
import { findText } from "../core/text";

/** The realm browsers show in their login prompt. */
export const AUTH_REALM = "pixloop";

/** Host name of a Host header or authority, lower case, without the port. */
export function hostOf(authority: string): string {
  const a = authority.trim().toLowerCase();
  if (a.charAt(0) === "[") {
    const end = a.indexOf("]");
    return end < 0 ? a : a.substr(0, end + 1);
  }
  const colon = a.indexOf(":");
  return colon < 0 ? a : a.substr(0, colon);
}

function withoutDefaultPort(authority: string): string {
  const a = authority.trim().toLowerCase();
  return a.endsWith(":80") ? a.substr(0, a.length - 3) : a;
}

/**
 * Whether Authorization header `header` carries Basic credentials equal to `login`, the stored
 * user name and password as "user:pass" (system/store.ts, SystemStore.login).
 */
export function isAuthorized(header: string, login: string): boolean {
  const h = header.trim();
  if (h.substr(0, 6).toLowerCase() !== "basic ") return false;
  let decoded: string;
  try {
    decoded = atob(h.substr(6).trim());
  } catch (e) {
    return false;
  }
  return decoded === login;
}

/**
 * True when a browser says the request comes from another site: an Origin naming another host
 * than the one addressed, or a Sec-Fetch-Site other than same-origin or none.
 */
export function crossSite(origin: string, host: string, fetchSite: string): boolean {
  const site = fetchSite.trim().toLowerCase();
  if (site !== "" && site !== "same-origin" && site !== "none") return true;
  const o = origin.trim();
  if (o === "") return false;
  const scheme = findText(o, "://");
  if (scheme < 0) return true;
  let authority = o.substr(scheme + 3);
  const slash = authority.indexOf("/");
  if (slash >= 0) authority = authority.substr(0, slash);
  return withoutDefaultPort(authority) !== withoutDefaultPort(host);
}
