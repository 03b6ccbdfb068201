// Device identity derived from the Wi-Fi MAC address.

/** The firmware kind, reported as boardType and used in the derived hostname. */
export const BOARD_TYPE = "pixloop";

/** 12 lower-case hex digits: the MAC without separators. */
export function uidFromMac(mac: string): string {
  return mac.split(":").join("").split("-").join("").toLowerCase();
}

/** "AA:BB:CC:DD:EE:FF" from a uid. */
export function macFromUid(uid: string): string {
  let out = "";
  for (let i = 0; i < uid.length; i += 2) out += (i ? ":" : "") + uid.substr(i, 2);
  return out.toUpperCase();
}

/** The hostname used while the system config leaves it empty: "pixloop-" + last six hex of uid. */
export function derivedHostname(uid: string): string {
  return BOARD_TYPE + "-" + uid.substr(uid.length > 6 ? uid.length - 6 : 0);
}
