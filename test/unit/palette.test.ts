// Palettes: the eight built-ins, palette files (found ignoring case, winning over a built-in,
// refused when malformed), colour lists and positioned stops, each resolved to its 16 entries and
// drawn through the ink; and how the payload validator and PATCH /api/v1/display take them.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { installEngineHost } from "./engine-support";
import { serveStorage, storageOf } from "./text-support";
import { paletteEntries, paletteInk } from "../../firmware/palette/resolve";
import { findPaletteFile, readPaletteFile } from "../../firmware/palette/file";
import { mix } from "../../firmware/palette/compile";
import { FrameCanvas, Grade } from "../../firmware/display/grade";
import { checkPayloads } from "../../firmware/payload/check";
import { payloadFields } from "../../firmware/payload/stored";
import type { StoredPalette, StoredPayload } from "../../firmware/payload/stored";
import type { Failure } from "../../firmware/core/failure";
import { isFailure } from "../../firmware/core/failure";
import { loadModule } from "../../firmware/platform/modules";
import { newOverlay } from "../../firmware/display/overlay";
import type { OverlayState } from "../../firmware/display/overlay";
import type { Handler, Reply, ApiRequest } from "../../firmware/http/types";
import type { App } from "../../firmware/app";
import type Builtin from "../../firmware/palette/builtin.mod";

const RED = 0xff0000;
const GREEN = 0x00ff00;
const BLUE = 0x0000ff;
const WHITE = 0xffffff;
const BLACK = 0x000000;

/** The Storage files the suite serves; tests add and remove palette files here. */
const files: { [name: string]: string } = {};
let restore: Array<() => void> = [];

type HostModules = (id: string) => unknown;
const host = globalThis as unknown as { PIXLOOP_HOST_MODULES: HostModules };
/** Module ids loaded since the last reset, to see when the built-ins are read. */
let loads: string[] = [];

test.before(() => {
  restore = [installEngineHost(), serveStorage(storageOf(files))];
  const loader = host.PIXLOOP_HOST_MODULES;
  host.PIXLOOP_HOST_MODULES = (id) => {
    loads.push(id);
    return loader(id);
  };
  restore.push(() => {
    host.PIXLOOP_HOST_MODULES = loader;
  });
});
test.after(() => {
  for (const undo of restore.reverse()) undo();
});
test.before.each(() => {
  for (const name of Object.keys(files)) delete files[name];
  loads = [];
});

function entries(p: StoredPalette | null): number[] {
  const e = paletteEntries(p);
  if (!e) throw new Error("no palette: " + JSON.stringify(p));
  return Array.from(e);
}

function builtin(name: string): number[] {
  const e = loadModule<typeof Builtin>("palette/builtin")(name);
  if (!e) throw new Error("no built-in " + name);
  return Array.from(e);
}

function validate(body: unknown): StoredPayload | Failure {
  const r = checkPayloads([body], false);
  return Array.isArray(r) ? r[0] : r;
}

function storedPalette(palette: unknown): StoredPalette | undefined {
  const r = validate({ text: "x", palette });
  if (isFailure(r)) throw new Error("refused: " + JSON.stringify(r));
  return payloadFields(r).palette;
}

function refusal(palette: unknown): Failure {
  const r = validate({ text: "x", palette });
  if (!isFailure(r)) throw new Error("accepted: " + JSON.stringify(palette));
  return r;
}

/** The wire colours of ink positions 0-255, for an ungraded panel. */
function sweep(p: StoredPalette | null, blend: boolean, stock = "FFFFFF"): number[] {
  const g = Graphics.createArrayBuffer(32, 8, 24) as unknown as Graphics;
  const ink = paletteInk(p, blend, stock);
  ink.grade(new FrameCanvas(g, new Grade()));
  const out: number[] = [];
  for (let pos = 0; pos < 256; pos++) out.push(ink.tone(pos));
  return out;
}

/** Neighbouring equal values as one. */
function runs(values: number[]): number[] {
  return values.filter((v, i) => i === 0 || v !== values[i - 1]);
}

