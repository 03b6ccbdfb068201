// Icons on the host: GIFs written by omggif and JPEGs written by jpeg-js and by the encoder of
// icons-support.ts, decoded into the cached form and drawn; the frames a viewer composes and
// jpeg-js's own decoding are what they are checked against. Then how an icon is found (ids,
// inline base64, data URLs), and the cache: written once, refreshed when the source changes,
// kept to its limit.
import { test } from "uvu";
import * as assert from "uvu/assert";
import jpegjs from "jpeg-js";
import { loadModule } from "../../firmware/platform/modules";
import { findIcon as findIn, newIconState, iconIsFull, CACHE_FILES, type IconImage } from "../../firmware/icons/icon";

/** One load of the page module's icon state, as the suite's pages would share it. */
const icons = newIconState();
const findIcon = (icon: string) => findIn(icon, icons);
import type DecodeIcon from "../../firmware/icons/decode.mod";
import type { Canvas } from "../../firmware/display/canvas";
import { cacheName, composeGif, encodeJpeg, GIF_SPECS, installIconHost, JPEG_FILES, latin1, makeGif, photo, readCached, spread, type IconHost } from "./icons-support";
import { crc32 } from "../harness/crc32";

let host: IconHost;
test.before.each(() => {
  host = installIconHost();
});
test.after.each(() => {
  host.restore();
});

const decode = (bytes: Buffer) => loadModule<typeof DecodeIcon>("icons/decode")(latin1(bytes));

/** Channel distance of two 0xRRGGBB colours (the largest of the three). */
function distance(a: number, b: number): number {
  return Math.max(Math.abs((a >> 16) - (b >> 16)), Math.abs(((a >> 8) & 255) - ((b >> 8) & 255)), Math.abs((a & 255) - (b & 255)));
}

const hex = (c: number) => c.toString(16).padStart(6, "0");

for (const name of ["static", "gif87a", "animated", "disposal", "local", "interlaced", "interlacedSmall", "wide", "kilobyte"]) {
  test("GIF " + name + ": every frame as a viewer composes it, with its delay", () => {
    const spec = GIF_SPECS[name];
    const bytes = makeGif(spec);
    if (name === "gif87a") assert.is(latin1(bytes.subarray(0, 6)), "GIF87a");
    const out = decode(bytes);
    assert.ok(out, "decoded");
    const c = readCached(out as string);
    const want = composeGif(spec);
    assert.is(c.width, spec.width);
    assert.is(c.height, spec.height);
    assert.is(c.frames, spec.frames.length);
    assert.ok(c.triplets, "pixels are position triplets of the colour table");
    assert.is(c.crc, crc32(bytes));
    assert.equal(c.delays.map((d) => d * 10), want.delays);
    for (let k = 0; k < c.frames; k++) assert.equal(c.pixels[k].map(hex), want.frames[k].map(hex), "frame " + k);
    // Colours: the distinct ones the frames show, each once.
    const shown = new Set(want.frames.flat());
    assert.is(c.colors.length, shown.size);
  });
}

test("GIF disposal: what each method leaves, pixel by pixel", () => {
  const c = readCached(decode(makeGif(GIF_SPECS.disposal)) as string);
  const at = (k: number, x: number, y: number) => hex(c.pixels[k][y * 8 + x]);
  // First frame: its transparent pixels are black.
  assert.is(at(0, 3, 3), "000000");
  assert.is(at(0, 0, 0), "ffffff");
  // Frame 1 is drawn over frame 0 (kept), and where it is transparent frame 0 shows.
  assert.is(at(1, 2, 3), "808080");
  assert.is(at(1, 3, 3), "ff00ff");
  assert.is(at(1, 4, 2), hex(c.pixels[0][2 * 8 + 4]));
  // Frame 1 was restored to black before frame 2: its area is black where frame 2 does not draw.
  assert.is(at(2, 5, 5), "000000");
  assert.is(at(2, 1, 1), "00ff00");
  // Frame 2 restores what was before it, frame 3 is drawn over that.
  assert.is(at(3, 1, 1), hex(c.pixels[1][1 * 8 + 1]));
  assert.is(at(3, 5, 5), "0080ff");
  assert.is(at(4, 0, 6), "ffffff");
  assert.is(at(4, 1, 6), at(3, 1, 6));
});

