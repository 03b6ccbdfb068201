// Espruino's ESP32 `Wifi` module against simulated networks: station join, the setup access
// point, scans and the link events.

export interface SimNetworkSpec { ssid: string; password: string; rssi: number; open?: boolean }

type Fn = (...a: unknown[]) => void;

export class SimWifi {
  joined: SimNetworkSpec | null = null;
  apSsid: string | null = null;
  hostname = "";
  /** Scans started since boot, and whether one is running. */
  scans = 0;
  scanning = false;
  /** How long a scan takes, ms. */
  scanMs = 200;
  private listeners: { [ev: string]: Fn[] } = {};

  constructor(
    readonly networks: SimNetworkSpec[],
    readonly mac: string,
    readonly ip: string,
    /** How long a join attempt takes, ms. */
    readonly joinDelayMs = 20,
    /** Timers of the firmware's world, so callbacks stop when the firmware restarts. */
    private schedule: (fn: () => void, ms: number) => void = (fn, ms) => { setTimeout(fn, ms); },
  ) {}

  private emit(ev: string, details: unknown): void {
    for (const fn of this.listeners[ev] || []) fn(details);
  }

  module(): object {
    return {
      getIP: () => ({ ip: this.joined ? this.ip : "0.0.0.0", netmask: this.joined ? "255.0.0.0" : "0.0.0.0",
        gw: this.joined ? "127.0.0.1" : "0.0.0.0", mac: this.mac }),
      getAPIP: () => ({ ip: this.apSsid ? this.ip : "0.0.0.0", netmask: "255.255.255.0", gw: this.ip, mac: this.mac }),
      getDetails: () => (this.joined
        ? { status: "connected", rssi: this.joined.rssi, ssid: this.joined.ssid }
        : { status: "off" }),
      getStatus: () => ({ station: this.joined ? "connected" : "off", ap: this.apSsid ? "enabled" : "disabled" }),
      connect: (ssid: string, opts: { password?: string }, cb: (err: string | null) => void) => {
        this.schedule(() => {
          const net = this.networks.find((n) => n.ssid === ssid);
          if (!net) return cb("no AP found");
          if (!net.open && (opts.password || "") !== net.password) return cb("auth failed");
          this.joined = net;
          this.emit("connected", { ssid, ip: this.ip });
          cb(null);
        }, this.joinDelayMs);
      },
      disconnect: (cb?: () => void) => {
        this.joined = null;
        this.emit("disconnected", {});
        if (cb) this.schedule(cb, 0);
      },
      startAP: (ssid: string, _opts: object, cb: (err: string | null) => void) => {
        this.apSsid = ssid;
        this.schedule(() => cb(null), 0);
      },
      stopAP: (cb?: () => void) => {
        this.apSsid = null;
        if (cb) this.schedule(cb, 0);
      },
      // As Espruino's ESP32 build reports them (libs/network/esp32/jswrap_esp32_network.c): the
      // scan runs in the radio, the callback comes once it is done, and a second scan asked for
      // meanwhile throws. The channel is a string there, the SSID its bytes ("" when hidden).
      scan: (cb: (aps: object[]) => void) => {
        if (this.scanning) throw new Error("A scan is already in progress");
        this.scanning = true;
        this.scans++;
        this.schedule(() => {
          this.scanning = false;
          cb(this.networks.map((n) => ({
            rssi: n.rssi, authMode: n.open ? "open" : "wpa2", ssid: n.ssid,
            mac: "00:00:00:00:00:00", channel: "6",
          })));
        }, this.scanMs);
      },
      setHostname: (name: string) => { this.hostname = name; },
      on: (ev: string, fn: Fn) => { (this.listeners[ev] = this.listeners[ev] || []).push(fn); },
    };
  }

  /** Drops the link, as when the router goes away. */
  dropLink(): void {
    this.joined = null;
    this.emit("disconnected", { reason: "simulated" });
  }
}
