// What the update tests share: packages made the way the build makes them (build/package.mjs),
// from bundles built with another version (or broken on purpose), the multipart body of
// POST /update, and uploads sent whole or a piece at a time over a socket of their own.
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "../harness/root";
import { BUNDLE, MANIFEST, boardFacts, encodePackage, manifestText, slotFiles, type PackageFile, type PackageMeta } from "../../build/package.mjs";

export { BUNDLE, MANIFEST };

/** The version package.json gives the build in dist/. */
export const BUILT_VERSION: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;

const bundles = new Map<string, Buffer>();

/** dist/<board>.js as the build makes it, but reporting `version`. Built once per version. */
export async function bundleWithVersion(version: string, board = "esp32"): Promise<Buffer> {
  const key = board + " " + version;
  const known = bundles.get(key);
  if (known) return known;
  const url = (f: string) => pathToFileURL(path.join(ROOT, "build", f)).href;
  const { buildEspruinoBundle } = await import(url("espruino-bundle.mjs"));
  const { residentGuard } = await import(url("modules.mjs"));
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-bundle-")), board + ".js");
  await buildEspruinoBundle(path.join(ROOT, "firmware", "main.ts"), board, out, { PIXLOOP_VERSION: JSON.stringify(version) },
    [residentGuard]);
  const data = fs.readFileSync(out);
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  bundles.set(key, data);
  return data;
}

export interface PackageOptions {
  version: string;
  board?: string;
  /** Header fields to give other values than the board's (chip, psram, product). */
  meta?: Partial<PackageMeta>;
  /** The bundle; default: the build's, reporting `version`. */
  bundle?: Buffer | string;
  /** Files to leave out of the slot (the manifest is made for what is left). */
  without?: string[];
  wait?: number;
}

/** A package as `npm run build` makes one, for `opts.version`. */
export async function makePackage(opts: PackageOptions): Promise<Buffer> {
  const board = opts.board || "esp32";
  const facts = await boardFacts(board);
  const bundle = opts.bundle === undefined ? await bundleWithVersion(opts.version, board)
    : Buffer.isBuffer(opts.bundle) ? opts.bundle : Buffer.from(opts.bundle, "latin1");
  let files: PackageFile[] = slotFiles(bundle).slice(1);
  if (opts.without) files = files.filter((f) => opts.without!.indexOf(f.name) < 0);
  files.unshift({ name: MANIFEST, data: Buffer.from(manifestText(files.map((f) => f.name)), "latin1") });
  const meta: PackageMeta = Object.assign({ board: facts.id, chip: facts.soc, psram: facts.psram, version: opts.version },
    opts.wait ? { wait: opts.wait } : {}, opts.meta || {});
  return encodePackage(meta, files);
}

export const BOUNDARY = "----pixloopUpdate7MA4YWxkTrZu0gW";

/** The multipart/form-data body of POST /update with `file` in field `field`. */
export function multipart(file: Buffer, opts: { field?: string; filename?: string; extra?: Buffer } = {}): Buffer {
  const head = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + (opts.field || "firmware") +
    "\"; filename=\"" + (opts.filename || "pixloop-esp32.bin") + "\"\r\nContent-Type: application/octet-stream\r\n\r\n";
  const parts = [Buffer.from(head, "latin1"), file, Buffer.from("\r\n", "latin1")];
  if (opts.extra) parts.push(opts.extra);
  parts.push(Buffer.from("--" + BOUNDARY + "--\r\n", "latin1"));
  return Buffer.concat(parts);
}

/** A second file part, for the "more than one file" refusal. */
export function filePart(name: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"firmware\"; filename=\"" + name +
    "\"\r\nContent-Type: application/octet-stream\r\n\r\n", "latin1"), data, Buffer.from("\r\n", "latin1")]);
}

export interface Answer { status: number; body: any; text: string; headers: { [k: string]: string } }