test("GIF: a frame larger than 32x8 rejects the file", () => {
  assert.is(decode(makeGif(GIF_SPECS.tooWide)), null);
  assert.is(decode(makeGif(GIF_SPECS.tooTall)), null);
});

test("GIF: more than 85 colours come down to 85, each close to the colours it stands for", () => {
  const spec = GIF_SPECS.manyColours;
  const c = readCached(decode(makeGif(spec)) as string);
  const want = composeGif(spec);
  assert.is(new Set(want.frames.flat()).size, 256);
  assert.is(c.colors.length, 85);
  assert.ok(c.triplets);
  let worst = 0;
  let sum = 0;
  const stands = new Map<number, number>();
  for (let k = 0; k < c.frames; k++) {
    for (let i = 0; i < 64; i++) {
      const d = distance(c.pixels[k][i], want.frames[k][i]);
      worst = Math.max(worst, d);
      sum += d;
      const before = stands.get(want.frames[k][i]);
      if (before !== undefined) assert.is(before, c.pixels[k][i], "one colour stays one colour");
      stands.set(want.frames[k][i], c.pixels[k][i]);
    }
  }
  const mean = sum / (64 * c.frames);
  assert.ok(worst < 60, "worst channel error " + worst);
  // A fixed grid of 80 colours (4 levels of red and blue, 5 of green) does markedly worse.
  const level = (v: number, n: number) => Math.round((Math.round((v * (n - 1)) / 255) * 255) / (n - 1));
  let grid = 0;
  for (const f of want.frames) {
    for (const p of f) grid += distance(p, (level(p >> 16, 4) << 16) | (level((p >> 8) & 255, 5) << 8) | level(p & 255, 4));
  }
  grid /= 64 * c.frames;
  assert.ok(mean < 0.75 * grid, "mean channel error " + mean + ", on a fixed grid " + grid);
});

test("GIF: damaged data keeps what decoded, garbage is no icon", () => {
  const bytes = makeGif(GIF_SPECS.animated);
  // Cut inside the last frame's data: the first two frames are whole.
  const cut = readCached(decode(bytes.subarray(0, bytes.length - 8)) as string);
  const want = composeGif(GIF_SPECS.animated);
  assert.ok(cut.frames >= 2);
  assert.equal(cut.pixels[1].map(hex), want.frames[1].map(hex));
  assert.is(decode(Buffer.from("GIF89a")), null);
  assert.is(decode(Buffer.from("GIF89a\x08\x00\x08\x00\x80\x00\x00", "latin1")), null);
  assert.is(decode(Buffer.from("not an image at all, not even close", "latin1")), null);
});

/** jpeg-js's decoding of `bytes`: the top-left 8x8 as 0xRRGGBB (black outside the image). */
function reference(bytes: Buffer): number[] {
  const img = jpegjs.decode(bytes, { useTArray: true, formatAsRGBA: false });
  const out: number[] = [];
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      if (x >= img.width || y >= img.height) {
        out.push(0);
        continue;
      }
      const i = 3 * (y * img.width + x);
      out.push((img.data[i] << 16) | (img.data[i + 1] << 8) | img.data[i + 2]);
    }
  }
  return out;
}

/** Per channel, the largest difference to jpeg-js allowed: its IDCT is integer, its colours truncated. */
const JPEG_TOLERANCE = 2;

const jpegCases: [string, () => Buffer][] = [
  ["jpeg-js colour 8x8, quality 95", () => jpegjs.encode({ width: 8, height: 8, data: rgba(photo(8, 8, 11)) }, 95).data],
  ["jpeg-js colour 16x16, quality 100", () => jpegjs.encode({ width: 16, height: 16, data: rgba(photo(16, 16, 12)) }, 100).data],
  ...Object.entries(JPEG_FILES).map(([name, make]) => ["encoder " + name, make] as [string, () => Buffer]),
];

function rgba(rgb: number[]): Buffer {
  const b = Buffer.alloc(rgb.length * 4);
  rgb.forEach((c, i) => {
    b[4 * i] = c >> 16;
    b[4 * i + 1] = (c >> 8) & 255;
    b[4 * i + 2] = c & 255;
    b[4 * i + 3] = 255;
  });
  return b;
}

