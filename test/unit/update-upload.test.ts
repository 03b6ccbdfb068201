// POST /update's sink (firmware/update/upload.mod.ts) fed parts and chunks as the transport feeds
// them: a package lands file by file in the slot that does not run and switches the record only
// once its digest checks out; every refusal is decided before anything is written and leaves
// Storage, the record and the clock's state as they were.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { encodePackage, manifestText } from "../../build/package.mjs";
import type { PackageFile } from "../../build/package.mjs";
import type { Reply } from "../../firmware/http/types";
import type { Failure } from "../../firmware/core/failure";
import { feedPackage, feedParts, isFailure, updateHost, type UpdateHost } from "./update-support";
import { makePackage } from "../espruino/update-support";

const META = { board: "esp32", chip: "esp32", psram: "none", version: "0.2.0" };

/** A small package: a manifest, a few files of assorted sizes, the bundle. */
function small(meta: Partial<typeof META> & { wait?: number } = {}, edit?: (files: PackageFile[]) => PackageFile[]): Buffer {
  let files: PackageFile[] = [
    { name: "routes", data: Buffer.from("\n/api/v1/version||GET:s::device/get-version\n") },
    { name: "font.map", data: Buffer.alloc(3000, 0xab) },
    { name: "m.a", data: Buffer.from("(()=>{return 1})()") },
    { name: "main.js", data: Buffer.from("print('release 0.2.0');".repeat(40)) },
  ];
  if (edit) files = edit(files);
  files.unshift({ name: "manifest", data: Buffer.from(manifestText(files.map((f) => f.name)), "latin1") });
  return encodePackage(Object.assign({}, META, meta), files);
}

function expectFailure(out: Reply | Failure, status: number, code: string, message?: RegExp): void {
  assert.ok(isFailure(out), "a refusal, not " + JSON.stringify(out));
  const f = out as Failure;
  assert.is(f.status, status, f.code + ": " + f.message);
  assert.is(f.code, code, f.message);
  if (message) assert.match(f.message, message);
}

/** Nothing was installed: no file of slot b, no record, nothing in progress. */
function unchanged(h: UpdateHost): void {
  assert.equal(h.storage.list().filter((n) => n.startsWith("b/")), [], "slot b is empty");
  assert.is(h.slotState(), undefined, "no slot record");
  assert.is(h.app.update, undefined, "no update in progress");
  assert.is(h.restarts, 0);
}

let h: UpdateHost;

const good = suite("update sink: a package goes in");
good.before.each(() => { h = updateHost(); });
good.after.each(() => h.dispose());

for (const chunk of [1, 7, 536, 5000]) {
  good("in chunks of " + chunk + " bytes: every file lands in slot b, then the record switches", () => {
    const pkg = small({ wait: 2500 });
    const out = feedPackage(h, pkg, chunk) as Reply;
    assert.not.ok(isFailure(out), JSON.stringify(out));
    assert.is(out.status, 200);
    assert.equal(out.json, { ok: true, applying: true });
    assert.equal(h.app.update, { state: "applying", release: "0.2.0", error: "" });
    assert.is(h.storage.read("b/font.map"), Buffer.alloc(3000, 0xab).toString("latin1"));
    assert.is(h.storage.read("b/main.js"), "print('release 0.2.0');".repeat(40));
    assert.is(h.storage.read("b/manifest"), "font.map\nm.a\nmain.js\nmanifest\nroutes\n");
    assert.equal(h.slotState(), { run: "b", good: "a", tries: 0, last: "idle", release: "0.2.0", error: "", wait: 2500 });
    // The restart comes after the answer.
    assert.is(h.restarts, 0);
    out.after!();
    assert.is(h.restarts, 1);
  });
}

good("the build's own package, in the transport's 536-byte pieces", async () => {
  const pkg = await makePackage({ version: "0.2.0" });
  const out = feedPackage(h, pkg) as Reply;
  assert.is(out.status, 200, JSON.stringify(out));
  const manifest = h.storage.read("b/manifest")!;
  const names = manifest.split("\n").filter((n) => n);
  assert.ok(names.length > 100);
  for (const n of names) assert.ok(h.storage.read("b/" + n) !== undefined, n);
  assert.is(h.slotState()!.wait, 0, "the standard minute");
});

good("running from slot b, the package goes to slot a; the slot's last release is erased first", () => {
  h.dispose();
  h = updateHost({ running: "b" });
  h.storage.write("a/manifest", "m.old\nmain.js\nmanifest\n");
  h.storage.write("a/m.old", "(()=>{return 0})()");
  h.storage.write("a/main.js", "print('old')");
  h.storage.write("I/icon.gif", "GIF89a");
  const out = feedPackage(h, small()) as Reply;
  assert.is(out.status, 200, JSON.stringify(out));
  assert.is(h.storage.read("a/m.old"), undefined, "what the new release does not have is gone");
  assert.is(h.storage.read("a/main.js"), "print('release 0.2.0');".repeat(40));
  assert.is(h.storage.read("I/icon.gif"), "GIF89a", "the user's files stay");
  assert.equal([h.slotState()!.run, h.slotState()!.good], ["a", "b"]);
});

