// The update package as `npm run build` writes it (dist/<updateImage>), read back and checked
// byte for byte against the build's files, its digest recomputed from its definition, tampering
// found; and the boot stage (dist/boot.js, stored as .bootcde) choosing, counting and rolling back
// on a Storage of its own.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "../harness/root";
import { SimStorage, STORAGE_BYTES } from "../harness/storage";
import { crc32 } from "../harness/crc32";
import { BUNDLE, MAGIC, MANIFEST, PACKAGE_MAX, decodePackage, encodePackage } from "../../build/package.mjs";
import { runBootStage } from "./update-support";

const VERSION: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
const STORAGE_DIR = path.join(ROOT, "dist", "storage");
const sha = (b: Buffer) => createHash("sha256").update(b).digest();

const BOARDS = [
  { id: "esp32", image: "pixloop-esp32.bin", chip: "esp32", psram: "none" },
  { id: "esp32s3", image: "pixloop-esp32s3-octal.bin", chip: "esp32s3", psram: "octal" },
];

const format = suite("update package: the build's output");

for (const b of BOARDS) {
  format(b.image + " holds the bundle and every Storage file, named by the board the clock reports", () => {
    const boardSrc = fs.readFileSync(path.join(ROOT, "boards", b.id + ".ts"), "utf8");
    assert.ok(boardSrc.includes("updateImage: \"" + b.image + "\""), "boards/" + b.id + ".ts names " + b.image);
    const buf = fs.readFileSync(path.join(ROOT, "dist", b.image));
    assert.ok(buf.length <= PACKAGE_MAX);
    const p = decodePackage(buf);
    assert.equal(p.problems, []);
    assert.is(buf.subarray(0, MAGIC.length + 1).toString("latin1"), MAGIC + "\n");
    assert.is(p.header.product, "pixloop");
    assert.is(p.header.board, b.id);
    assert.is(p.header.chip, b.chip);
    assert.is(p.header.psram, b.psram);
    assert.is(p.header.version, VERSION);
    assert.not.ok("wait" in p.header, "a release from the build waits the standard minute");
    const names = p.files.map((f) => f.name);
    assert.is(names[0], MANIFEST);
    assert.is(names[names.length - 1], BUNDLE);
    assert.ok(p.files.find((f) => f.name === BUNDLE)!.data.equals(fs.readFileSync(path.join(ROOT, "dist", b.id + ".js"))));
    const stored = fs.readdirSync(STORAGE_DIR).sort();
    assert.equal(names.slice(1, -1).concat([MANIFEST]).sort(), stored, "every file of dist/storage, and nothing else");
    for (const f of p.files) {
      if (f.name !== BUNDLE) assert.ok(f.data.equals(fs.readFileSync(path.join(STORAGE_DIR, f.name))), f.name);
      assert.ok(f.name.length <= 26, f.name + " fits behind a slot prefix");
    }
    assert.equal(p.files[0].data.toString("latin1").split("\n").filter((n) => n), names.slice().sort());
  });
}

format("the digest is the SHA-256 chain the header promises, over every byte", () => {
  const buf = fs.readFileSync(path.join(ROOT, "dist", "pixloop-esp32.bin"));
  const end = buf.indexOf("\n\n");
  const head = buf.subarray(0, end + 1).toString("latin1");
  const signed = head.slice(0, head.indexOf("sha256 "));
  let d = sha(Buffer.from(signed, "latin1"));
  let at = end + 2;
  let count = 0;
  while (at < buf.length) {
    const nl = buf.indexOf("\n", at);
    const line = buf.subarray(at, nl + 1);
    const size = parseInt(line.toString("latin1").split(" ")[1], 10);
    d = sha(Buffer.concat([d, line, sha(buf.subarray(nl + 1, nl + 1 + size))]));
    at = nl + 1 + size;
    count++;
  }
  assert.is(at, buf.length);
  assert.ok(count > 100);
  assert.ok(head.includes("\nsha256 " + d.toString("hex") + "\n"), "header digest");
  assert.ok(head.includes("\nlength " + (buf.length - end - 2) + "\n"));
  assert.ok(head.includes("\nfiles " + count + "\n"));
});