function parseAnswer(raw: Buffer): Answer {
  const text = raw.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  const head = end < 0 ? text : text.slice(0, end);
  const lines = head.split("\r\n");
  const headers: { [k: string]: string } = {};
  for (const l of lines.slice(1)) {
    const c = l.indexOf(":");
    if (c > 0) headers[l.slice(0, c).trim().toLowerCase()] = l.slice(c + 1).trim();
  }
  const body = end < 0 ? "" : text.slice(end + 4);
  let parsed: unknown;
  try { parsed = JSON.parse(body); } catch (e) { parsed = undefined; }
  return { status: parseInt(lines[0].split(" ")[1], 10) || 0, body: parsed, text: body, headers };
}

/**
 * POST /update over a socket of its own: the head, then the body in pieces of `piece` bytes with
 * `pauseMs` between them (the clock reads as it comes), then the answer. `stopAfter` bytes of body,
 * when given, are all that is sent: the promise then resolves once they are written, with status 0,
 * the connection left open (for a power cut mid-upload).
 */
export function upload(url: string, body: Buffer, opts: {
  headers?: { [k: string]: string }; piece?: number; pauseMs?: number; stopAfter?: number; timeoutMs?: number;
  onSent?: (bytes: number) => void;
} = {}): Promise<Answer & { socket: net.Socket }> {
  const u = new URL(url);
  const headers: { [k: string]: string } = Object.assign({
    "Host": u.host, "Content-Type": "multipart/form-data; boundary=" + BOUNDARY, "Content-Length": "" + body.length,
    "Connection": "close",
  }, opts.headers || {});
  const head = "POST " + (u.pathname || "/update") + u.search + " HTTP/1.1\r\n" + Object.keys(headers).map((k) => k + ": " + headers[k]).join("\r\n") + "\r\n\r\n";
  const piece = opts.piece || 4096;
  const limit = opts.stopAfter === undefined ? body.length : Math.min(opts.stopAfter, body.length);
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host: u.hostname, port: +u.port });
    const chunks: Buffer[] = [];
    let sent = 0;
    let settled = false;
    const finish = (a: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(Object.assign(a, { socket: sock }));
    };
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      sock.destroy();
      reject(new Error("no answer to POST /update within " + (opts.timeoutMs || 60000) + " ms (" + sent + " of " + body.length + " bytes sent)"));
    }, opts.timeoutMs || 60000);
    sock.on("data", (b) => {
      chunks.push(b);
      // A whole answer is the answer, even where the clock keeps the connection open (a refusal
      // before the body it declared has arrived).
      const raw = Buffer.concat(chunks);
      const end = raw.indexOf("\r\n\r\n");
      const length = end < 0 ? NaN : parseInt((/\r\ncontent-length: *([0-9]+)/i.exec(raw.subarray(0, end).toString("latin1")) || ["", ""])[1], 10);
      if (end >= 0 && raw.length >= end + 4 + length) {
        finish(parseAnswer(raw));
        sock.destroy();
      }
    });
    sock.on("error", () => { /* the answer, if any, is what arrived */ });
    sock.on("close", () => finish(parseAnswer(Buffer.concat(chunks))));
    const next = () => {
      if (settled || sock.destroyed) return;
      if (sent >= limit) {
        if (opts.stopAfter !== undefined) finish({ status: 0, body: undefined, text: "", headers: {} });
        return;
      }
      const part = body.subarray(sent, Math.min(limit, sent + piece));
      sent += part.length;
      sock.write(part, () => {
        if (opts.onSent) opts.onSent(sent);
        if (opts.pauseMs) setTimeout(next, opts.pauseMs);
        else next();
      });
    };
    sock.on("connect", () => sock.write(head, "latin1", next));
  });
}

/** Polls `fn` every `everyMs` until it gives a truthy value; throws with `what` after `timeoutMs`. */
export async function until<T>(what: string, fn: () => Promise<T> | T, timeoutMs = 30000, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error("timed out waiting for " + what + (last ? " (" + String(last) + ")" : ""));
}

/** GET a path as JSON; undefined when the clock does not answer. */
export async function getJson(url: string): Promise<any> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(3000) });
    return await r.json();
  } catch (e) {
    return undefined;
  }
}