for (const [name, make] of jpegCases) {
  test("JPEG " + name + ": the top-left 8x8 as jpeg-js decodes it", () => {
    const bytes = make();
    const c = readCached(decode(bytes) as string);
    assert.is(c.width, 8);
    assert.is(c.height, 8);
    assert.is(c.frames, 1);
    assert.ok(c.triplets);
    const want = reference(bytes);
    let worst = 0;
    for (let i = 0; i < 64; i++) worst = Math.max(worst, distance(c.pixels[0][i], want[i]));
    assert.ok(worst <= JPEG_TOLERANCE, name + ": differs by up to " + worst + "\n" + c.pixels[0].map(hex).join(" ") + "\n" + want.map(hex).join(" "));
    if (name.endsWith("grey")) for (const p of c.pixels[0]) assert.ok(p >> 16 === (p & 255) && ((p >> 8) & 255) === (p & 255), "grey");
  });
}

test("JPEG: progressive and broken files are no icon", () => {
  const good = JPEG_FILES.c444();
  const progressive = Buffer.from(good);
  const sof = progressive.indexOf(Buffer.from([0xff, 0xc0]));
  progressive[sof + 1] = 0xc2;
  assert.is(decode(progressive), null);
  assert.is(decode(good.subarray(0, 40)), null);
  assert.is(decode(Buffer.from([0xff, 0xd8, 0xff, 0xd9])), null);
  // Without its end marker it still decodes.
  assert.ok(decode(good.subarray(0, good.length - 2)));
});

// ---------------------------------------------------------------------------------------------
// Found, cached and drawn

/** An ungraded canvas over a 32x8 buffer, or one whose colours come out with channels rotated. */
function canvas(rotate = false): Canvas {
  const g = Graphics.createArrayBuffer(32, 8, 24) as unknown as Graphics;
  return { g, width: 32, height: 8, color: (rgb: number) => g.setColor(rotate ? ((rgb & 255) << 16) | (rgb >> 8) : rgb) };
}

function pixelsAt(g: Graphics, x0: number, w: number, h: number): number[] {
  const out: number[] = [];
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out.push(g.getPixel(x0 + x, y));
  return out;
}

const rotate = (c: number) => ((c & 255) << 16) | (c >> 8);

test("findIcon: an id finds /ICONS/<id>.gif, then <id>.jpg; frames draw as composed, graded", () => {
  host.storage.write("I/anim.gif", latin1(makeGif(GIF_SPECS.disposal)));
  host.storage.write("I/photo.jpg", latin1(JPEG_FILES.c420()));
  host.storage.write("I/both.gif", latin1(makeGif(GIF_SPECS.static)));
  host.storage.write("I/both.jpg", latin1(JPEG_FILES.c444()));
  const anim = findIcon("anim") as IconImage;
  assert.ok(anim);
  assert.is(anim.width, 8);
  assert.is(anim.height, 8);
  assert.is(anim.frames, 5);
  assert.not.ok(iconIsFull(anim));
  const want = composeGif(GIF_SPECS.disposal);
  const plain = canvas();
  const graded = canvas(true);
  anim.grade(graded);
  for (let k = 0; k < 5; k++) {
    anim.draw(graded.g, 3, 0, k);
    assert.equal(pixelsAt(graded.g, 3, 8, 8).map(hex), want.frames[k].map(rotate).map(hex), "graded frame " + k);
  }
  // Graded anew: the frame last drawn comes out in the new colours too.
  anim.grade(plain);
  anim.draw(plain.g, 20, 0, 4);
  assert.equal(pixelsAt(plain.g, 20, 8, 8).map(hex), want.frames[4].map(hex));
  anim.draw(plain.g, 20, 0, 2);
  assert.equal(pixelsAt(plain.g, 20, 8, 8).map(hex), want.frames[2].map(hex));
  const photoIcon = findIcon("photo") as IconImage;
  assert.ok(photoIcon);
  assert.is(photoIcon.frames, 1);
  photoIcon.draw(plain.g, 0, 0, 0);
  const ref = reference(JPEG_FILES.c420());
  pixelsAt(plain.g, 0, 8, 8).forEach((p, i) => assert.ok(distance(p, ref[i]) <= JPEG_TOLERANCE));
  const both = findIcon("both") as IconImage;
  both.draw(plain.g, 0, 0, 0);
  assert.equal(pixelsAt(plain.g, 0, 8, 8).map(hex), composeGif(GIF_SPECS.static).frames[0].map(hex), "the GIF wins");
  assert.is(findIcon("missing"), null);
  assert.is(findIcon(""), null);
  assert.is(findIcon(undefined as unknown as string), null);
  assert.is(findIcon("x".repeat(30)), null, "an id no Storage name can hold");
});