format("a changed byte, header field, name or length does not pass", () => {
  const good = fs.readFileSync(path.join(ROOT, "dist", "pixloop-esp32.bin"));
  const end = good.indexOf("\n\n");
  const flip = (at: number) => {
    const b = Buffer.from(good);
    b[at] ^= 0x01;
    return b;
  };
  assert.ok(decodePackage(flip(good.length - 10)).problems.includes("the digest does not match"), "a byte of main.js");
  assert.ok(decodePackage(flip(end + 2 + 40)).problems.includes("the digest does not match"), "a byte of the manifest");
  const versionAt = good.indexOf("version ") + 8;
  assert.ok(decodePackage(flip(versionAt)).problems.includes("the digest does not match"), "the version");
  assert.ok(decodePackage(good.subarray(0, good.length - 1)).problems.length > 0, "cut short");
  const files = [{ name: MANIFEST, data: Buffer.from("main.js\nmanifest\n") }, { name: BUNDLE, data: Buffer.from("print(1)") }];
  const meta = { board: "esp32", chip: "esp32", psram: "none", version: "9.9.9" };
  assert.equal(decodePackage(encodePackage(meta, files)).problems, []);
  const renamed = encodePackage(meta, files).toString("latin1").replace("main.js 8", "mai2.js 8");
  assert.ok(decodePackage(Buffer.from(renamed, "latin1")).problems.includes("the digest does not match"), "a name");
});

format("both slots and the boot stage fit in Storage, with room left for the user", () => {
  const cost = (n: number) => 32 + Math.ceil(n / 4) * 4;
  const slot = decodePackage(fs.readFileSync(path.join(ROOT, "dist", "pixloop-esp32.bin"))).files.reduce((n, f) => n + cost(f.data.length), 0);
  const boot = cost(fs.statSync(path.join(ROOT, "dist", "boot.js")).size);
  const left = STORAGE_BYTES - 2 * slot - boot;
  console.log("  one slot: " + slot + " bytes of Storage; both and the boot stage leave " + left + " of " + STORAGE_BYTES);
  assert.ok(left > 64 * 1024, "left " + left);
});

format("the boot stage, stored inside a comment behind its loader, passes the bundle checks too", async () => {
  const stored = fs.readFileSync(path.join(ROOT, "dist", "boot.js"), "latin1");
  const m = /read\("\.bootcde",([0-9]+),([0-9]+)\)/.exec(stored);
  assert.ok(m, "the loader names where the stage lies in the file");
  const stage = stored.substr(+m![1], +m![2]);
  assert.is(stored.slice(+m![1] - 2, +m![1]), "/*");
  assert.is(stored.slice(+m![1] + +m![2]), "*/");
  assert.ok(stage.includes("var PIXLOOP_SLOT="), stage.slice(0, 80));
  const { checkSource } = await import(pathToFileURL(path.join(ROOT, "build", "check-bundle.mjs")).href);
  assert.equal(checkSource(stage), []);
  assert.equal(checkSource(stored), []);
});

format.run();

// ---------------------------------------------------------------------------------------------
const boot = suite("boot stage");

