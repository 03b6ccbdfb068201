// The update package and the boot stage (firmware/update/README.md).
//
// A package is what POST /update takes: every file of one slot (the bundle as "main.js", and
// everything the build writes to dist/storage: modules, route table, fonts, tables, chip rules, web
// page, and the slot's manifest) behind a small text header. `npm run build` writes one per board
// as dist/<updateImage of boards/<id>.ts>, and the boot stage as dist/boot.js (flashed as
// ".bootcde", never part of a package).
//
//   pixloop-update 1            format and revision
//   product pixloop
//   board esp32                 boards/<id>.ts
//   chip esp32                  its soc
//   psram none                  its PSRAM kind (none, quad, octal)
//   version 0.1.0               package.json
//   wait 60000                  optional: ms the release must run before it confirms itself
//   files 132                   how many files follow
//   length 263012               bytes after the blank line below
//   sha256 <64 hex digits>      the digest of everything, see below
//   (blank line)
//   then per file: "<name> <size>\n" and its <size> bytes; the manifest first, main.js last.
//
// The digest is a chain of SHA-256 hashes: D0 = SHA-256 of the header up to the sha256 line, and
// for each file Dn = SHA-256(Dn-1 + its "<name> <size>\n" line + SHA-256 of its bytes); the
// header carries the last one in hex. Espruino's crypto.SHA256 hashes one string at a time and
// keeps nothing between calls, so a package of hundreds of kilobytes cannot be hashed as it
// streams in; but each file, once written to Storage, is one string mapped onto flash, which it
// hashes in place without copying it into memory. The chain covers every byte of the package (the
// header's fields, every name, size and byte), in order, as SHA-256 itself would, and the clock
// checks what it stored rather than what it was sent.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const MAGIC = "pixloop-update 1";
export const PRODUCT = "pixloop";
/** The bundle's name in a slot. */
export const BUNDLE = "main.js";
/** The slot's list of its files, one name a line: what erasing a slot erases. */
export const MANIFEST = "manifest";
/** Storage prefixes of the two slots; Storage names hold 28 characters, the prefix two of them. */
export const SLOTS = ["a/", "b/"];
export const SLOT_PREFIX_LENGTH = 2;
/** The specification's limit for POST /update. */
export const PACKAGE_MAX = 8388608;
export const BOOT_STAGE_SOURCE = path.join(root, "firmware", "update", "boot-stage.js");
export const BOOT_STAGE = path.join(root, "dist", "boot.js");

const sha256 = (data) => crypto.createHash("sha256").update(data).digest();

/** The manifest of a slot holding `names` (itself included). */
export function manifestText(names) {
  const all = [...new Set([...names, MANIFEST])].sort();
  for (const n of all) {
    if (n.length + SLOT_PREFIX_LENGTH > 28) throw new Error("firmware file " + n + ": too long a name for Storage behind a slot prefix");
  }
  return all.map((n) => n + "\n").join("");
}

/** Board facts the package header names: { id, soc, psram, updateImage }. */
export async function boardFacts(id) {
  const out = await esbuild.build({
    entryPoints: [path.join(root, "boards", id + ".ts")], bundle: true, format: "esm", write: false, logLevel: "error",
  });
  const mod = await import("data:text/javascript;base64," + Buffer.from(out.outputFiles[0].text).toString("base64"));
  const b = mod.default;
  return { id: b.id, soc: b.soc, psram: b.fitted.psram, updateImage: b.updateImage };
}

/**
 * The files of a slot for `bundle` (a Buffer or a path) and the directory `storage`: manifest
 * first, then the Storage files by name, the bundle last. [{ name, data }].
 */
export function slotFiles(bundle, storage = path.join(root, "dist", "storage")) {
  const names = fs.readdirSync(storage).filter((n) => n !== MANIFEST && fs.statSync(path.join(storage, n)).isFile()).sort();
  const files = names.map((name) => ({ name, data: fs.readFileSync(path.join(storage, name)) }));
  files.push({ name: BUNDLE, data: Buffer.isBuffer(bundle) ? bundle : fs.readFileSync(bundle) });
  return [{ name: MANIFEST, data: Buffer.from(manifestText(files.map((f) => f.name)), "latin1") }].concat(files);
}

/**
 * A package of `files` ([{ name, data }], the manifest first) for `meta`:
 * { board, chip, psram, version, wait? } (product: pixloop).
 */
export function encodePackage(meta, files) {
  const entries = files.map((f) => {
    const data = Buffer.isBuffer(f.data) ? f.data : Buffer.from(f.data, "latin1");
    return { line: Buffer.from(f.name + " " + data.length + "\n", "latin1"), data };
  });
  const length = entries.reduce((n, e) => n + e.line.length + e.data.length, 0);
  let signed = MAGIC + "\n" + "product " + (meta.product || PRODUCT) + "\nboard " + meta.board + "\nchip " + meta.chip +
    "\npsram " + meta.psram + "\nversion " + meta.version + "\n";
  if (meta.wait) signed += "wait " + meta.wait + "\n";
  signed += "files " + entries.length + "\nlength " + length + "\n";
  let digest = sha256(Buffer.from(signed, "latin1"));
  for (const e of entries) digest = sha256(Buffer.concat([digest, e.line, sha256(e.data)]));
  const head = Buffer.from(signed + "sha256 " + digest.toString("hex") + "\n\n", "latin1");
  return Buffer.concat([head].concat(...entries.map((e) => [e.line, e.data])));
}

