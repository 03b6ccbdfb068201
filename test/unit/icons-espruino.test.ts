// Icons in the real interpreter ($ESPRUINO, Espruino's Linux build): the GIF and JPEG files of
// the host suite stored there, found and decoded by firmware/icons (the decode module built as
// the build builds it and loaded from Storage), give the host's cached bytes and the host's drawn
// pixels (there the triplets are written through Uint24Array and E.mapInPlace, which the host
// lacks). Also measured there: how long a ~1 KB animated GIF takes to decode (at most 200 ms),
// the fewest free variables its decode needs, what a decoded 8-frame 8x8 icon holds (at most 20
// variables) besides what all icons share, that drawing leaves nothing behind, and that the cache
// stays within its 24 files.
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as esbuild from "esbuild";
import { runInEspruino } from "../espruino/script";
import { ROOT } from "../harness/root";
import { findIcon, newIconState } from "../../firmware/icons/icon";
import type { Canvas } from "../../firmware/display/canvas";
import { cacheName, GIF_SPECS, installIconHost, JPEG_FILES, latin1, makeGif } from "./icons-support";
// @ts-expect-error: a build script without type declarations
import { asExpression, moduleFile, moduleGuard } from "../../build/modules.mjs";
// @ts-expect-error: a build script without type declarations
import { espruinoBundle, renameOf } from "../../build/espruino-bundle.mjs";

const bin = process.env.ESPRUINO;
const MARK = "[icons] ";
const MAX_DECODE_MS = 200;
const MAX_HELD = 20;
/** Free variables the decode of the 1 KB GIF may need at most. */
const MAX_PEAK = 600;
/** Small icons looked up after the cases, to see the cache kept to its size. */
const PRUNED = 26;

/** The Storage file of module `id`, built as build/modules.mjs builds it. */
async function builtModule(id: string): Promise<string> {
  const options = espruinoBundle(path.join(ROOT, "firmware", id + ".mod.ts"), "esp32", path.join(ROOT, "dist", "unused"));
  options.format = "esm";
  options.write = false;
  options.banner = undefined;
  options.plugins = [moduleGuard(id)];
  const result = await esbuild.build(options);
  return renameOf(asExpression(result.outputFiles[0].text, id));
}

/** Icon files by Storage name, and the icon strings looked up (ids, then inline data). */
function sources(): { files: { [name: string]: string }; icons: string[] } {
  const files: { [name: string]: string } = {};
  const icons: string[] = [];
  for (const name of Object.keys(GIF_SPECS)) {
    files["I/" + name + ".gif"] = latin1(makeGif(GIF_SPECS[name]));
    icons.push(name);
  }
  for (const name of Object.keys(JPEG_FILES)) {
    files["I/j" + name + ".jpg"] = latin1(JPEG_FILES[name]());
    icons.push("j" + name);
  }
  for (let i = 0; i < PRUNED; i++) {
    files["I/p" + i + ".gif"] = latin1(makeGif({ width: 8, height: 8, palette: [0, 0x010101 * (i + 1)], frames: [{ w: 8, h: 8, pixels: new Array(64).fill(1) }] }));
  }
  icons.push(makeGif(GIF_SPECS.disposal).toString("base64"));
  icons.push("data:image/jpeg;base64," + JPEG_FILES.c420().toString("base64"));
  return { files, icons };
}

/** The Storage name an icon string is cached under (its source file's name, or itself). */
function keyOf(icon: string, files: { [name: string]: string }): string {
  if (icon.length > 64) return icon;
  return files["I/" + icon + ".gif"] !== undefined ? "I/" + icon + ".gif" : "I/" + icon + ".jpg";
}

/** Channels rotated: a grading whose mistakes show. */
const GRADE = "(rgb) => ((rgb & 255) << 16) | (rgb >> 8)";

