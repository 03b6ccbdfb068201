// A simulated clock: a firmware bundle running in a fresh JavaScript context whose globals and
// modules behave as Espruino's do on an ESP32. Restarts (E.reboot, deep sleep) run the bundle
// again in a new context, on the same port and the same emulated flash.
import * as fs from "node:fs";
import * as vm from "node:vm";
import { createHash } from "node:crypto";
import { SimStorage } from "./storage";
import { SimNetwork } from "./http";
import { HostSockets } from "./net";
import { SimHttpClient, type RequestOptions } from "./http-client";
import { SimWifi, type SimNetworkSpec } from "./wifi";
import { crc32 } from "./crc32";
import { SimHardware } from "./hardware";
import { Graphics } from "./graphics";

export const SIM_NETWORK: SimNetworkSpec = { ssid: "pixloop-sim", password: "simulated", rssi: -52 };

export interface SimOptions {
  bundle: string;
  dataDir: string;
  port?: number;
  /** Simulated networks in range; the default is SIM_NETWORK. */
  networks?: SimNetworkSpec[];
  mac?: string;
  /** Interpreter variables the device has (a plain ESP32 gets about 12,000). */
  variables?: number;
  hardware?: SimHardware;
  /** Where firmware output goes; default: stdout. */
  log?: (line: string) => void;
}

interface TimerEntry { handle: NodeJS.Timeout; interval: boolean }

export class SimDevice {
  readonly storage: SimStorage;
  readonly network = new SimNetwork();
  /** The firmware's client sockets (`net`, `tls`), real ones on the host. */
  readonly sockets = new HostSockets((fn) => this.guard(fn));
  /** The firmware's HTTP client requests (`http.request`), real ones on the host. */
  readonly httpClient = new SimHttpClient((fn) => this.guard(fn));
  readonly hardware: SimHardware;
  wifi!: SimWifi;
  port = 0;
  boots = 0;
  /** Errors the firmware threw and did not catch (Espruino prints them and carries on). */
  readonly uncaught: string[] = [];
  /** Frames handed to neopixel.write, newest last (at most 50 kept). */
  readonly frames: { pin: number; data: Uint8Array }[] = [];
  private timers = new Map<number, TimerEntry>();
  private watches = new Map<number, { pin: number; fn: (e: object) => void; edge: string }>();
  private nextId = 1;
  private context: vm.Context | null = null;
  private bootedAt = 0;
  private pendingWake: NodeJS.Timeout | null = null;
  private onBoot: (() => void)[] = [];

  constructor(readonly options: SimOptions) {
    this.storage = new SimStorage(options.dataDir);
    this.hardware = options.hardware || new SimHardware();
    this.network.guard = (fn) => this.guard(fn);
  }

  get url(): string {
    return "http://127.0.0.1:" + this.port;
  }

  async start(): Promise<void> {
    this.port = await this.network.listen(this.options.port || 0);
    await this.boot("poweron");
  }

  /** Stops everything; the process may exit afterwards. */
  async stop(): Promise<void> {
    this.halt();
    if (this.pendingWake) clearTimeout(this.pendingWake);
    await this.network.close();
  }