/**
 * Reads a package back: { header: {field: value}, files: [{ name, data }], digest (hex, as
 * computed), problems: [text] }. A package is sound when `problems` is empty.
 */
export function decodePackage(buf) {
  const problems = [];
  const end = buf.indexOf("\n\n");
  if (end < 0) return { header: {}, files: [], digest: "", problems: ["no header"] };
  const text = buf.subarray(0, end + 1).toString("latin1");
  const lines = text.split("\n").slice(0, -1);
  if (lines[0] !== MAGIC) problems.push("first line is not " + JSON.stringify(MAGIC));
  const header = {};
  for (const l of lines.slice(1)) {
    const sp = l.indexOf(" ");
    header[l.slice(0, sp)] = l.slice(sp + 1);
  }
  const shaAt = text.indexOf("\nsha256 ");
  let digest = sha256(Buffer.from(text.slice(0, shaAt + 1), "latin1"));
  const files = [];
  let at = end + 2;
  const bodyStart = at;
  while (at < buf.length) {
    const nl = buf.indexOf("\n", at);
    if (nl < 0) { problems.push("a file line without its end at byte " + at); break; }
    const line = buf.subarray(at, nl + 1);
    const [name, size] = line.toString("latin1").trim().split(" ");
    const n = parseInt(size, 10);
    const data = buf.subarray(nl + 1, nl + 1 + n);
    if (!(n > 0) || data.length !== n) { problems.push("file " + name + " is cut short"); break; }
    digest = sha256(Buffer.concat([digest, line, sha256(data)]));
    files.push({ name, data });
    at = nl + 1 + n;
  }
  if (String(buf.length - bodyStart) !== header.length) problems.push("length says " + header.length + ", the body has " + (buf.length - bodyStart));
  if (String(files.length) !== header.files) problems.push("files says " + header.files + ", the body has " + files.length);
  if (digest.toString("hex") !== header.sha256) problems.push("the digest does not match");
  if (buf.length > PACKAGE_MAX) problems.push("larger than " + PACKAGE_MAX + " bytes");
  if (!files.length || files[0].name !== MANIFEST) problems.push("the manifest is not the first file");
  else {
    const listed = files[0].data.toString("latin1").split("\n").filter((n) => n);
    const names = files.map((f) => f.name);
    if (listed.slice().sort().join() !== names.slice().sort().join()) problems.push("the manifest does not list exactly the package's files");
  }
  if (!files.some((f) => f.name === BUNDLE)) problems.push("no " + BUNDLE);
  return { header, files, digest: digest.toString("hex"), problems };
}

/** dist/storage/manifest: the names of a slot built from dist/storage and a bundle. */
export function writeManifest(storage = path.join(root, "dist", "storage")) {
  const names = fs.readdirSync(storage).filter((n) => n !== MANIFEST).concat([BUNDLE]);
  fs.writeFileSync(path.join(storage, MANIFEST), manifestText(names), "latin1");
}

/** Writes dist/<updateImage> for each board; returns their paths. */
export async function writePackages(boardIds, version) {
  const out = [];
  for (const id of boardIds) {
    const b = await boardFacts(id);
    const file = path.join(root, "dist", b.updateImage);
    const files = slotFiles(path.join(root, "dist", id + ".js"));
    fs.writeFileSync(file, encodePackage({ board: b.id, chip: b.soc, psram: b.psram, version }, files));
    out.push(file);
  }
  return out;
}

/**
 * The boot stage as the clock stores it (".bootcde"): a one-line loader, then the stage itself,
 * comments and indentation left out, inside a comment. The loader evaluates a RAM copy of that
 * text: the boot stage compacts Storage, which moves files, and code still being read from a moved
 * file breaks (measured in Espruino 2v29: it does not follow mapped strings to their new place).
 * The comment is skipped by the lexer before the loader's call runs, so nothing is read from the
 * stored file after it.
 */
export function bootStageText() {
  const src = fs.readFileSync(BOOT_STAGE_SOURCE, "utf8");
  const logic = esbuild.transformSync(src, { minifyWhitespace: true, legalComments: "none", charset: "ascii", logLevel: "error" }).code.trim();
  if (logic.includes("*/")) throw new Error("the boot stage must not contain */ (it is stored inside a comment)");
  const head = "// pixloop boot stage: firmware/update/boot-stage.js, firmware/update/README.md\n";
  let at = 0;
  let text = "";
  // The offset is written into the loader, whose length depends on it: settle it.
  for (let i = 0; i < 4; i++) {
    text = head + "eval(require(\"Storage\").read(\".bootcde\"," + at + "," + logic.length + ")+\"\")/*";
    at = text.length;
  }
  return text + logic + "*/";
}

/** dist/boot.js: the boot stage as the clock stores it (bootStageText). */
export function writeBootStage() {
  fs.mkdirSync(path.dirname(BOOT_STAGE), { recursive: true });
  fs.writeFileSync(BOOT_STAGE, bootStageText());
  return BOOT_STAGE;
}
