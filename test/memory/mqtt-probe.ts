// What the MQTT budgets read besides memory: an MQTT client of the test's own that notes when each
// message arrives (a round trip of a few milliseconds cannot be timed by polling), the frame gaps
// the stand-ins record at every push to the LEDs, and what a variable dump says a part of the
// firmware holds.
import * as net from "node:net";
import { performance } from "node:perf_hooks";
import * as mqtt from "mqtt-packet";
import type { EspruinoTarget, VariableDump } from "../espruino/launch";
import { SERVE_KEEP_MS, firmwareUsage, sleep } from "./probe";

export interface Arrival { topic: string; payload: string; at: number }

/** Publishes commands and collects every message under its subscriptions, each with its arrival time. */
export class Commander {
  readonly received: Arrival[] = [];
  private sock!: net.Socket;
  private nextId = 1;
  private acks = new Map<number, () => void>();
  private waiting: { topic: string; resolve: (a: Arrival) => void }[] = [];

  static async connect(port: number, clientId: string): Promise<Commander> {
    const c = new Commander();
    const parser = mqtt.parser({ protocolVersion: 4 });
    let connack: ((code: number) => void) | null = null;
    parser.on("packet", (p) => {
      if (p.cmd === "connack" && connack) connack(p.returnCode || 0);
      else c.packet(p);
    });
    c.sock = net.connect({ host: "127.0.0.1", port });
    c.sock.setNoDelay(true);
    c.sock.on("data", (b) => parser.parse(b));
    c.sock.on("error", () => undefined);
    const code = await new Promise<number>((resolve, reject) => {
      connack = resolve;
      c.sock.once("error", reject);
      c.sock.write(mqtt.generate({ cmd: "connect", clientId, clean: true, keepalive: 0, protocolVersion: 4, protocolId: "MQTT" }));
    });
    if (code !== 0) throw new Error("refused by the broker: " + code);
    return c;
  }

  subscribe(filter: string): Promise<void> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.acks.set(id, resolve);
      this.sock.write(mqtt.generate({ cmd: "subscribe", messageId: id, subscriptions: [{ topic: filter, qos: 0 }] }));
    });
  }

  /** A QoS 0 publish, handed to the socket at once; returns the moment it was. */
  publish(topic: string, payload: string): number {
    const at = performance.now();
    this.sock.write(mqtt.generate({ cmd: "publish", topic, payload: Buffer.from(payload, "latin1"), qos: 0, retain: false, dup: false }));
    return at;
  }

  /** The next message on `topic` from now on. */
  next(topic: string, timeoutMs = 10000): Promise<Arrival> {
    return new Promise((resolve, reject) => {
      const w = { topic, resolve: (a: Arrival) => { clearTimeout(timer); resolve(a); } };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(w), 1);
        reject(new Error("nothing on " + topic + " within " + timeoutMs + " ms"));
      }, timeoutMs);
      this.waiting.push(w);
    });
  }

  /** Payloads received on `topic`, oldest first. */
  on(topic: string): string[] {
    return this.received.filter((m) => m.topic === topic).map((m) => m.payload);
  }

  close(): void {
    this.sock.destroy();
  }

  private packet(p: mqtt.Packet): void {
    if (p.cmd === "suback") {
      const fn = this.acks.get(p.messageId!);
      this.acks.delete(p.messageId!);
      if (fn) fn();
    } else if (p.cmd === "publish") {
      const a = { topic: p.topic, payload: Buffer.from(p.payload as Buffer).toString("latin1"), at: performance.now() };
      this.received.push(a);
      const i = this.waiting.findIndex((w) => w.topic === a.topic);
      if (i >= 0) this.waiting.splice(i, 1)[0].resolve(a);
    }
  }
}

export interface Gaps {
  /** Frames pushed to the LEDs since boot. */
  frames: number;
  /** The longest time between two pushes since the previous reading, ms. */
  maxMs: number;
  /**
   * The longest such time less what the interpreter spent waiting for a processor meanwhile (other
   * processes of this machine; the clock runs alone), ms.
   */
  ownMs: number;
  /** Gaps over 50 ms (two frames' time) since the previous reading. */
  over50: number;
}

/** The frame gaps since the previous call (each call starts a new window); see scripts/espruino/boot0.js. */
export async function frameGaps(t: EspruinoTarget): Promise<Gaps> {
  return (await fetch(t.debugUrl + "/gaps")).json() as Promise<Gaps>;
}

interface Variable { size: number; label: string; links: number[] }

/** E.dumpVariables() lines ("ref,size,flags,name,links...") as a graph; ref 1 is the root. */
function graph(dump: VariableDump): Map<number, Variable> {
  const vars = new Map<number, Variable>();
  for (const line of dump.lines) {
    const f = line.split(",");
    const ref = Number(f[0]);
    if (!Number.isInteger(ref) || ref <= 0) continue;
    // Names and strings may hold commas: the links are the trailing numeric fields.
    let end = f.length;
    while (end > 4 && f[end - 1] === "") end--;
    let first = end;
    while (first > 4 && /^\d+$/.test(f[first - 1])) first--;
    vars.set(ref, { size: Number(f[1]), label: f.slice(3, first).join(","), links: f.slice(first, end).map(Number) });
  }
  return vars;
}