function script(icons: string[], caches: string[]): string {
  return `
    import { findIcon as findIn, newIconState } from "./firmware/icons/icon";
    const icons = newIconState();
    const findIcon = (icon: string) => findIn(icon, icons);
    import { loadModule } from "./firmware/platform/modules";
    const S = require("Storage");
    const grade = ${GRADE};
    const g = Graphics.createArrayBuffer(32, 8, 24);
    const canvas = { g: g, width: 32, height: 8, color: function (rgb) { g.setColor(grade(rgb)); } };
    const ICONS = ${JSON.stringify(icons)};
    const CACHES = ${JSON.stringify(caches)};
    const hex2 = (v) => (256 + v).toString(16).substr(1);
    // The first icon made: what it holds and what all icons share. A decode first, whose
    // one-time costs (the interpreter's own, on first use of a builtin) are nobody's.
    loadModule("icons/decode")(S.read("I/jgrey.jpg"));
    const first = [0];
    const f0 = process.memory().usage;
    first[0] = findIcon(ICONS[0]);
    first[0].grade(canvas);
    first[0].draw(g, 0, 0, 0);
    print("${MARK}first " + (process.memory().usage - f0));
    first[0] = 0;
    for (let i = 0; i < ICONS.length; i++) {
      const img = findIcon(ICONS[i]);
      if (!img) {
        print("${MARK}none " + i);
        continue;
      }
      const data = S.read(CACHES[i]);
      for (let at = 0; at < data.length; at += 64) {
        let line = "";
        for (let k = at; k < at + 64 && k < data.length; k++) line += hex2(data.charCodeAt(k));
        print("${MARK}cache " + i + " " + line);
      }
      img.grade(canvas);
      for (let f = 0; f < img.frames; f++) {
        g.clear();
        img.draw(g, 0, 0, f);
        let row = "";
        for (let y = 0; y < 8; y++) for (let x = 0; x < 32; x++) row += (0x1000000 + g.getPixel(x, y)).toString(16).substr(1);
        print("${MARK}px " + i + " " + f + " " + row);
      }
    }
    // Decode time of the ~1 KB animated GIF: the module loaded once, then the median of 5.
    const decode = loadModule("icons/decode");
    const src = S.read("I/kilobyte.gif");
    const times = [];
    for (let k = 0; k < 5; k++) {
      const t = getTime();
      decode(src);
      times.push((getTime() - t) * 1000);
    }
    times.sort((a, b) => a - b);
    print("${MARK}decode " + src.length + " " + times[2].toFixed(1));
    // The 32x8 GIF (2 frames), the one of 256 colours, a 4:2:0 JPEG.
    const timed = (name) => {
      const s = S.read(name);
      const t = getTime();
      decode(s);
      return ((getTime() - t) * 1000).toFixed(1);
    };
    print("${MARK}decodes wide " + timed("I/wide.gif") + " many " + timed("I/manyColours.gif") + " jpeg " + timed("I/jc420.jpg"));
    // What a decoded 8-frame 8x8 icon holds (its cache written above; icons drawn before made
    // what all icons share).
    const keep = [0, 0];
    let u0 = process.memory().usage;
    keep[0] = findIcon("kilobyte");
    keep[0].grade(canvas);
    for (let f = 0; f < 8; f++) keep[0].draw(g, 0, 0, f);
    let u1 = process.memory().usage;
    print("${MARK}held " + keep[0].frames + " " + (u1 - u0));
    // Drawing allocates nothing that stays: 300 frames of two icons.
    keep[1] = findIcon("animated");
    keep[1].grade(canvas);
    u0 = process.memory().usage;
    for (let k = 0; k < 300; k++) {
      keep[0].draw(g, 0, 0, keep[0].frameAt(k * 40));
      keep[1].draw(g, 9, 0, keep[1].frameAt(k * 40));
    }
    u1 = process.memory().usage;
    print("${MARK}drawgrowth " + (u1 - u0));
    let t = getTime();
    for (let k = 0; k < 100; k++) keep[0].draw(g, 0, 0, k & 7);
    const changing = (getTime() - t) * 10;
    t = getTime();
    for (let k = 0; k < 100; k++) keep[0].draw(g, 0, 0, 3);
    print("${MARK}drawms " + changing.toFixed(3) + " " + ((getTime() - t) * 10).toFixed(3));
    keep[0] = 0;
    keep[1] = 0;
    // More icons than the cache keeps: the oldest cache files go.
    for (let i = 0; i < ${PRUNED}; i++) findIcon("p" + i);
    print("${MARK}files " + S.list(/^c\\//).length + " " + (S.read(CACHES[CACHES.length - 1]) === undefined));
    // The fewest free variables the decode of the 1 KB GIF needs, found by halving: each try fills
    // memory but for a margin (with an array of small numbers, a variable each, so that the
    // filling never needs a block in one piece) and runs the decode in a callback of its own, as
    // running out of memory abandons the callback it happens in.
    const expected = E.CRC32(decode(src));
    const state = { lo: 0, hi: 1200, margin: 0, left: 0, ok: false, filler: null, best: 0 };
    const step = () => {
      if (state.margin > 0) {
        if (state.ok) {
          state.hi = state.margin;
          if (!state.best || state.left < state.best) state.best = state.left;
        } else state.lo = state.margin;
      }
      state.filler = null;
      E.getErrorFlags();
      if (state.hi - state.lo <= 16) {
        print("${MARK}peak " + state.best);
        return;
      }
      state.margin = (state.lo + state.hi) >> 1;
      state.ok = false;
      setTimeout(step, 1);
      const filler = [];
      for (let k = process.memory().free - state.margin; k > 0; k--) filler.push(0);
      state.filler = filler;
      state.left = process.memory(false).free;
      let out = null;
      try {
        out = decode(src);
      } catch (e) {}
      state.ok = out !== null && E.CRC32(out) === expected && E.getErrorFlags().length === 0;
      state.filler = null;
    };
    setTimeout(step, 1);
  `;
}