test("an icon as wide as the panel is full; frameAt follows the frames' own delays, looping", () => {
  host.storage.write("I/wide.gif", latin1(makeGif(GIF_SPECS.wide)));
  host.storage.write("I/anim.gif", latin1(makeGif(GIF_SPECS.animated)));
  const wide = findIcon("wide") as IconImage;
  assert.ok(iconIsFull(wide));
  assert.is(wide.width, 32);
  const c = canvas();
  wide.draw(c.g, 0, 0, 1);
  assert.equal(pixelsAt(c.g, 0, 32, 8).map(hex), composeGif(GIF_SPECS.wide).frames[1].map(hex));
  const anim = findIcon("anim") as IconImage;
  // 50 ms, 200 ms, then 0 which plays 100 ms: 350 ms a loop.
  const seen = [0, 49, 50, 249, 250, 349, 350, 400, 700 + 249, 3500].map((t) => anim.frameAt(t));
  assert.equal(seen, [0, 0, 1, 1, 2, 2, 0, 1, 1, 0]);
  assert.is(findIcon("wide")!.frameAt(1e9 + 15), 0);
  const still = (() => {
    host.storage.write("I/still.gif", latin1(makeGif(GIF_SPECS.static)));
    return findIcon("still") as IconImage;
  })();
  assert.is(still.frameAt(123456), 0);
});

test("inline icons: base64 and data URLs of GIF and JPEG; anything else is no icon", () => {
  const gif = makeGif(GIF_SPECS.animated);
  const jpg = JPEG_FILES.c444();
  const b64 = gif.toString("base64");
  assert.ok(b64.length > 64);
  const want = composeGif(GIF_SPECS.animated).frames;
  for (const icon of [b64, "data:image/gif;base64," + b64]) {
    const img = findIcon(icon) as IconImage;
    assert.ok(img, icon.slice(0, 30));
    assert.is(img.frames, 3);
    const c = canvas();
    img.draw(c.g, 0, 0, 1);
    assert.equal(pixelsAt(c.g, 0, 8, 8).map(hex), want[1].map(hex));
  }
  for (const icon of [jpg.toString("base64"), "data:image/jpeg;base64," + jpg.toString("base64")]) {
    const img = findIcon(icon) as IconImage;
    assert.ok(img);
    const c = canvas();
    img.draw(c.g, 0, 0, 0);
    const ref = reference(jpg);
    pixelsAt(c.g, 0, 8, 8).forEach((p, i) => assert.ok(distance(p, ref[i]) <= JPEG_TOLERANCE));
  }
  assert.is(findIcon("data:image/png;base64," + b64), null);
  assert.is(findIcon(Buffer.from("P".repeat(80)).toString("base64")), null);
  assert.is(findIcon("#".repeat(65)), null);
  // A GIF of 48 bytes is 64 characters of base64: still an id (none), one byte more is an image.
  const tiny = (size: number) => {
    const g = makeGif({ width: 1, height: 1, palette: [0, 0xffffff], frames: [{ w: 1, h: 1, pixels: [1] }] });
    const pad = size - g.length - 4;
    return Buffer.concat([g.subarray(0, g.length - 1), Buffer.from([0x21, 0xfe, pad]), Buffer.alloc(pad, 0x41), Buffer.from([0, 0x3b])]);
  };
  assert.is(tiny(48).toString("base64").length, 64);
  assert.is(findIcon(tiny(48).toString("base64")), null);
  const one = findIcon(tiny(49).toString("base64")) as IconImage;
  assert.ok(one);
  assert.is(one.width, 1);
  const c = canvas();
  one.draw(c.g, 5, 5, 0);
  assert.is(c.g.getPixel(5, 5), 0xffffff);
});

