// The streaming ZIP reader and the writer's headers: archives in every layout a writer may pick,
// fed in every split (each cut point, byte by byte, odd sizes), must give the same entries with
// the same bytes; damaged, cut short and hostile archives must end in a stated error, never in an
// exception, an endless loop or an entry taken for good that is not. Archives written with the
// helpers are checked by Info-ZIP's unzip, and Info-ZIP's own streamed archives are read back.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { crc32 } from "../harness/crc32";
import { crcSeed } from "../../firmware/core/crc32";
import { ZipReader, crcAdd, centralHeader, dosTime, endRecord, localHeader, NAME_MAX } from "../../firmware/backup/zip";
import type { ZipConsumer, ZipEntry } from "../../firmware/backup/zip";
import { bytes, crcOf, makeZip, noise, pieces, tool, unzipAll, unzipTest, zipStreamed, type TestEntry } from "./backup-support";

const g = globalThis as unknown as { E?: unknown };
let savedE: unknown;
test.before(() => {
  savedE = g.E;
  g.E = { CRC32: (s: string) => crc32(Buffer.from(s, "latin1")) };
});
test.after(() => {
  g.E = savedE;
});

interface Read {
  log: string[];
  data: { [name: string]: string };
  error: string;
  done: boolean;
}

/** Feeds `pieces` to a reader and records what it reports; `take` decides which entries are taken. */
function readPieces(parts: string[], take?: (e: ZipEntry) => boolean): Read {
  const out: Read = { log: [], data: {}, error: "", done: false };
  let current = "";
  const to: ZipConsumer = {
    open(e) {
      current = e.name;
      out.log.push("open " + e.name + " size " + e.size + (e.method ? " method " + e.method : "") + (e.clipped ? " clipped" : ""));
      out.data[e.name] = "";
      return take ? take(e) : true;
    },
    bytes(d) {
      assert.ok(d.length > 0, "no empty pieces are passed on");
      out.data[current] += d;
    },
    close(problem) {
      out.log.push("close " + current + (problem ? ": " + problem : ""));
    },
  };
  const r = new ZipReader(to);
  for (const p of parts) r.feed(p);
  r.end();
  out.error = r.error;
  out.done = r.done;
  return out;
}

function readWhole(archive: Buffer, take?: (e: ZipEntry) => boolean): Read {
  return readPieces([archive.toString("latin1")], take);
}

/** The same report for the archive fed whole, byte by byte, in odd sizes and cut at every point. */
function assertEverySplit(archive: Buffer, expected: Read, take?: (e: ZipEntry) => boolean): void {
  const s = archive.toString("latin1");
  const check = (parts: string[], how: string) => assert.equal(readPieces(parts, take), expected, how);
  check([s], "whole");
  check(pieces(s, [1]), "byte by byte");
  check(pieces(s, [3, 536, 7, 29, 1, 100]), "odd sizes");
  for (let cut = 1; cut < s.length; cut++) check([s.substr(0, cut), s.substr(cut)], "cut at " + cut);
}

/** Data that holds what a descriptor search could trip over: signatures, and a descriptor of a wrong size. */
function tricky(): Buffer {
  const fake = Buffer.from("PK\x07\x08\x01\x02\x03\x04\x05\x00\x00\x00\x05\x00\x00\x00PK\x03\x04PK\x01\x02PK", "latin1");
  return Buffer.concat([Buffer.from("PK"), noise(300, 7), fake, noise(40, 9), Buffer.from("PK\x07\x08")]);
}

const ENTRIES: TestEntry[] = [
  { name: "manifest.json", data: '{"app":"pixloop","backupFormat":1}' },
  { name: "empty.txt", data: "" },
  { name: "ICONS/a.gif", data: tricky() },
  { name: "ICONS/b.bin", data: noise(1500, 3) },
];

