// Ambient declarations for the Espruino interpreter (2v2x on ESP32).
// The compiler's lib is ES5, so anything below is what Espruino really offers beyond it:
// a builtin that is not declared here is one the firmware must not use.

interface ObjectConstructor {
  assign<T extends object, U>(target: T, source: U): T & U;
  assign<T extends object>(target: T, ...sources: object[]): T;
  entries<T>(o: { [k: string]: T }): [string, T][];
  values<T>(o: { [k: string]: T }): T[];
}
interface String {
  padStart(len: number, fill?: string): string;
  padEnd(len: number, fill?: string): string;
  includes(s: string, from?: number): boolean;
  startsWith(s: string, from?: number): boolean;
  endsWith(s: string, len?: number): boolean;
  repeat(n: number): string;
  replaceAll(find: string, by: string): string;
}
interface Array<T> {
  find(pred: (v: T, i: number) => boolean): T | undefined;
  findIndex(pred: (v: T, i: number) => boolean): number;
  fill(v: T, start?: number, end?: number): this;
  includes(v: T): boolean;
}
interface ReadonlyArray<T> {
  find(pred: (v: T, i: number) => boolean): T | undefined;
  findIndex(pred: (v: T, i: number) => boolean): number;
  includes(v: T): boolean;
}
interface Uint8Array {
  fill(v: number, start?: number, end?: number): this;
}
interface Math {
  sign(x: number): number;
}

declare function setTimeout(fn: () => void, ms?: number): number;
declare function setInterval(fn: () => void, ms: number): number;
declare function clearTimeout(id?: number): void;
declare function clearInterval(id?: number): void;
/** Seconds since 1970 as a float (Espruino's clock). */
declare function getTime(): number;
declare function print(...args: unknown[]): void;
declare const console: { log(...args: unknown[]): void };
declare function btoa(s: string): string;
declare function atob(s: string): string;

type Pin = number;
declare function analogRead(pin: Pin): number;
declare function digitalRead(pin: Pin): number;
declare function digitalWrite(pin: Pin, v: number | boolean): void;
declare function pinMode(pin: Pin, mode: string): void;
/** `pin` is the watched pin, a Pin (numeric: `0 | pin` is its number). */
interface WatchEvent { state: boolean; time: number; lastTime?: number; pin: Pin; }
declare function setWatch(fn: (e: WatchEvent) => void, pin: Pin,
  opts: { repeat?: boolean; edge?: "rising" | "falling" | "both"; debounce?: number }): number;
declare function clearWatch(id?: number): void;

declare class I2C {
  setup(opts: { sda: Pin; scl: Pin; bitrate?: number }): void;
  writeTo(addr: number, data: number | number[] | Uint8Array): void;
  readFrom(addr: number, quantity: number): Uint8Array;
}

interface MemoryInfo {
  free: number; usage: number; total: number; history: number;
  gc: number; gctime: number; blocksize: number;
}
declare const process: {
  memory(gc?: boolean): MemoryInfo;
  version: string;
  env: { [k: string]: unknown };
};

declare const E: {
  getSizeOf(v: unknown, depth?: number): number;
  toString(...args: unknown[]): string;
  CRC32(s: string | Uint8Array): number;
  /** `to[i] = map[from[i]]` for every element, in native code. */
  mapInPlace(from: Uint8Array, to: Uint8Array, map: Uint8Array): void;
  /** An ArrayBuffer over a string's bytes (over flash for a Storage string: no copy). */
  toArrayBuffer(s: string): ArrayBuffer;
  reboot(): void;
  getErrorFlags(): string[];
  on(event: string, fn: (...a: unknown[]) => void): void;
};

interface StorageModule {
  read(name: string, offset?: number, length?: number): string | undefined;
  readJSON(name: string, noExceptions?: boolean): unknown;
  write(name: string, data: string | Uint8Array, offset?: number, size?: number): boolean;
  writeJSON(name: string, data: unknown): boolean;
  erase(name: string): void;
  eraseAll(): void;
  list(regex?: RegExp): string[];
  getFree(): number;
  compact(): void;
}

interface EspHeaders { [name: string]: string }
interface EspRequest {
  method: string;
  url: string;
  headers: EspHeaders;
  read?(): string;
  on(ev: "data", fn: (chunk: string) => void): void;
  on(ev: "end" | "close", fn: () => void): void;
}
interface EspResponse {
  writeHead(status: number, headers?: { [name: string]: string | number }): void;
  write(data: string): void;
  end(data?: string): void;
  on(ev: "close" | "drain", fn: () => void): void;
}
interface EspServer { listen(port: number): EspServer; close(): void; }
/** The answer to a client request; statusCode is the status line's text ("200"). */
interface EspClientResponse {
  statusCode: string;
  on(ev: "data", fn: (chunk: string) => void): void;
  on(ev: "end" | "close", fn: () => void): void;
}
interface EspClientRequest {
  /** Before the answer began: the request failed ({code, message}); nothing else follows. */
  on(ev: "error", fn: (e: { code: number; message: string }) => void): void;
  write(data: string): void;
  /** Sends the request; the connection is made here (a host name is looked up here, blocking). */
  end(data?: string): void;
}
interface HttpModule {
  createServer(fn: (req: EspRequest, res: EspResponse) => void): EspServer;
  request(options: { host: string; port?: number; path?: string; method?: string; headers?: EspHeaders },
    cb: (res: EspClientResponse) => void): EspClientRequest;
}