test("the eight built-ins by name, in any case, 16 entries each with their character", () => {
  const names = ["Cloud", "Lava", "Ocean", "Forest", "Stripe", "Party", "Heat", "Rainbow"];
  for (const name of names) {
    const e = builtin(name);
    assert.is(e.length, 16, name);
    assert.equal(entries(name.toUpperCase()), e, name);
    assert.equal(entries(name.toLowerCase()), e, name);
  }
  const heat = builtin("Heat");
  assert.is(heat[0], BLACK);
  assert.is(heat[5], RED);
  assert.is(heat[10], 0xffff00);
  assert.is(heat[15], WHITE);
  const rainbow = builtin("Rainbow");
  assert.is(rainbow[0], RED);
  assert.is(rainbow[6], GREEN);
  assert.is(rainbow[10], BLUE);
  // Stripe: a hue, then black, eight times.
  const stripe = builtin("Stripe");
  for (let i = 0; i < 16; i++) assert.ok(i % 2 ? stripe[i] === BLACK : stripe[i] !== BLACK, "stripe " + i);
  // Lava and Cloud carry exactly one white entry.
  assert.is(builtin("Lava").filter((c) => c === WHITE).length, 1);
  assert.is(builtin("Cloud").filter((c) => c === WHITE).length, 1);
  // Party has no green band: green never the strongest channel.
  for (const c of builtin("Party")) assert.ok(((c >> 8) & 255) <= Math.max(c >> 16, c & 255), c.toString(16));
  // The module answers the canonical spelling only; the resolver is what ignores case.
  assert.is(loadModule<typeof Builtin>("palette/builtin")("lava"), null);
  assert.is(loadModule<typeof Builtin>("palette/builtin")("Sunset"), null);
  assert.is(paletteEntries("Sunset"), null);
});

test("the built-ins' module is loaded for a built-in name only", () => {
  entries([RED, BLUE]);
  entries([[0, RED], [100, BLUE]]);
  files["P/Mine.txt"] = "FF0000\n";
  entries("mine");
  assert.equal(loads, []);
  entries("Ocean");
  assert.equal(loads, ["palette/builtin"]);
});

test("a palette file: found ignoring case, its stops spread evenly and blended", () => {
  files["P/Sunset.txt"] = "FF0000\n\n#0000FF\n";
  assert.is(findPaletteFile("SUNSET"), "Sunset");
  assert.is(findPaletteFile("sunset"), "Sunset");
  assert.is(findPaletteFile("Sunse"), "");
  assert.is(findPaletteFile("Sunset.txt"), "");
  const e = entries("sunset");
  assert.is(e[0], RED);
  assert.is(e[15], BLUE);
  assert.is(e[5], mix(RED, BLUE, 5 / 15));
  // Another folder's file of that name is not a palette.
  files["I/Dawn.txt"] = "FF0000\n";
  assert.is(findPaletteFile("Dawn"), "");
  // A name with a slash or ".." never names a file.
  files["P/a..b.txt"] = "FF0000\n";
  assert.is(findPaletteFile("a..b"), "");
  assert.is(findPaletteFile("x/../Sunset"), "");
});

test("a file wins over a built-in of its name, and deleting it brings the built-in back", () => {
  files["P/LAVA.txt"] = "00FF00";
  assert.equal(entries("Lava"), new Array(16).fill(GREEN));
  delete files["P/LAVA.txt"];
  assert.equal(entries("Lava"), builtin("Lava"));
});

test("a file's positioned stops: sorted, flat before the first and after the last, hard edge at one position", () => {
  files["P/ramp.txt"] = "FFFFFF@100\nFF0000@0\nFFFF00@70\n";
  let e = entries("ramp");
  assert.is(e[0], RED);
  // Entry 6 sits at 40 %, 4/7 of the way from red to yellow.
  assert.is(e[6], mix(RED, 0xffff00, 40 / 70));
  assert.is(e[15], WHITE);
  assert.is(e[12], mix(0xffff00, WHITE, 10 / 30));
  files["P/edge.txt"] = "00FF00@20 0000FF@80";
  e = entries("edge");
  for (let i = 0; i <= 3; i++) assert.is(e[i], GREEN, "flat start " + i);
  for (let i = 12; i <= 15; i++) assert.is(e[i], BLUE, "flat end " + i);
  assert.is(e[6], mix(GREEN, BLUE, (40 - 20) / 60));
  files["P/hard.txt"] = "FF0000@0 FF0000@50 0000FF@50 0000FF@100";
  e = entries("hard");
  assert.equal(e, new Array(8).fill(RED).concat(new Array(8).fill(BLUE)));
});

