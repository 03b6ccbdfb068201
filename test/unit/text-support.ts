// What the text tests share: the font files as build/fonts.mjs writes them, a Storage that
// serves them to the firmware's require("Storage") while a suite runs, and UTF-8 as the
// firmware holds it (one char per byte).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import Module from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "../harness/root";

let built: { [name: string]: string } | null = null;

/** Every file build/fonts.mjs generates, by Storage name, as 8-bit strings. */
export function fontFiles(): { [name: string]: string } {
  if (built) return built;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-fonts-"));
  try {
    const r = spawnSync(process.execPath, [path.join(ROOT, "build", "fonts.mjs"), dir], { encoding: "utf8" });
    if (r.status !== 0) throw new Error("build/fonts.mjs failed: " + r.stderr);
    const files: { [name: string]: string } = {};
    for (const name of fs.readdirSync(dir)) files[name] = fs.readFileSync(path.join(dir, name)).toString("latin1");
    built = files;
    return files;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Espruino's Storage.read (offset and length as on the device) and Storage.list over a set of
 * files; files added to or removed from `files` later are seen.
 */
export function storageOf(files: { [name: string]: string }): {
  read(name: string, offset?: number, length?: number): string | undefined;
  list(pattern?: RegExp): string[];
  write(name: string, data: string): boolean;
  erase(name: string): void;
} {
  return {
    write(name: string, data: string) {
      files[name] = data;
      return true;
    },
    erase(name: string) {
      delete files[name];
    },
    read(name: string, offset?: number, length?: number) {
      const data = files[name];
      if (data === undefined) return undefined;
      const from = Math.min(offset || 0, data.length);
      return length && length > 0 ? data.substr(from, length) : data.substr(from);
    },
    list(pattern?: RegExp) {
      return Object.keys(files).filter((name) => !pattern || pattern.test(name));
    },
  };
}

type Loader = { _load: (request: string, ...rest: unknown[]) => unknown };

/**
 * Answers require("Storage") with `storage` until the returned function is called. Installed
 * around a suite only, so other suites' stand-ins are untouched.
 */
export function serveStorage(storage: unknown): () => void {
  const loader = Module as unknown as Loader;
  const previous = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    if (request === "Storage") return storage;
    return previous.call(this, request, ...rest);
  };
  return () => {
    loader._load = previous;
  };
}

declare const require: { (id: string): unknown; cache: { [path: string]: unknown } };

/** The firmware's text modules loaded afresh (their page caches empty). */
export function freshFontModule(): typeof import("../../firmware/text/font") {
  for (const p of Object.keys(require.cache)) {
    if (/[\\/]firmware[\\/]text[\\/](font|fold)\.ts$/.test(p)) delete require.cache[p];
  }
  return require("../../firmware/text/font") as typeof import("../../firmware/text/font");
}

/** Texts rendered into a 32x8 panel and compared with test/fixtures/text/<name>.txt. */
export const RENDER_CASES: { name: string; text: string; font: "small" | "large"; upper: boolean; y: number }[] = [
  { name: "small-time", text: "12:34", font: "small", upper: false, y: 1 },
  { name: "small-umlauts", text: "ÄÖÜ", font: "small", upper: false, y: 1 },
  { name: "small-cyrillic", text: "Привет", font: "small", upper: false, y: 1 },
  { name: "large-time", text: "12:34", font: "large", upper: false, y: 1 },
  { name: "large-umlauts", text: "ÄÖÜ", font: "large", upper: false, y: 1 },
  { name: "large-cyrillic-upper", text: "Привет", font: "large", upper: true, y: 1 },
  { name: "small-mixed-runs", text: "é Ł Ж", font: "small", upper: false, y: 0 },
];

export const TEXT_FIXTURES = path.join(ROOT, "test", "fixtures", "text");

/** The expected rows of a render case ('#' lit, '.' dark). */
export function expectedRows(name: string): string[] {
  return fs.readFileSync(path.join(TEXT_FIXTURES, name + ".txt"), "utf8").trimEnd().split("\n");
}

/** Keeps what was rendered next to the fixture, to look at when they differ. */
export function writeActual(name: string, rows: string[]): void {
  fs.writeFileSync(path.join(TEXT_FIXTURES, name + ".actual.txt"), rows.join("\n") + "\n");
}

/** A JavaScript string as the 8-bit UTF-8 string Espruino holds. */
export function utf8(s: string): string {
  return Buffer.from(s, "utf8").toString("latin1");
}

/** Char codes of a string, for readable failures. */
export function codes(s: string): number[] {
  return Array.prototype.map.call(s, (c: string) => c.charCodeAt(0)) as number[];
}