good("a plain form field beside the file is ignored", () => {
  const sink = h.make({} as never, h.app);
  assert.not.ok(isFailure(sink));
  const out = feedParts(sink as never, [
    { field: "note", filename: "", data: Buffer.from("from the web page") },
    { field: "firmware", filename: "pixloop-esp32.bin", data: small() },
  ]) as Reply;
  assert.is(out.status, 200, JSON.stringify(out));
});

good("the package's wait is kept within 1 s and 10 minutes", () => {
  feedPackage(h, small({ wait: 5 }));
  assert.is(h.slotState()!.wait, 1000);
});

good.run();

// ---------------------------------------------------------------------------------------------
const refused = suite("update sink: refusals, decided before anything is written");
refused.before.each(() => { h = updateHost(); });
refused.after.each(() => h.dispose());

const cases: [string, () => Buffer | Buffer[], number, string, RegExp?][] = [
  ["built for the other chip", () => small({ chip: "esp32s3" }), 400, "wrongChip", /esp32s3 chip/],
  ["built for a PSRAM kind this clock does not have", () => small({ psram: "octal" }), 400, "wrongChip", /octal PSRAM/],
  ["built for another board", () => small({ board: "esp32s3" }), 400, "wrongChip", /esp32s3 board/],
  ["another product's package", () => small({ product: "awtrix" } as never), 400, "wrongChip", /another product/],
  ["an image for a first flash over USB", () => Buffer.concat([Buffer.from([0xe9, 0x03, 0x02, 0x20]), Buffer.alloc(4000, 7)]), 400, "wrongChip", /first flash over USB/],
  ["a file that is no package", () => Buffer.from("hello world\n".repeat(200)), 400, "wrongChip", /not a pixloop firmware package/],
  ["a short file that is no package", () => Buffer.from("GIF89a"), 400, "wrongChip", /not a pixloop firmware package/],
  ["a version that is no version", () => small({ version: "latest" }), 400, "wrongChip", /version/],
  ["the running version again", () => small({ version: "0.1.0" }), 409, "notNewer", /0\.1\.0 is not newer/],
  ["an older version", () => small({ version: "0.0.9" }), 409, "notNewer"],
  ["older by its last part", () => small({ version: "0.1" }), 409, "notNewer"],
];

for (const [what, make, status, code, message] of cases) {
  refused(what + ": " + status + " " + code, () => {
    expectFailure(feedPackage(h, make() as Buffer), status, code, message);
    unchanged(h);
  });
}

refused("a header that claims more than 8 MiB: 413 payloadTooLarge", () => {
  const text = small().toString("latin1").replace(/\nlength [0-9]+\n/, "\nlength 8400000\n");
  expectFailure(feedPackage(h, Buffer.from(text, "latin1")), 413, "payloadTooLarge");
  unchanged(h);
});

refused("more than Storage can hold next to the running release: 409 insufficientStorage", () => {
  h.dispose();
  h = updateHost({ capacity: 60000 });
  h.storage.write("a/main.js", "x".repeat(20000));
  const pkg = small({}, (files) => files.concat([{ name: "big.bin", data: Buffer.alloc(30000, 1) }]));
  expectFailure(feedPackage(h, pkg), 409, "insufficientStorage", /needs [0-9]+ bytes/);
  unchanged(h);
});

refused("too little free memory for an update: 413 insufficientMemory", () => {
  h.memory.free = 1200;
  expectFailure(feedPackage(h, small()), 413, "insufficientMemory");
  unchanged(h);
});

refused("an update already being applied: 409 updateBusy", () => {
  h.app.update = { state: "applying", release: "0.2.0", error: "" };
  expectFailure(feedPackage(h, small({ version: "0.3.0" })), 409, "updateBusy");
  assert.equal(h.storage.list().filter((n) => n.startsWith("b/")), []);
});

refused("a release still on trial: 409 updateBusy", () => {
  assert.is((feedPackage(h, small()) as Reply).status, 200);
  h.app.update = undefined;
  const before = h.storage.read("b/main.js");
  expectFailure(feedPackage(h, small({ version: "0.3.0" })), 409, "updateBusy", /on trial/);
  assert.is(h.storage.read("b/main.js"), before, "the release on trial is left alone");
});

refused("a clock flashed without slots: 503 unavailable", () => {
  delete (globalThis as { PIXLOOP_SLOT?: string }).PIXLOOP_SLOT;
  expectFailure(feedPackage(h, small()), 503, "unavailable");
  unchanged(h);
});

refused("no file: 400 badRequest", () => {
  const sink = h.make({} as never, h.app);
  expectFailure(feedParts(sink as never, [{ field: "note", filename: "", data: Buffer.from("x") }]), 400, "badRequest", /no file/);
  unchanged(h);
});

refused("two files: 400 badRequest, and what the first one staged is erased", () => {
  const sink = h.make({} as never, h.app);
  const part = { field: "firmware", filename: "pixloop-esp32.bin", data: small() };
  expectFailure(feedParts(sink as never, [part, part]), 400, "badRequest", /more than one file/);
  unchanged(h);
});