function expectedFor(entries: TestEntry[], sizes: boolean): Read {
  const out: Read = { log: [], data: {}, error: "", done: true };
  for (const e of entries) {
    out.log.push("open " + e.name + " size " + (sizes ? bytes(e.data).length : -1), "close " + e.name);
    out.data[e.name] = bytes(e.data).toString("latin1");
  }
  return out;
}

test("crcSeed: four bytes with any CRC-32, and a CRC carried across pieces", () => {
  for (const v of [0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0xdeadbeef, 0x12345678]) {
    const seed = crcSeed(v);
    assert.is(seed.length, 4);
    assert.is(crc32(Buffer.from(seed, "latin1")), v, "seed of " + v.toString(16));
  }
  const data = noise(5000, 11).toString("latin1");
  let crc = 0;
  for (const p of pieces(data, [1, 17, 536, 0, 1000])) crc = crcAdd(crc, p);
  assert.is(crc, crcOf(data));
  assert.is(crcAdd(123, ""), 123);
});

test("sizes in the local headers: every split gives the same entries and bytes", () => {
  const archive = makeZip(ENTRIES);
  assertEverySplit(archive, expectedFor(ENTRIES, true));
});

test("data descriptors, with and without signature and with 64-bit sizes: found in every split", () => {
  for (const kind of ["signed", "bare", "zip64"] as const) {
    const entries = ENTRIES.map((e) => Object.assign({}, e, { descriptor: kind }));
    assertEverySplit(makeZip(entries), expectedFor(entries, false));
  }
  // Sizes both in the header and after the data: the descriptor still ends the entry.
  const both = ENTRIES.map((e) => Object.assign({}, e, { descriptor: "signed", headerSizes: true }) as TestEntry);
  assert.equal(readWhole(makeZip(both)), expectedFor(both, false));
});

test("a descriptor whose sizes fit but whose CRC does not is data, not the end", () => {
  // The data carries, in its middle, a descriptor that is right about the size so far but wrong
  // about the CRC, followed by a signature.
  const head = noise(50, 5);
  const fake = Buffer.concat([Buffer.from("PK\x07\x08", "latin1"), Buffer.from([0, 0, 0, 0]),
    Buffer.from([50, 0, 0, 0]), Buffer.from([50, 0, 0, 0]), Buffer.from("PK\x03\x04", "latin1")]);
  const data = Buffer.concat([head, fake, noise(30, 6)]);
  const entries: TestEntry[] = [{ name: "x", data, descriptor: "signed" }, { name: "y", data: "after", descriptor: "bare" }];
  assertEverySplit(makeZip(entries), expectedFor(entries, false));
});

test("writer headers: an archive unzip accepts, and the reader reads back", () => {
  const files: [string, Buffer][] = [["manifest.json", Buffer.from('{"app":"pixloop"}')], ["ICONS/x.gif", noise(3000, 1)],
    ["empty", Buffer.alloc(0)], ["MELODIES/ü.txt", Buffer.from("a:d=4:c")]];
  let out = "";
  const dir: string[] = [];
  const time = dosTime(Date.UTC(2024, 4, 17, 13, 45, 30));
  for (const [name, data] of files) {
    const n = Buffer.from(name, "utf8").toString("latin1");
    const crc = crcOf(data);
    dir.push(centralHeader(n, crc, data.length, time, out.length));
    out += localHeader(n, crc, data.length, time) + data.toString("latin1");
  }
  const start = out.length;
  out += dir.join("") + endRecord(files.length, dir.join("").length, start);
  const archive = Buffer.from(out, "latin1");
  const read = readWhole(archive);
  assert.is(read.error, "");
  assert.ok(read.done);
  for (const [name, data] of files) assert.is(read.data[Buffer.from(name, "utf8").toString("latin1")], data.toString("latin1"));
  if (!tool("unzip")) return console.log("  unzip not installed: the cross-check was skipped");
  assert.is(unzipTest(archive), null);
  const back = unzipAll(archive);
  // unzip spells names outside ASCII after the locale; those are compared by content alone.
  for (const [name, data] of files) {
    if (!data.length) continue;
    const found = /^[\x20-\x7e]+$/.test(name) ? back[name] : Object.keys(back).map((k) => back[k]).find((b) => b.equals(data));
    assert.ok(found && found.equals(data), name);
  }
  // 2024-05-17 13:44:30 as DOS time and date, seconds halved.
  assert.is(time, ((13 << 11) | (45 << 5) | 15) + (((44 << 9) | (5 << 5) | 17) * 0x10000));
  assert.is(dosTime(0), 0x210000);
});

