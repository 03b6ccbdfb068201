import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { FRAMES_DIR, blankGraphics, expectFrame, frameOf, frameToText, localTime, ungradedCanvas } from "../harness/frame-fixture";

const NAME = "selftest-frame-fixture";
const fixture = path.join(FRAMES_DIR, NAME + ".txt");
const actual = path.join(FRAMES_DIR, NAME + ".actual.txt");

function sample() {
  const g = blankGraphics(4, 2);
  const c = ungradedCanvas(g);
  c.color(0x123456);
  g.setPixel(3, 0);
  c.color(0xff0000);
  g.setPixel(0, 1);
  c.color(0xff0000, 0.5);
  g.setPixel(1, 1);
  return frameOf(g);
}

// These cases check the comparison itself, which FRAMES_UPDATE=1 would turn into writing.
const update = process.env.FRAMES_UPDATE;
test.before(() => {
  delete process.env.FRAMES_UPDATE;
});
test.after(() => {
  if (update !== undefined) process.env.FRAMES_UPDATE = update;
});

test.after.each(() => {
  fs.rmSync(fixture, { force: true });
  fs.rmSync(actual, { force: true });
});

test("text form: legend in order of first use, named letters, '.' for black, level dims", () => {
  assert.is(frameToText(sample()), "# a=#123456 R=#FF0000 b=#800000\n...a\nRb..\n");
  assert.is(frameToText(frameOf(blankGraphics(2, 1))), "#\n..\n");
});

test("a matching fixture passes and leaves no .actual file", () => {
  fs.writeFileSync(fixture, "# a=#123456 R=#FF0000 b=#800000\n...a\nRb..\n");
  fs.writeFileSync(actual, "stale");
  expectFrame(NAME, sample());
  assert.not.ok(fs.existsSync(actual));
});

test("a differing or missing fixture fails and writes what was rendered", () => {
  fs.writeFileSync(fixture, "# a=#123456 R=#FF0000 b=#800000\n....\nRb..\n");
  assert.throws(() => expectFrame(NAME, sample()), /frame differs/);
  assert.is(fs.readFileSync(actual, "utf8"), "# a=#123456 R=#FF0000 b=#800000\n...a\nRb..\n");
  fs.rmSync(fixture);
  assert.throws(() => expectFrame(NAME, sample()), /no fixture/);
});

test("local times carry their weekday", () => {
  assert.is(localTime(2026, 3, 10, 9, 5, 7).weekday, 2);
  assert.is(localTime(2026, 12, 31, 0, 0, 0).weekday, 4);
});

test.run();