refused("the file in another field: 400 badRequest", () => {
  const sink = h.make({} as never, h.app);
  expectFailure(feedParts(sink as never, [{ field: "file", filename: "pixloop-esp32.bin", data: small() }]), 400, "badRequest");
  unchanged(h);
});

refused("a package cut short: 400 badRequest, the staged files erased", () => {
  const pkg = small();
  expectFailure(feedPackage(h, pkg.subarray(0, pkg.length - 100)), 400, "badRequest", /incomplete/);
  unchanged(h);
});

refused("more bytes than the package's header says: 400 badRequest", () => {
  expectFailure(feedPackage(h, Buffer.concat([small(), Buffer.from("trailing")])), 400, "badRequest");
  unchanged(h);
});

refused("a byte changed on the way: 400 badRequest (damaged), the staged files erased", () => {
  const pkg = small();
  pkg[pkg.length - 30] ^= 0x20;
  expectFailure(feedPackage(h, pkg), 400, "badRequest", /damaged/);
  unchanged(h);
});

refused("a file its manifest does not list: 400 wrongChip", () => {
  const files = [
    { name: "manifest", data: Buffer.from("m.listed\nmain.js\nmanifest\n") },
    { name: "m.extra", data: Buffer.from("1") },
    { name: "main.js", data: Buffer.from("print(1)") },
  ];
  expectFailure(feedPackage(h, encodePackage(META, files)), 400, "wrongChip", /does not list/);
  unchanged(h);
});

refused("a file twice, in place of one its manifest names: 400 wrongChip", () => {
  const files = [
    { name: "manifest", data: Buffer.from("main.js\nmanifest\nroutes\n") },
    { name: "main.js", data: Buffer.from("print(1)") },
    { name: "main.js", data: Buffer.from("print(2)") },
  ];
  expectFailure(feedPackage(h, encodePackage(META, files)), 400, "wrongChip", /main\.js twice/);
  unchanged(h);
});

refused("a package without its bundle: 400 wrongChip", () => {
  const files = [
    { name: "manifest", data: Buffer.from("manifest\nroutes\n") },
    { name: "routes", data: Buffer.from("\n") },
  ];
  expectFailure(feedPackage(h, encodePackage(META, files)), 400, "wrongChip", /lacks main\.js/);
  unchanged(h);
});

refused("a manifest that does not count the package's files: 400 wrongChip", () => {
  const files = [
    { name: "manifest", data: Buffer.from("main.js\nmanifest\nroutes\n") },
    { name: "main.js", data: Buffer.from("print(1)") },
  ];
  expectFailure(feedPackage(h, encodePackage(META, files)), 400, "wrongChip", /manifest is damaged/);
  unchanged(h);
});

refused("a name that does not fit behind a slot prefix, or reaches outside: 400 wrongChip", () => {
  for (const name of ["m." + "x".repeat(30), ".bootcde", "../x"]) {
    const files = [
      { name: "manifest", data: Buffer.from(["main.js", "manifest", name].sort().join("\n") + "\n") },
      { name, data: Buffer.from("1") },
      { name: "main.js", data: Buffer.from("print(1)") },
    ];
    expectFailure(feedPackage(h, encodePackage(META, files)), 400, "wrongChip", undefined);
  }
  unchanged(h);
});

refused("Storage refusing a write half-way: 500 internalError, the staged files erased", () => {
  h.dispose();
  h = updateHost({ capacity: 60000 });
  const pkg = small({}, (files) => files.concat([{ name: "big.bin", data: Buffer.alloc(20000, 1) }]));
  // Room at the check, gone when the big file comes: something else fills Storage meanwhile.
  const sink = h.make({} as never, h.app);
  assert.not.ok(isFailure(sink));
  const s = sink as { begin: Function; data: (c: string) => Failure | null; abort: () => void };
  s.begin("firmware", "pixloop-esp32.bin", "");
  assert.is(s.data(pkg.subarray(0, 2000).toString("latin1")), null);
  h.storage.write("filler", "x".repeat(h.storage.getFree() - 2000));
  let f: Failure | null = null;
  for (let at = 2000; at < pkg.length && !f; at += 536) f = s.data(pkg.subarray(at, at + 536).toString("latin1"));
  expectFailure(f as Failure, 500, "internalError", /storage full/);
  s.abort();
  h.storage.erase("filler");
  unchanged(h);
});

refused("an upload broken off (the transport aborts): the staged files erased, nothing in progress", () => {
  const sink = h.make({} as never, h.app) as { begin: Function; data: (c: string) => Failure | null; abort: () => void };
  sink.begin("firmware", "pixloop-esp32.bin", "");
  const pkg = small();
  assert.is(sink.data(pkg.subarray(0, 3500).toString("latin1")), null);
  assert.equal(h.app.update!.state, "applying");
  assert.ok(h.storage.list().some((n) => n.startsWith("b/")));
  sink.abort();
  unchanged(h);
});

refused.run();