function storage(): SimStorage {
  const s = new SimStorage(fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-boot-")));
  s.write("a/main.js", "var STARTED='a';");
  s.write("b/main.js", "var STARTED='b';");
  return s;
}

/** A record copy in the firmware's layout (core/persist.ts). */
function putRecord(s: SimStorage, copy: number, seq: number, v: object): void {
  const body = JSON.stringify(v);
  s.write(".slots." + copy, seq + " " + crc32(Buffer.from(body, "latin1")) + " " + body);
}

function newest(s: SimStorage): { seq: number; v: any } {
  const read = (i: number) => {
    const raw = s.read(".slots." + i);
    if (!raw) return null;
    const [seq, crc] = raw.split(" ");
    const body = raw.slice(seq.length + crc.length + 2);
    return crc32(Buffer.from(body, "latin1")) === +crc ? { seq: +seq, v: JSON.parse(body) } : null;
  };
  const a = read(0);
  const b = read(1);
  return (a && b ? (a.seq >= b.seq ? a : b) : a || b)!;
}

const TRIAL = { run: "b", good: "a", tries: 0, last: "idle", release: "0.2.0", error: "", wait: 5000 };

boot("no record (a clock as npm run flash leaves it): slot a runs, nothing written, no timer", () => {
  const s = storage();
  const r = runBootStage(s);
  assert.is(r.slot, "a/");
  assert.is(r.started, "a");
  assert.is(r.dueMs, 0);
  assert.is(r.watchdog, 0);
  assert.is(s.read(".slots.0"), undefined);
  assert.is(s.read(".slots.1"), undefined);
});

boot("a release on trial: each start is counted before it runs, with a restart timer at twice its wait", () => {
  const s = storage();
  putRecord(s, 0, 4, TRIAL);
  for (let start = 1; start <= 3; start++) {
    const r = runBootStage(s);
    assert.is(r.slot, "b/");
    assert.is(r.started, "b");
    assert.is(r.dueMs, 10000);
    assert.is(r.watchdog, 30);
    const rec = newest(s);
    assert.is(rec.seq, 4 + start);
    assert.is(rec.v.tries, start);
    assert.is(rec.v.run, "b");
    // When the timer runs out, the clock restarts.
    r.fireDue();
    assert.is(r.reboots, 1);
  }
});

boot("three starts that did not confirm: the proven release runs again, and the record says why", () => {
  const s = storage();
  putRecord(s, 1, 9, Object.assign({}, TRIAL, { tries: 3 }));
  const r = runBootStage(s);
  assert.is(r.slot, "a/");
  assert.is(r.started, "a");
  assert.is(r.dueMs, 0);
  const rec = newest(s);
  assert.is(rec.seq, 10);
  assert.equal([rec.v.run, rec.v.good, rec.v.tries, rec.v.last, rec.v.release], ["a", "a", 0, "failed", "0.2.0"]);
  assert.match(rec.v.error, /0\.2\.0 did not come up properly 3 times/);
  // And it stays that way.
  assert.is(runBootStage(s).slot, "a/");
  assert.is(newest(s).seq, 10);
});

boot("the newest copy that checks out wins: a copy torn by a power cut is passed over", () => {
  const s = storage();
  putRecord(s, 0, 7, { run: "a", good: "a", tries: 0, last: "confirmed", release: "0.1.5", error: "", wait: 0 });
  putRecord(s, 1, 8, TRIAL);
  const torn = s.read(".slots.1")!;
  s.write(".slots.1", torn.slice(0, torn.length - 4));
  const r = runBootStage(s);
  assert.is(r.slot, "a/");
  assert.is(r.dueMs, 0);
  // No release on trial: nothing to go back to in slot b, which is emptied.
  assert.is(s.read("b/main.js"), undefined);
  // A count written over the torn copy is newer than the good one.
  s.write("b/main.js", "var STARTED='b';");
  putRecord(s, 1, 8, TRIAL);
  runBootStage(s);
  const counted = s.read(".slots.0")!;
  s.write(".slots.0", counted.slice(0, 20));
  assert.is(runBootStage(s).slot, "b/", "the count torn: the try before it stands");
  assert.is(newest(s).v.tries, 1);
});

boot("a slot on trial without its bundle is not started", () => {
  const s = storage();
  s.erase("b/main.js");
  putRecord(s, 0, 1, TRIAL);
  const r = runBootStage(s);
  assert.is(r.slot, "a/");
  assert.is(newest(s).v.last, "failed");
});

boot("a try that cannot be counted (Storage full) is not taken", () => {
  const s = new SimStorage(fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-boot-")), 8192);
  s.write(".bootcde", fs.readFileSync(path.join(ROOT, "dist", "boot.js"), "latin1"));
  s.write("a/main.js", "var STARTED='a';");
  s.write("b/main.js", "var STARTED='b';");
  putRecord(s, 0, 1, TRIAL);
  s.write("filler", "x".repeat(s.getFree() - 40));
  const r = runBootStage(s);
  assert.is(r.slot, "a/");
  assert.is(r.started, "a");
  assert.is(newest(s).v.tries, 0);
});

boot("a bundle that throws as it starts is reported, and the restart timer still runs", () => {
  const s = storage();
  s.write("b/main.js", "throw new Error('broken on purpose')");
  putRecord(s, 0, 1, TRIAL);
  const r = runBootStage(s);
  assert.is(r.slot, "b/");
  assert.ok(r.printed.some((l) => l.includes("failed as it started") && l.includes("broken on purpose")), r.printed.join("\n"));
  r.fireDue();
  assert.is(r.reboots, 1);
});

/** Storage that also keeps Espruino's account of erased files, and compacts them away. */
class TrashStorage extends SimStorage {
  trash = 0;
  compactions = 0;
  erase(name: string): void {
    const f = this.read(name);
    if (f !== undefined) this.trash += 32 + Math.ceil(f.length / 4) * 4;
    super.erase(name);
  }
  getStats() {
    return Object.assign(super.getStats(), { trashBytes: this.trash });
  }
  compact(): void {
    this.compactions++;
    this.trash = 0;
  }
}

function trashStorage(): TrashStorage {
  const s = new TrashStorage(fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-boot-")));
  s.write("a/main.js", "var STARTED='a';");
  s.write("a/m.big", "x".repeat(100000));
  return s;
}

boot("the release before a confirmed one is erased and Storage compacted, then it starts afresh", () => {
  const s = trashStorage();
  s.write("b/main.js", "var STARTED='b';");
  s.write("b/m.big", "y".repeat(100000));
  putRecord(s, 0, 3, Object.assign({}, TRIAL, { good: "b", tries: 1, last: "confirmed" }));
  const r = runBootStage(s);
  assert.equal(s.list(/^a\//), [], "slot a emptied");
  assert.is(s.compactions, 1);
  assert.is(r.reboots, 1, "a fresh start on the compacted Storage");
  assert.is(r.started, "", "nothing ran from Storage before it was compacted");
  const again = runBootStage(s);
  assert.is(again.started, "b");
  assert.is(again.reboots, 0);
  assert.is(s.compactions, 1, "once");
});

boot("after a compaction, a restart function of the boot hooks' that moved breaks: it starts over with load()", () => {
  const s = trashStorage();
  s.write("b/m.big", "y".repeat(100000));
  const r = runBootStage(s, { rebootThrows: true });
  assert.is(s.compactions, 1);
  assert.is(r.reboots, 1);
  assert.is(r.loads, 1);
  assert.is(r.started, "");
});

boot("little trash and room for another release: no compaction; a release on trial: never", () => {
  const s = trashStorage();
  s.write("b/x", "z".repeat(2000));
  let r = runBootStage(s);
  assert.is(s.trash > 0 && s.trash < 65536, true);
  assert.is(r.started, "a");
  assert.is(s.compactions, 0);
  s.trash = 200000;
  s.write("b/main.js", "var STARTED='b';");
  putRecord(s, 0, 1, TRIAL);
  r = runBootStage(s);
  assert.is(r.started, "b");
  assert.is(s.compactions, 0);
  assert.ok(s.read("a/main.js") !== undefined, "the release to go back to stays");
});

boot("a compaction that frees nothing does not start over and over: the firmware starts", () => {
  const s = trashStorage();
  s.write("b/m.big", "y".repeat(100000));
  s.compact = () => { s.compactions++; };
  const r = runBootStage(s);
  assert.is(s.compactions, 1);
  assert.is(r.reboots, 0);
  assert.is(r.started, "a");
});

boot("no firmware at all: it says so and starts nothing", () => {
  const s = new SimStorage(fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-boot-")));
  const r = runBootStage(s);
  assert.ok(r.printed.some((l) => l.includes("no firmware in Storage")));
  assert.is(r.started, "");
});

boot.run();
