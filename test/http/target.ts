// The device under test for the HTTP suites: the simulator by default, or the real Espruino
// interpreter when PIXLOOP_TARGET=espruino (see test/espruino/run.ts). Tests that need to reach
// into the simulated hardware or restart into setup mode ask for `sim` and are skipped on the
// real interpreter.
import { startSimulator, type Simulator, type SimulatorOptions } from "../harness/simulator";
import { startEspruino } from "../espruino/launch";

export interface Target {
  url: string;
  /** Present only when the target is the simulator. */
  sim?: Simulator;
  /** Resolves at the firmware's next start (after a reboot, sleep or factory reset). */
  nextBoot(): Promise<void>;
  /** Resolves once the firmware answers HTTP again. */
  waitForServer(): Promise<void>;
  stop(): Promise<void>;
}

export const onEspruino = process.env.PIXLOOP_TARGET === "espruino";

export async function startTarget(opts: SimulatorOptions = {}): Promise<Target> {
  if (onEspruino) return startEspruino(opts.board || "esp32", { setup: opts.setup, dataDir: opts.dataDir });
  const sim = await startSimulator(Object.assign({ quiet: true }, opts));
  return {
    url: sim.url, sim, stop: () => sim.stop(),
    nextBoot: () => sim.device.nextBoot(),
    waitForServer: () => sim.device.waitForServer(),
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** One request; `body` objects are sent as JSON with Content-Type unless headers say otherwise. */
export async function call(t: Target, method: string, path: string,
  opts: { body?: unknown; headers?: { [k: string]: string } } = {}): Promise<Answer> {
  const headers: { [k: string]: string } = Object.assign({}, opts.headers || {});
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    if (!Object.keys(headers).some((k) => k.toLowerCase() === "content-type")) headers["Content-Type"] = "application/json";
  }
  const r = await fetch(t.url + path, { method, headers, body, redirect: "manual" });
  const text = await r.text();
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch (e) { parsed = undefined; }
  return { status: r.status, headers: r.headers, text, body: parsed };
}