/** The same on the host: cached bytes and drawn frames of each icon string. */
function hostRun(files: { [name: string]: string }, icons: string[], caches: string[]): { cache: string[]; px: string[][]; none: boolean[] } {
  const host = installIconHost();
  try {
    for (const name of Object.keys(files)) host.storage.write(name, files[name]);
    const g = Graphics.createArrayBuffer(32, 8, 24) as unknown as Graphics;
    const grade = new Function("return " + GRADE)() as (rgb: number) => number;
    const canvas: Canvas = { g, width: 32, height: 8, color: (rgb: number) => g.setColor(grade(rgb)) };
    const cache: string[] = [];
    const px: string[][] = [];
    const none: boolean[] = [];
    const state = newIconState();
    icons.forEach((icon, i) => {
      const img = findIcon(icon, state);
      none[i] = !img;
      px[i] = [];
      if (!img) return;
      cache[i] = Buffer.from(host.storage.read(caches[i]) as string, "latin1").toString("hex");
      img.grade(canvas);
      for (let f = 0; f < img.frames; f++) {
        g.clear();
        img.draw(g, 0, 0, f);
        let row = "";
        for (let y = 0; y < 8; y++) for (let x = 0; x < 32; x++) row += g.getPixel(x, y).toString(16).padStart(6, "0");
        px[i].push(row);
      }
    });
    return { cache, px, none };
  } finally {
    host.restore();
  }
}

if (!bin) {
  test.skip("icons in the real interpreter (set ESPRUINO=/path/to/espruino)", () => {});
} else {
  test("in the real interpreter: the host's cached bytes and pixels, decode time, peak and held memory", async () => {
    const { files, icons } = sources();
    const caches = icons.map((icon) => cacheName(keyOf(icon, files)));
    const all: { [name: string]: string } = Object.assign({ [moduleFile("icons/decode")]: await builtModule("icons/decode") }, files);
    const lines = runInEspruino(bin, script(icons, caches), all);
    const cache: string[] = [];
    const px: string[][] = icons.map(() => []);
    const none: boolean[] = [];
    const facts: { [name: string]: string[] } = {};
    for (const l of lines) {
      const at = l.indexOf(MARK);
      if (at < 0) continue;
      const w = l.slice(at + MARK.length).split(" ");
      if (w[0] === "cache") cache[+w[1]] = (cache[+w[1]] || "") + w[2];
      else if (w[0] === "px") px[+w[1]][+w[2]] = w[3];
      else if (w[0] === "none") none[+w[1]] = true;
      else facts[w[0]] = w.slice(1);
    }
    const hostSide = hostRun(files, icons, caches);
    icons.forEach((icon, i) => {
      const label = icon.length > 64 ? "inline " + icon.slice(0, 24) : icon;
      assert.is(!!none[i], hostSide.none[i], label + " found alike");
      if (hostSide.none[i]) return;
      assert.is(cache[i], hostSide.cache[i], label + ": cached bytes");
      assert.equal(px[i], hostSide.px[i], label + ": pixels");
    });
    assert.ok(hostSide.none[icons.indexOf("tooWide")] && hostSide.none[icons.indexOf("tooTall")]);
    assert.ok(facts.decode && facts.held && facts.peak, "measurements printed:\n" + lines.slice(-30).join("\n"));
    const [bytes, ms] = facts.decode.map(Number);
    const [frames, held] = facts.held.map(Number);
    console.log("  decode of a " + bytes + "-byte 8-frame 8x8 GIF: " + ms + " ms (median of 5); 32x8 2 frames " + facts.decodes[1] +
      " ms, 256 colours reduced " + facts.decodes[3] + " ms, 16x16 4:2:0 JPEG " + facts.decodes[5] + " ms");
    console.log("  its decode needs " + facts.peak[0] + " free variables; the decoded icon holds " + held + " variables (" + frames +
      " frames); the first icon made " + facts.first[0] + " with what all icons share");
    console.log("  draw: " + facts.drawms[0] + " ms a frame when it changes, " + facts.drawms[1] + " ms when it does not; " +
      facts.drawgrowth[0] + " variables left after 600 draws");
    assert.ok(bytes >= 900 && bytes <= 1200, "the animated GIF has " + bytes + " bytes");
    assert.ok(ms <= MAX_DECODE_MS, "decode took " + ms + " ms");
    assert.is(frames, 8);
    assert.ok(held <= MAX_HELD, "a decoded icon holds " + held + " variables");
    assert.ok(Math.abs(+facts.drawgrowth[0]) <= 2, "drawing leaves " + facts.drawgrowth[0] + " variables");
    assert.ok(+facts.peak[0] <= MAX_PEAK, "the decode needs " + facts.peak[0] + " free variables");
    assert.equal(facts.files, ["24", "true"], "24 cache files kept, the least lately used gone");
  });
}

test.run();