test("the cache: written once, reused without decoding, refreshed when the file changes", () => {
  host.storage.write("I/anim.gif", latin1(makeGif(GIF_SPECS.animated)));
  const name = cacheName("I/anim.gif");
  const first = findIcon("anim") as IconImage;
  assert.ok(first);
  assert.is(host.decodes(), 1);
  const cached = host.storage.read(name) as string;
  assert.ok(cached);
  assert.is(readCached(cached).crc, crc32(makeGif(GIF_SPECS.animated)));
  for (let i = 0; i < 3; i++) assert.ok(findIcon("anim"));
  assert.is(host.decodes(), 1, "decoded once");
  assert.is(host.storage.read(name), cached);
  // The file changes under the same name: decoded again.
  host.storage.write("I/anim.gif", latin1(makeGif(GIF_SPECS.local)));
  const changed = findIcon("anim") as IconImage;
  assert.is(host.decodes(), 2);
  assert.is(changed.frames, 3);
  assert.is(readCached(host.storage.read(name) as string).crc, crc32(makeGif(GIF_SPECS.local)));
  const c = canvas();
  changed.draw(c.g, 0, 0, 1);
  assert.equal(pixelsAt(c.g, 0, 8, 8).map(hex), composeGif(GIF_SPECS.local).frames[1].map(hex));
  // A source that does not decode is remembered as such.
  host.storage.write("I/bad.gif", "GIF89a this is not a gif at all");
  assert.is(findIcon("bad"), null);
  assert.is(findIcon("bad"), null);
  assert.is(host.decodes(), 3);
  const junk = "A".repeat(100);
  assert.is(findIcon(junk), null);
  assert.is(findIcon(junk), null);
  assert.is(host.decodes(), 4);
  assert.ok(host.storage.read(cacheName(junk)));
  // Fixed, it decodes.
  host.storage.write("I/bad.gif", latin1(makeGif(GIF_SPECS.static)));
  assert.ok(findIcon("bad"));
  assert.is(host.decodes(), 5);
});

test("the cache keeps at most 24 files, erasing those not used lately", () => {
  const names: string[] = [];
  for (let i = 0; i < 30; i++) {
    const spec = { width: 8, height: 8, palette: spread(4, i + 1), frames: [{ w: 8, h: 8, pixels: new Array(64).fill(i % 4) }] };
    host.storage.write("I/i" + i + ".gif", latin1(makeGif(spec)));
    names.push(cacheName("I/i" + i + ".gif"));
  }
  for (let i = 0; i < 24; i++) assert.ok(findIcon("i" + i));
  // Icon 0 is used again: the next ones push out 1..6, the least lately used.
  assert.ok(findIcon("i0"));
  for (let i = 24; i < 30; i++) assert.ok(findIcon("i" + i));
  const left = host.storage.list(/^c\//);
  assert.is(left.length, CACHE_FILES);
  for (let i = 1; i <= 6; i++) assert.not.ok(left.includes(names[i]), "i" + i + " erased");
  assert.ok(left.includes(names[0]));
  for (let i = 7; i < 30; i++) assert.ok(left.includes(names[i]), "i" + i + " kept");
  // Other files are never touched.
  assert.ok(host.storage.read("I/i3.gif"));
  const before = host.decodes();
  assert.ok(findIcon("i29"));
  assert.is(host.decodes(), before);
});

test("icons drawn in turn, more than there are map slots, each in its own colours", () => {
  const icons: IconImage[] = [];
  const specs = [0, 1, 2, 3, 4].map((k) => ({ width: 8, height: 8, palette: spread(4, 50 + k), frames: [{ w: 8, h: 8, pixels: GIF_SPECS.static.frames[0].pixels }] }));
  specs.forEach((s, k) => {
    host.storage.write("I/s" + k + ".gif", latin1(makeGif(s)));
    icons.push(findIcon("s" + k) as IconImage);
  });
  const c = canvas(true);
  icons.forEach((i) => i.grade(c));
  for (let round = 0; round < 3; round++) {
    icons.forEach((icon, k) => {
      icon.draw(c.g, 4 * k, 0, 0);
      const want = composeGif(specs[k]).frames[0].map(rotate);
      assert.equal(pixelsAt(c.g, 4 * k, 8, 8).map(hex), want.map(hex), "icon " + k + " round " + round);
    });
  }
});

test("a colour JPEG of jpeg-js at high quality shows as jpeg-js decodes it, the same in the cache and on screen", () => {
  const bytes = encodeJpeg(photo(8, 8, 21), 8, 8, { mode: "444", q: 1 });
  host.storage.write("I/p.jpg", latin1(bytes));
  const img = findIcon("p") as IconImage;
  const c = canvas();
  img.draw(c.g, 10, 0, 0);
  const cached = readCached(host.storage.read(cacheName("I/p.jpg")) as string);
  assert.equal(pixelsAt(c.g, 10, 8, 8), cached.pixels[0]);
});

test.run();