test("Info-ZIP's streamed archives (descriptors on every entry) are read whole", () => {
  if (!tool("zip")) return console.log("  zip not installed: skipped");
  const files = { "manifest.json": '{"app":"pixloop","backupFormat":1}', "ICONS/a.gif": noise(2000, 4), "PALETTES/p.txt": "FF0000\n" };
  const archive = zipStreamed(files);
  const read = readWhole(archive);
  assert.is(read.error, "");
  assert.ok(read.done);
  assert.equal(Object.keys(read.data).sort(), Object.keys(files).sort());
  for (const name of Object.keys(files)) assert.is(read.data[name], bytes((files as any)[name]).toString("latin1"));
  assert.ok(read.log.every((l) => !l.startsWith("open") || l.endsWith("size -1")), "every entry described afterwards");
  for (const sizes of [[1], [536], [7, 13]]) assert.equal(readPieces(pieces(archive, sizes)), read);
});

test("a bad checksum is reported for that entry only, sizes known or not", () => {
  for (const descriptor of [undefined, "signed", "bare"] as const) {
    const entries: TestEntry[] = [{ name: "a", data: "first" }, { name: "b", data: noise(700, 2), crc: 1234, descriptor },
      { name: "c", data: "third" }];
    const read = readWhole(makeZip(entries));
    if (descriptor) {
      // With the sizes after the data, a descriptor whose CRC does not match is no descriptor:
      // the entry runs on to the end of the input.
      assert.equal(read.log, ["open a size 5", "close a", "open b size -1", "close b: the archive ends inside it"]);
      assert.is(read.error, "the archive is cut short");
    } else {
      assert.equal(read.log, ["open a size 5", "close a", "open b size 700", "close b: its CRC-32 does not match",
        "open c size 5", "close c"]);
      assert.is(read.error, "");
    }
  }
});

test("cut short at every byte: a stated error, and no entry closed as good that was not whole", () => {
  const entries: TestEntry[] = [{ name: "a", data: noise(200, 1) }, { name: "b", data: noise(150, 2), descriptor: "signed" },
    { name: "c", data: "tail" }];
  const archive = makeZip(entries);
  const whole = readWhole(archive);
  for (let n = 0; n < archive.length; n++) {
    const read = readWhole(archive.subarray(0, n));
    assert.ok(read.error !== "" || read.done, "cut at " + n);
    for (const l of read.log) {
      if (!l.startsWith("close ") || l.indexOf(":") >= 0) continue;
      const name = l.substr(6);
      assert.is(read.data[name], whole.data[name], "cut at " + n + ": " + name + " closed as good");
    }
  }
  assert.is(readWhole(Buffer.alloc(0)).error, "not a ZIP archive");
  // Every entry whole, the directory missing.
  const noDir = makeZip(entries, { central: false });
  assert.is(readWhole(noDir).error, "the archive ends before its central directory");
  assert.is(readWhole(noDir).log.filter((l) => l.indexOf(":") >= 0).length, 0);
});

test("not an archive, and garbage after an entry", () => {
  assert.equal(readWhole(Buffer.from("hello, this is not a zip file")).error, "not a ZIP archive");
  assert.equal(readWhole(Buffer.from("PK\x03")).error, "not a ZIP archive");
  const bad = Buffer.concat([makeZip([{ name: "a", data: "x" }], { central: false }), Buffer.from("garbage!")]);
  const read = readWhole(bad);
  assert.equal(read.log, ["open a size 1", "close a"]);
  assert.is(read.error, "no entry header after entry 1");
});

