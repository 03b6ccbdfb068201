// The Wi-Fi radio: station join, the setup access point, identity.

const Wifi = require("Wifi");

/** MAC as "aa:bb:cc:dd:ee:ff". */
export function macAddress(): string {
  return Wifi.getIP().mac;
}

export function stationIp(): string {
  return Wifi.getIP().ip;
}

export function accessPointIp(): string {
  return Wifi.getAPIP().ip;
}

export function rssi(): number {
  return Wifi.getDetails().rssi || 0;
}

export function isJoined(): boolean {
  return Wifi.getDetails().status === "connected";
}

/** Calls back once: joined (null) or the radio's reason for failing. */
export function join(ssid: string, password: string, done: (err: string | null) => void): void {
  Wifi.connect(ssid, { password }, (err) => done(err || null));
}

export function openAccessPoint(ssid: string, done: (err: string | null) => void): void {
  Wifi.startAP(ssid, { authMode: "open" }, (err) => done(err || null));
}

export function setHostname(name: string): void {
  Wifi.setHostname(name);
}

/** `fn` runs each time the station's link drops (handed to the radio as it is: no wrapper to keep). */
export function onLinkLost(fn: () => void): void {
  Wifi.on("disconnected", fn);
}

export interface ScanResult { ssid: string; rssi: number; enc: boolean }

export function scan(done: (found: ScanResult[]) => void): void {
  Wifi.scan((aps) => done(aps.map((ap) => ({ ssid: ap.ssid, rssi: ap.rssi, enc: ap.authMode !== "open" }))));
}