function reach(vars: Map<number, Variable>, cut: Set<number>): Set<number> {
  const seen = new Set<number>([1]);
  const queue = [1];
  while (queue.length) {
    for (const l of vars.get(queue.pop()!)?.links || []) {
      if (seen.has(l) || cut.has(l) || !vars.has(l)) continue;
      seen.add(l);
      queue.push(l);
    }
  }
  return seen;
}

/** The value a property name holds, or 0. */
function valueOf(vars: Map<number, Variable>, obj: number, name: string): number {
  for (const l of vars.get(obj)?.links || []) {
    const v = vars.get(l);
    if (v && v.label === "\"" + name + "\"") return v.links[0] || 0;
  }
  return 0;
}

/** The object that has every one of these property names (class instances keep them on themselves). */
function objectWith(vars: Map<number, Variable>, names: string[]): number {
  const found: number[] = [];
  for (const [ref, v] of vars) {
    if (v.label === "Object" && names.every((n) => v.links.some((l) => vars.get(l)?.label === "\"" + n + "\""))) found.push(ref);
  }
  if (found.length !== 1) throw new Error(found.length + " objects with " + names.join(", ") + " in the dump");
  return found[0];
}

/**
 * The interpreter's own lists keep a part's socket and timers alive, not the part: these are the
 * entries (timers, watches) whose callback's own scope holds `owner`.
 */
function callbacksOf(vars: Map<number, Variable>, owner: number): number[] {
  const out: number[] = [];
  for (const [ref, v] of vars) {
    if (v.label !== "Object") continue;
    const cb = valueOf(vars, ref, "cb");
    if (!cb) continue;
    const scope = valueOf(vars, cb, "\\xFFsco");
    if (scope && (vars.get(scope)?.links || []).some((n) => vars.get(n)?.links[0] === owner)) out.push(ref);
  }
  return out;
}

export interface Held {
  /** Variables that would be freed with the part: itself, what only it reaches, its sockets and timers. */
  total: number;
  /** The same, by what the part's own properties lead to (a property's name and value counted together). */
  parts: { [what: string]: number };
}

/**
 * What a part of the firmware holds: every variable that is no longer reachable from the root once
 * the part's object, its socket and the interpreter's entries for its timers and watches are cut
 * out. The part is found by property names only it has (the build keeps property names).
 */
export function heldBy(dump: VariableDump, ...owners: string[][]): Held {
  const vars = graph(dump);
  const cut = new Set<number>();
  const refs = owners.map((names) => objectWith(vars, names));
  for (const ref of refs) {
    cut.add(ref);
    const sock = valueOf(vars, ref, "sock");
    if (sock && vars.get(sock)?.label === "Object") cut.add(sock);
  }
  const entries = new Set<number>();
  for (const ref of [...cut]) for (const entry of callbacksOf(vars, ref)) entries.add(entry);
  // The slot that names an entry in its list goes with it.
  for (const [ref, v] of vars) if (v.links.length === 1 && entries.has(v.links[0]) && /^"\d+"$/.test(v.label)) entries.add(ref);
  for (const ref of entries) cut.add(ref);
  const all = reach(vars, new Set());
  const kept = reach(vars, cut);
  const held = new Set([...all].filter((r) => !kept.has(r)));
  const size = (r: number) => vars.get(r)!.size;
  const parts: { [what: string]: number } = {};
  // Attributed breadth first from each owner, along what is held only.
  const owned = new Set<number>();
  for (const start of [...cut].filter((r) => held.has(r))) {
    const top = refs.includes(start) ? null : entries.has(start) ? "timers and watches" : vars.get(start)!.label;
    const queue: [number, string | null][] = [[start, top]];
    while (queue.length) {
      const [r, what] = queue.shift()!;
      if (owned.has(r)) continue;
      owned.add(r);
      const label = what || (vars.get(r)!.label.startsWith("\"") ? vars.get(r)!.label : null);
      if (label) parts[label] = (parts[label] || 0) + size(r);
      else parts["(the object)"] = (parts["(the object)"] || 0) + size(r);
      for (const l of vars.get(r)!.links) if (held.has(l) && !owned.has(l)) queue.push([l, label]);
    }
  }
  let total = 0;
  for (const r of held) total += size(r);
  return { total, parts };
}

/** The reading that comes up most often in `xs` (the lower one of a tie). */
export function mostOften(xs: number[]): number {
  const seen = new Map<number, number>();
  for (const x of xs) seen.set(x, (seen.get(x) || 0) + 1);
  let best = xs[0];
  for (const [x, n] of seen) if (n > seen.get(best)! || (n === seen.get(best) && x < best)) best = x;
  return best;
}

/** The median of `xs` (not changed). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export interface Settled {
  /** The usage most readings show: what stays. */
  resident: number;
  /** The most any reading showed: what comes and goes (a publish that loads the configuration). */
  peak: number;
}

/**
 * The firmware's usage read every `everyMs` over `ms` (each reading after a collection, less the
 * stand-ins), after the request pipeline has been let go (probe.ts: SERVE_KEEP_MS).
 */
export async function settled(t: EspruinoTarget, ms: number, everyMs = 200): Promise<Settled> {
  await sleep(SERVE_KEEP_MS + 200);
  const xs: number[] = [];
  for (const end = Date.now() + ms; Date.now() < end;) {
    xs.push(await firmwareUsage(t));
    await sleep(everyMs);
  }
  return { resident: mostOften(xs), peak: Math.max(...xs) };
}