test("a malformed palette file is refused, and resolves to nothing (or its built-in)", () => {
  const bad = ["FF0000@10\n00FF00", "GG0000", "FF0000@101", "FF00", "", "FF0000 ".repeat(17), "FF0000@1x"];
  for (const text of bad) {
    files["P/Bad.txt"] = text;
    assert.is(readPaletteFile("Bad"), null, JSON.stringify(text));
    assert.is(paletteEntries("bad"), null, JSON.stringify(text));
    const f = refusal("bad");
    assert.is(f.status, 422);
    assert.is(f.code, "validationFailed");
    assert.is(f.field, "palette");
  }
  assert.ok(readPaletteFile("Missing") === null);
  files["P/heat.txt"] = "not a palette";
  assert.is(refusal("Heat").field, "palette");
  // It cannot be drawn with, so the built-in it shadows stands in.
  assert.equal(entries("Heat"), builtin("Heat"));
});

test("a colour list: one colour fills all 16, sixteen are the entries, extras dropped", () => {
  assert.equal(entries([RED]), new Array(16).fill(RED));
  const sixteen = builtin("Party");
  assert.equal(entries(sixteen), sixteen);
  const twenty = sixteen.concat([WHITE, WHITE, WHITE, WHITE]);
  const stored = storedPalette(twenty.map((c) => "#" + c.toString(16).padStart(6, "0")));
  assert.equal(stored, sixteen);
  assert.equal(entries(stored as StoredPalette), sixteen);
  const two = entries(storedPalette(["#FF0000", [0, 0, 255]]) as StoredPalette);
  assert.is(two[0], RED);
  assert.is(two[15], BLUE);
  assert.is(two[3], mix(RED, BLUE, 3 / 15));
});

test("positioned stops from a payload: sorted, a hard edge at one position, flat ends", () => {
  const stored = storedPalette([{ color: "#0000FF", pos: 100 }, { color: "#FF0000", pos: 50 },
    { color: "#00FF00", pos: 50 }, { color: "#FF0000", pos: 0 }]);
  assert.equal(stored, [[0, RED], [50, RED], [50, GREEN], [100, BLUE]]);
  const e = entries(stored as StoredPalette);
  assert.equal(e.slice(0, 8), new Array(8).fill(RED));
  assert.is(e[8], mix(GREEN, BLUE, (800 / 15 - 50) / 50));
  assert.is(e[15], BLUE);
  const flat = entries(storedPalette([{ color: "#00FF00", pos: 30 }, { color: "#0000FF", pos: 60 }]) as StoredPalette);
  assert.equal(flat.slice(0, 5), new Array(5).fill(GREEN));
  assert.equal(flat.slice(9), new Array(7).fill(BLUE));
});

test("the ink: blend off shows the 16 entries as 16 hard bands in order; blend on grades between them", () => {
  const rainbow = builtin("Rainbow");
  const hard = sweep("Rainbow", false);
  assert.equal(runs(hard), rainbow);
  // Near-even bands: 16 positions each, give or take the ink's steps (STEPS of them, not 256).
  for (let i = 0; i < 16; i++) {
    const width = hard.filter((c) => c === rainbow[i]).length;
    assert.ok(width >= 12 && width <= 20, "band " + i + ": " + width);
  }
  const soft = sweep("Rainbow", true);
  assert.ok(runs(soft).length > 40, "a gradient: " + runs(soft).length + " colours");
  assert.is(soft[0], RED);
  assert.ok(paletteInk("Rainbow", true, "FFFFFF").given);
});

test("the ink falls back to the stock colours when there is no palette or it no longer resolves", () => {
  assert.equal(runs(sweep(null, true, "00FF00")), [GREEN]);
  assert.equal(runs(sweep("Sunset", true, "00FF00")), [GREEN]);
  assert.is(paletteInk(null, true, "00FF00").given, false);
  assert.is(paletteInk("Sunset", true, "00FF00").given, false);
  // A palette replaces the stock colours entirely.
  assert.equal(runs(sweep([BLUE], true, "00FF00")), [BLUE]);
});

