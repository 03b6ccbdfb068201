// A complete simulated clock, as `npm run sim` starts it and as the HTTP tests use it: the
// board's bundle, its Storage files flashed, its parts wired, and (unless it is to stay in setup
// mode) joined to the simulated network the way a user would do it, through the setup API.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SimDevice, SIM_NETWORK } from "./device";
import { SimHardware } from "./hardware";
import { wireBoard } from "./wiring";
import { ROOT } from "./root";

export { ROOT };

export interface SimulatorOptions {
  board?: string;
  port?: number;
  dataDir?: string;
  /** Leave the device factory-fresh, in setup mode. */
  setup?: boolean;
  /** Quiet firmware output (collected in `lines`). */
  quiet?: boolean;
  hardware?: SimHardware;
}

export interface Simulator {
  device: SimDevice;
  url: string;
  /** Firmware output when quiet. */
  lines: string[];
  stop(): Promise<void>;
}

/**
 * Flashes the firmware as `npm run flash` does (firmware/update/README.md): the boot stage as
 * .bootcde, the bundle and every file of dist/storage into slot a, no slot record (slot a runs),
 * nothing left in slot b. Files the flash already holds unchanged are not written again.
 */
export function flashStorageFiles(device: SimDevice): void {
  const dir = path.join(ROOT, "dist", "storage");
  const boot = path.join(ROOT, "dist", "boot.js");
  if (!fs.existsSync(dir) || !fs.existsSync(boot)) return;
  const put = (name: string, file: string) => {
    const content = fs.readFileSync(file).toString("latin1");
    if (device.storage.read(name) !== content) device.storage.write(name, content);
  };
  const names = fs.readdirSync(dir);
  for (const name of device.storage.list()) {
    if (name.startsWith("b/") || name === ".slots.0" || name === ".slots.1" || names.indexOf(name) >= 0) device.storage.erase(name);
  }
  for (const name of names) put("a/" + name, path.join(dir, name));
  put("a/main.js", device.options.bundle);
  put(".bootcde", boot);
}

/** A running device as joining it needs it: its address, and a way to follow its restart. */
export interface Joinable {
  url: string;
  nextBoot(): Promise<void>;
  waitForServer(): Promise<void>;
}

/**
 * Joins a device in setup mode to the simulated network the way a user would: the network
 * through the setup API (PUT /api/v1/system), then a reboot. Shared by the simulator and the
 * real interpreter (test/espruino/launch.ts).
 */
export async function joinSimulatedNetwork(device: Joinable): Promise<void> {
  const put = await fetch(device.url + "/api/v1/system", {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ wifiSsid: SIM_NETWORK.ssid, wifiPass: SIM_NETWORK.password }),
  });
  if (put.status !== 200) throw new Error("setup refused the simulated network: " + (await put.text()));
  const booted = device.nextBoot();
  await (await fetch(device.url + "/api/v1/device/reboot", { method: "POST" })).arrayBuffer();
  await booted;
  await device.waitForServer();
}

/** "station" when GET /api/v1/device reports the Wi-Fi connected, else "setup". */
export async function wifiMode(url: string): Promise<"station" | "setup"> {
  const r = await fetch(url + "/api/v1/device");
  const text = await r.text();
  let d: { wifi?: { state?: string } } = {};
  try { d = JSON.parse(text); } catch (e) { /* reported below */ }
  if (!d.wifi) throw new Error("GET /api/v1/device answered " + r.status + " without wifi state: " + text.slice(0, 200));
  return d.wifi.state === "connected" ? "station" : "setup";
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const board = opts.board || "esp32";
  const bundle = path.join(ROOT, "dist", board + ".js");
  if (!fs.existsSync(bundle)) throw new Error(bundle + " is missing: run `npm run build` first");
  const dataDir = opts.dataDir || fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-sim-"));
  const temporary = !opts.dataDir;
  if (opts.setup && fs.existsSync(dataDir)) {
    for (const f of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, f), { recursive: true });
  }
  const lines: string[] = [];
  const hardware = opts.hardware || (await wireBoard(board));
  const device = new SimDevice({
    bundle, dataDir, port: opts.port, hardware,
    log: opts.quiet ? (l) => { lines.push(l); } : undefined,
  });
  flashStorageFiles(device);
  await device.start();
  await device.waitForServer();
  if (!opts.setup && (await wifiMode(device.url)) === "setup") await joinSimulatedNetwork(device);
  return {
    device, url: device.url, lines,
    stop: async () => {
      await device.stop();
      if (temporary) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
