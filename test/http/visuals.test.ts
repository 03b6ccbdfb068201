// Effects, overlays and palettes as a client sees them: what it pushes or patches shows in the
// screen capture, moving with time, and goes away when it is removed.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTarget, call, type Target } from "./target";
import { makeGif } from "../unit/icons-support";

const t = suite("effects, overlays and palettes on screen");
let dut: Target;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.before(async () => {
  dut = await startTarget();
  const r = await call(dut, "PATCH", "/api/v1/settings", { body: { transitionDurationMs: 0, autoTransition: false } });
  assert.is(r.status, 200, r.text);
});
t.after(async () => { await dut.stop(); });

async function pixels(): Promise<number[]> {
  await sleep(80);
  return (await call(dut, "GET", "/api/v1/display/screen")).body.pixels;
}

async function show(name: string, body: object): Promise<void> {
  const r = await call(dut, "PUT", "/api/v1/apps/pushed/" + name, { body });
  assert.is(r.status, 200, r.text);
  assert.is((await call(dut, "PUT", "/api/v1/apps/active", { body: { name, fast: true } })).status, 200);
}

const count = (p: number[], f: (v: number) => boolean) => p.filter(f).length;
/** A pixel that is blue, or bluish grey: what the stock rain and snow are made of. */
const bluish = (v: number) => v !== 0 && (v & 255) > ((v >> 16) & 255);

t("the global overlay is drawn over the built-in apps, moves, and goes with null", async () => {
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Time", fast: true } });
  const before = await pixels();
  assert.is(count(before, bluish), 0, "the clock is white");
  assert.is((await call(dut, "PATCH", "/api/v1/display", { body: { overlay: "rain" } })).status, 200);
  const a = await pixels();
  await sleep(300);
  const b = await pixels();
  assert.ok(count(a, bluish) > 3, "drops: " + count(a, bluish));
  assert.not.equal(a, b, "the drops fall");
  assert.is((await call(dut, "PATCH", "/api/v1/display", { body: { overlay: null } })).status, 200);
  assert.is(count(await pixels(), bluish), 0);
});

t("a palette on the global overlay recolours it", async () => {
  await call(dut, "PUT", "/api/v1/apps/active", { body: { name: "Time", fast: true } });
  const r = await call(dut, "PATCH", "/api/v1/display", { body: { overlay: "snow", overlaySettings: { palette: ["#FF0000"] } } });
  assert.is(r.status, 200, r.text);
  let red = 0;
  for (let i = 0; i < 5 && !red; i++) red = count(await pixels(), (v) => v === 0xff0000);
  assert.ok(red > 0, "red flakes");
  await call(dut, "PATCH", "/api/v1/display", { body: { overlay: null } });
});

t("a pushed app's effect fills the background and moves; its own overlay replaces the global one", async () => {
  await show("fx", { text: "HI", effect: "Plasma" });
  const a = await pixels();
  await sleep(400);
  const b = await pixels();
  assert.ok(count(a, (v) => v !== 0) > 200, "lit: " + count(a, (v) => v !== 0));
  assert.not.equal(a, b);
  await show("mono", { effect: "ColorWaves", palette: ["#00FF00"] });
  assert.is(count(await pixels(), (v) => v === 0x00ff00), 256);
  await call(dut, "PATCH", "/api/v1/display", { body: { overlay: "snow", overlaySettings: { palette: ["#FF0000"] } } });
  await show("own", { text: "", backgroundColor: "#000000", overlay: "rain", palette: ["#0000FF"] });
  let red = 0;
  let blue = 0;
  for (let i = 0; i < 5; i++) {
    const p = await pixels();
    red += count(p, (v) => v === 0xff0000);
    blue += count(p, (v) => v === 0x0000ff);
  }
  assert.is(red, 0, "no global snow over the app's own rain");
  assert.ok(blue > 0, "its rain in its palette");
  await call(dut, "PATCH", "/api/v1/display", { body: { overlay: null } });
  for (const n of ["fx", "mono", "own"]) await call(dut, "DELETE", "/api/v1/apps/" + n);
});

t("text painted from a palette: first colour on the left, last on the right", async () => {
  await show("ramp", { text: "HIHIHI", textColor: "palette", palette: ["#FF0000", "#0000FF"] });
  const p = await pixels();
  const lit = p.map((v, i) => [i % 32, v]).filter(([, v]) => v !== 0);
  const left = Math.min(...lit.map(([x]) => x));
  const right = Math.max(...lit.map(([x]) => x));
  assert.ok(lit.filter(([x]) => x === left).every(([, v]) => v === 0xff0000));
  assert.ok(lit.filter(([x]) => x === right).every(([, v]) => v === 0x0000ff));
  await call(dut, "DELETE", "/api/v1/apps/ramp");
});

t("text painted from a moving palette with a span: one colour down each column, repeating every span columns", async () => {
  // reference/payload.md: paletteSpan pixels a full pass, so columns span apart show the same position.
  const span = 5;
  await show("swept", { text: "HIHIHI", textColor: "palette", palette: "Rainbow", paletteSpan: span, paletteSpeed: 1 });
  for (let n = 0; n < 3; n++) {
    const p = await pixels();
    const columns: number[] = [];
    for (let x = 0; x < 32; x++) {
      const lit = p.filter((v, i) => i % 32 === x && v !== 0);
      if (!lit.length) continue;
      assert.ok(lit.every((v) => v === lit[0]), "one colour down column " + x);
      columns[x] = lit[0];
      if (columns[x - span] !== undefined) assert.is(lit[0], columns[x - span], "column " + x);
    }
    assert.ok(new Set(columns.filter((v) => v !== undefined)).size >= 3);
  }
  await call(dut, "DELETE", "/api/v1/apps/swept");
});

t("an inline GIF icon shows in its column, playing; an unknown id shows no column", async () => {
  const frames = [0, 1].map((i) => ({ w: 8, h: 8, pixels: new Array(64).fill(i), delay: 30 }));
  const data = makeGif({ width: 8, height: 8, palette: [0xff00ff, 0x00ffff], frames }).toString("base64");
  assert.ok(data.length > 64);
  await show("iconic", { text: "HI", icon: "data:image/gif;base64," + data });
  const seen = new Set<number>();
  for (let i = 0; i < 6; i++) {
    const p = await pixels();
    const column = p.filter((_, k) => k % 32 < 8);
    assert.ok(column.every((v) => v === column[0]), "one colour per frame");
    seen.add(column[0]);
  }
  assert.ok(seen.has(0xff00ff) && seen.has(0x00ffff), "both frames: " + [...seen].map((v) => v.toString(16)));
  await show("noicon", { text: "HI", icon: "nosuchicon" });
  const p = await pixels();
  const lit = p.map((v, k) => [k % 32, v]).filter(([, v]) => v !== 0).map(([x]) => x);
  assert.ok(Math.min(...lit) > 8 && Math.min(...lit) < 14, "centred on the whole panel: " + Math.min(...lit));
  for (const n of ["iconic", "noicon"]) await call(dut, "DELETE", "/api/v1/apps/" + n);
});

t.run();