test("the payload validator takes palette files by name, spelled as stored", () => {
  files["P/Sunset.txt"] = "FF0000 0000FF";
  assert.is(storedPalette("SUNSET"), "Sunset");
  files["P/lava.txt"] = "00FF00";
  assert.is(storedPalette("LAVA"), "lava");
  delete files["P/lava.txt"];
  assert.is(storedPalette("LAVA"), "Lava");
  const f = refusal("Dusk");
  assert.equal([f.status, f.field, f.message], [422, "palette", "unknown palette"]);
});

const patchDisplay = () => loadModule<Handler>("display/patch");
const getDisplay = () => loadModule<Handler>("display/get");

function displayApp(): App & { display: { overlay: OverlayState } } {
  const display = {
    overlay: newOverlay(),
    moodlight: { on: false },
    setOverlay(o: OverlayState) {
      display.overlay = o;
    },
  };
  return {
    display,
    runtime: { matrixPower: true, brightness: 100 },
    settings: {},
  } as unknown as App & { display: { overlay: OverlayState } };
}

function call(h: Handler, app: App, body?: unknown): Reply | Failure {
  return h({ body } as unknown as ApiRequest, app);
}

test("PATCH /api/v1/display: overlaySettings.palette takes files and built-ins, stored as a payload's palette", () => {
  const app = displayApp();
  files["P/Sunset.txt"] = "FF0000@0 0000FF@100";
  assert.equal(call(patchDisplay(), app, { overlay: "rain", overlaySettings: { palette: "sunset" } }), { status: 200, json: { ok: true } });
  assert.is(app.display.overlay.palette, "Sunset");
  assert.is(entries(app.display.overlay.palette)[15], BLUE);
  call(patchDisplay(), app, { overlaySettings: { palette: "heat" } });
  assert.is(app.display.overlay.palette, "Heat");
  call(patchDisplay(), app, { overlaySettings: { palette: ["#FF0000", [0, 0, 255]] } });
  assert.equal(app.display.overlay.palette, [RED, BLUE]);
  call(patchDisplay(), app, { overlaySettings: { palette: [{ color: "#0000FF", pos: 100 }, { color: [255, 0, 0], pos: 0 }] } });
  assert.equal(app.display.overlay.palette, [[0, RED], [100, BLUE]]);
  // GET shows it in the form it is sent in.
  const shown = call(getDisplay(), app) as Reply;
  assert.equal((shown.json as { overlaySettings: unknown }).overlaySettings,
    { speed: 1, palette: [{ color: "#FF0000", pos: 0 }, { color: "#0000FF", pos: 100 }], blend: true });
  call(patchDisplay(), app, { overlaySettings: { palette: ["#00FF00"] } });
  assert.equal((((call(getDisplay(), app) as Reply).json) as { overlaySettings: { palette: unknown } }).overlaySettings.palette, ["#00FF00"]);
  call(patchDisplay(), app, { overlaySettings: { palette: null } });
  assert.is(app.display.overlay.palette, null);
});

test("PATCH /api/v1/display: a malformed or unknown palette is refused on its field, and nothing changes", () => {
  const app = displayApp();
  files["P/Bad.txt"] = "FF0000@10 00FF00";
  let r = call(patchDisplay(), app, { overlay: "snow", overlaySettings: { palette: "BAD" } }) as Failure;
  assert.equal([r.status, r.code, r.field], [422, "validationFailed", "overlaySettings.palette"]);
  assert.is(app.display.overlay.name, null);
  r = call(patchDisplay(), app, { overlaySettings: { palette: "Dusk" } }) as Failure;
  assert.equal([r.field, r.message], ["overlaySettings.palette", "unknown palette"]);
  r = call(patchDisplay(), app, { overlaySettings: { palette: [{ color: "#FF0000", pos: 0 }, "#00FF00"] } }) as Failure;
  assert.equal([r.field, r.message], ["overlaySettings.palette", "stops must all have a position or none"]);
  assert.is(app.display.overlay.palette, null);
});

test.run();