test("hostile headers: a huge declared size, a huge extra field, an overlong name, compressed entries", () => {
  // 4 GB - 2 declared, 10 bytes there: the entry never ends, and nothing is held meanwhile.
  const huge = makeZip([{ name: "big", data: "0123456789", size: 0xfffffffe }]);
  const r1 = readWhole(huge);
  assert.equal(r1.log, ["open big size 4294967294", "close big: the archive ends inside it"]);
  assert.is(r1.error, "the archive is cut short");
  // A 65535-byte extra field is skipped, not kept.
  const extra = Buffer.alloc(65535, 0x41);
  const r2 = readWhole(makeZip([{ name: "x", data: "abc", extra }, { name: "y", data: "def" }]));
  assert.equal(r2.log, ["open x size 3", "close x", "open y size 3", "close y"]);
  // A name past NAME_MAX arrives clipped and flagged.
  const long = "ICONS/" + "a".repeat(400);
  const r3 = readWhole(makeZip([{ name: long, data: "abc" }, { name: "y", data: "def" }]));
  assert.equal(r3.log[0], "open " + long.substr(0, NAME_MAX) + " size 3 clipped");
  assert.equal(r3.log.slice(1), ["close " + long.substr(0, NAME_MAX), "open y size 3", "close y"]);
  // Compressed entries cannot be taken; their bytes are stepped over by size or by descriptor.
  const deflated = noise(100, 8);
  for (const descriptor of [undefined, "signed"] as const) {
    const r4 = readWhole(makeZip([{ name: "z", data: deflated, method: 8, crc: 1, descriptor }, { name: "y", data: "def" }]));
    assert.equal(r4.log, ["open z size " + (descriptor ? -1 : 100) + " method 8", "close z", "open y size 3", "close y"]);
    assert.is(r4.data.z, "", "no compressed bytes handed on");
  }
});

test("ZIP64 sizes in the local header's extra field", () => {
  const data = "zip64 data";
  const extra = Buffer.alloc(20);
  extra.writeUInt16LE(1, 0);
  extra.writeUInt16LE(16, 2);
  extra.writeUInt32LE(data.length, 4);
  extra.writeUInt32LE(data.length, 12);
  const archive = makeZip([{ name: "z", data, size: 0xffffffff, extra }, { name: "y", data: "def" }]);
  assert.equal(readWhole(archive).log, ["open z size 10", "close z", "open y size 3", "close y"]);
  extra.writeUInt32LE(1, 16);
  const r = readWhole(makeZip([{ name: "z", data, size: 0xffffffff, extra }]));
  assert.is(r.error, "entry 1 is too large");
});

test("entries not taken are stepped over and their bytes not passed on", () => {
  const entries: TestEntry[] = [{ name: "a", data: noise(300, 1) }, { name: "b", data: noise(300, 2), descriptor: "bare" },
    { name: "c", data: "kept" }];
  const read = readWhole(makeZip(entries), (e) => e.name === "c");
  assert.equal(read.data, { a: "", b: "", c: "kept" });
  assert.equal(read.log, ["open a size 300", "close a", "open b size -1", "close b", "open c size 4", "close c"]);
});

test("a consumer that stops the reading gets nothing more", () => {
  const archive = makeZip(ENTRIES).toString("latin1");
  let opened = 0;
  let r: ZipReader;
  const to: ZipConsumer = {
    open: () => {
      opened++;
      r.stop();
      return true;
    },
    bytes: () => assert.unreachable("no bytes after stop"),
    close: () => assert.unreachable("no close after stop"),
  };
  r = new ZipReader(to);
  for (const p of pieces(archive, [5])) r.feed(p);
  r.end();
  assert.is(opened, 1);
  assert.is(r.done, false);
});

test.run();