interface WifiIp { ip: string; netmask: string; gw: string; mac: string; }
interface WifiDetails { status?: string; rssi?: number; ssid?: string; }
interface WifiModule {
  getIP(cb?: (err: unknown, ip: WifiIp) => void): WifiIp;
  getAPIP(cb?: (err: unknown, ip: WifiIp) => void): WifiIp;
  getDetails(cb?: (d: WifiDetails) => void): WifiDetails;
  getStatus(): { station?: string; ap?: string };
  connect(ssid: string, opts: { password?: string }, cb: (err: string | null) => void): void;
  disconnect(cb?: () => void): void;
  startAP(ssid: string, opts: { authMode?: string; password?: string }, cb: (err: string | null) => void): void;
  stopAP(cb?: () => void): void;
  scan(cb: (aps: { ssid: string; rssi: number; authMode: string }[]) => void): void;
  setHostname(name: string, cb?: () => void): void;
  setSNTP(server: string, tzOffset: number): void; // tzOffset in hours, added to the clock
  on(ev: string, fn: (details: unknown) => void): void;
}
interface NeopixelModule { write(pin: Pin, data: Uint8Array | number[]): void; }
interface Esp32Module {
  deepSleep(us: number): void;
  getState(): { sdkVersion: string; freeHeap: number; BLE: boolean; Wifi: boolean; minHeap: number };
}

declare function require(name: "Storage"): StorageModule;
declare function require(name: "http"): HttpModule;
declare function require(name: "Wifi"): WifiModule;
declare function require(name: "neopixel"): NeopixelModule;
declare function require(name: "ESP32"): Esp32Module;

/** An image for Graphics.drawImage: `buffer` holds the pixels, rows top to bottom. */
interface GraphicsImage {
  width: number;
  height: number;
  bpp: number;
  buffer: ArrayBuffer | string;
  transparent?: number;
  /** Entries are written as they are: on a 24 bpp buffer only 16 bits of colour. */
  palette?: Uint16Array;
}
interface DrawImageOptions { scale?: number; rotate?: number; frame?: number }
interface Graphics {
  buffer: ArrayBuffer;
  getWidth(): number;
  getHeight(): number;
  clear(resetState?: boolean): Graphics;
  setColor(r: number, g?: number, b?: number): Graphics;
  setBgColor(r: number, g?: number, b?: number): Graphics;
  getColor(): number;
  setPixel(x: number, y: number, col?: number): Graphics;
  getPixel(x: number, y: number): number;
  fillRect(x1: number, y1: number, x2: number, y2: number): Graphics;
  drawRect(x1: number, y1: number, x2: number, y2: number): Graphics;
  clearRect(x1: number, y1: number, x2: number, y2: number): Graphics;
  drawLine(x1: number, y1: number, x2: number, y2: number): Graphics;
  drawCircle(x: number, y: number, r: number): Graphics;
  fillCircle(x: number, y: number, r: number): Graphics;
  drawEllipse(x1: number, y1: number, x2: number, y2: number): Graphics;
  fillEllipse(x1: number, y1: number, x2: number, y2: number): Graphics;
  fillPoly(poly: number[]): Graphics;
  drawPoly(poly: number[], closed?: boolean): Graphics;
  setFont(name: string, size?: number): Graphics;
  setFontCustom(bitmap: string, firstChar: number, widths: string | number, height: number): Graphics;
  setFontAlign(x: number, y: number, rotation?: number): Graphics;
  drawString(s: string, x: number, y: number, solid?: boolean): Graphics;
  stringWidth(s: string): number;
  drawImage(img: GraphicsImage | Graphics | string, x: number, y: number, opts?: DrawImageOptions): Graphics;
  scroll(x: number, y: number): Graphics;
  blit(opts: { x1: number; y1: number; w: number; h: number; x2: number; y2: number; setModified?: boolean }): Graphics;
  setClipRect(x1: number, y1: number, x2: number, y2: number): Graphics;
  setRotation(rotation: number, reflect?: boolean): Graphics;
}
interface GraphicsOptions {
  zigzag?: boolean;
  vertical_byte?: boolean;
  msb?: boolean;
  /** Draws into this buffer (at least the size the Graphics needs) instead of allocating one. */
  buffer?: ArrayBuffer;
}
interface GraphicsConstructor {
  createArrayBuffer(width: number, height: number, bpp: number, options?: GraphicsOptions): Graphics;
}
declare const Graphics: GraphicsConstructor;