  /** Resolves once the firmware listens for HTTP again. */
  waitForServer(timeoutMs = 10000): Promise<void> {
    if (this.network.attached) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error("firmware did not start its server")), timeoutMs);
      const poll = setInterval(() => {
        if (this.network.attached) {
          clearTimeout(t);
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
  }

  /** Resolves at the next boot of the firmware. */
  nextBoot(): Promise<void> {
    return new Promise((resolve) => this.onBoot.push(resolve));
  }

  log(line: string): void {
    (this.options.log || ((l: string) => process.stdout.write(l + "\n")))(line);
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      const msg = e instanceof Error ? (e.stack || e.message) : String(e);
      this.uncaught.push(msg);
      this.log("Uncaught " + msg);
    }
  }

  private halt(): void {
    for (const t of this.timers.values()) (t.interval ? clearInterval : clearTimeout)(t.handle);
    this.timers.clear();
    this.watches.clear();
    this.network.detach();
    this.sockets.closeAll();
    this.httpClient.closeAll();
    this.context = null;
  }

  private restartLater(delayMs: number): void {
    this.halt();
    this.pendingWake = setTimeout(() => {
      this.pendingWake = null;
      void this.boot("restart");
    }, delayMs);
  }

  private async boot(_why: string): Promise<void> {
    this.halt();
    this.boots++;
    this.bootedAt = Date.now();
    this.wifi = new SimWifi(this.options.networks || [SIM_NETWORK], this.options.mac || "24:6f:28:a1:b2:c3",
      "127.0.0.1", 20, (fn, ms) => this.addTimer(fn, ms, false));
    const context = vm.createContext(this.globals());
    this.context = context;
    // A flash that holds the boot stage boots as a clock does: .bootcde, which starts a slot's
    // bundle from Storage (firmware/update/README.md); without one, the bundle file runs.
    const stored = this.storage.read(".bootcde");
    const code = stored !== undefined ? stored : fs.readFileSync(this.options.bundle, "utf8");
    this.guard(() => vm.runInContext(code, context, { filename: stored !== undefined ? ".bootcde" : this.options.bundle }));
    const waiting = this.onBoot;
    this.onBoot = [];
    for (const fn of waiting) fn();
  }

  private addTimer(fn: () => void, ms: number, interval: boolean): number {
    const id = this.nextId++;
    const owner = this.context;
    const run = () => {
      if (this.context !== owner) return;
      if (!interval) this.timers.delete(id);
      this.guard(fn);
    };
    const handle = interval ? setInterval(run, Math.max(ms, 1)) : setTimeout(run, ms);
    this.timers.set(id, { handle, interval });
    return id;
  }

  private clearTimer(id?: number): void {
    if (id === undefined) return;
    const t = this.timers.get(id);
    if (!t) return;
    (t.interval ? clearInterval : clearTimeout)(t.handle);
    this.timers.delete(id);
  }

  /** Presses (true) or releases (false) whatever is wired to a pin. */
  setPin(pin: number, high: boolean): void {
    this.hardware.digital[pin] = high;
    for (const w of this.watches.values()) {
      if (w.pin !== pin) continue;
      if (w.edge === "both" || (w.edge === "rising") === high) {
        this.guard(() => w.fn({ state: high, time: Date.now() / 1000, pin }));
      }
    }
  }

  /**
   * Variables process.memory() reports in use. The host cannot count Espruino variables: this
   * only keeps the shape, and tests set it to put the firmware under memory pressure (the
   * measurements are made in the real interpreter).
   */
  variablesInUse = 2000;

  private memory(): object {
    const total = this.options.variables || 12000;
    const usage = Math.min(total, this.variablesInUse);
    return { free: total - usage, usage, total, history: 0, gc: 0, gctime: 0, blocksize: 14 };
  }

  private globals(): object {
    const self = this;
    const modules: { [name: string]: unknown } = {
      Storage: this.storage,
      // Espruino's crypto (ESP32 builds have CRYPTO): SHA256 of a string's bytes, as an ArrayBuffer.
      crypto: {
        SHA256(data: string | Uint8Array) {
          const d = createHash("sha256").update(typeof data === "string" ? Buffer.from(data, "latin1") : Buffer.from(data)).digest();
          return d.buffer.slice(d.byteOffset, d.byteOffset + d.length);
        },
      },
      http: Object.assign(this.network.module(), {
        request: (opts: RequestOptions | string, cb: (res: unknown) => void) => this.httpClient.request(opts, cb),
      }),
      net: this.sockets.module(false),
      tls: this.sockets.module(true),
      Wifi: this.wifi.module(),
      neopixel: {
        write(pin: number, data: Uint8Array | number[]) {
          self.frames.push({ pin, data: Uint8Array.from(data) });
          if (self.frames.length > 50) self.frames.shift();
        },
      },
      ESP32: {
        deepSleep(us: number) {
          self.restartLater(Math.min(us / 1000, 60000));
        },
        getState() {
          return { sdkVersion: "sim", freeHeap: 100000, BLE: false, Wifi: true, minHeap: 90000 };
        },
      },
    };
    const hw = this.hardware;
    return {
      require(name: string) {
        if (!(name in modules)) throw new Error("Module " + name + " not found");
        return modules[name];
      },
      setTimeout: (fn: () => void, ms?: number) => this.addTimer(fn, ms || 0, false),
      setInterval: (fn: () => void, ms: number) => this.addTimer(fn, ms, true),
      clearTimeout: (id?: number) => this.clearTimer(id),
      clearInterval: (id?: number) => this.clearTimer(id),
      getTime: () => Date.now() / 1000,
      print: (...a: unknown[]) => this.log(a.map(String).join(" ")),
      console: { log: (...a: unknown[]) => this.log(a.map(String).join(" ")) },
      btoa: (s: string) => Buffer.from(s, "latin1").toString("base64"),
      atob: (s: string) => Buffer.from(s, "base64").toString("latin1"),
      analogRead: (pin: number) => hw.analogRead(pin),
      digitalRead: (pin: number) => (hw.digital[pin] === false ? 0 : 1),
      digitalWrite: (pin: number, v: number | boolean) => { hw.digital[pin] = !!v; },
      pinMode: () => undefined,
      setWatch: (fn: (e: object) => void, pin: number, opts: { edge?: string }) => {
        const id = this.nextId++;
        this.watches.set(id, { pin, fn, edge: (opts && opts.edge) || "both" });
        return id;
      },
      clearWatch: (id?: number) => {
        if (id === undefined) this.watches.clear();
        else this.watches.delete(id);
      },
      I2C: hw.i2cClass(),
      process: {
        memory: () => this.memory(),
        version: "2v29",
        env: { BOARD: "ESP32", VERSION: "2v29" },
      },
      E: {
        getSizeOf: () => 1,
        toString: (...a: unknown[]) => a.map((x) => (x instanceof Uint8Array ? Buffer.from(x).toString("latin1") : String(x))).join(""),
        CRC32: (s: string | Uint8Array) => crc32(typeof s === "string" ? Buffer.from(s, "latin1") : Buffer.from(s)),
        reboot: () => this.restartLater(50),
        getErrorFlags: () => [],
        mapInPlace: (from: Uint8Array, to: Uint8Array, map: Uint8Array) => {
          for (let i = 0; i < from.length && i < to.length; i++) to[i] = map[from[i]];
        },
        toArrayBuffer: (s: string) => {
          const b = Buffer.from(s, "latin1");
          return b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
        },
        on: () => undefined,
      },
      Uint8Array, Uint16Array, Uint32Array, Int8Array, Int16Array, Int32Array, Float32Array,
      Float64Array, ArrayBuffer, DataView, Uint8ClampedArray, Graphics,
    };
  }

  /** Milliseconds since the current firmware started. */
  get uptimeMs(): number {
    return Date.now() - this.bootedAt;
  }
}
