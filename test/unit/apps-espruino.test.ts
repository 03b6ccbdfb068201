// The built-in apps in the real interpreter ($ESPRUINO, Espruino's Linux build): bundled as the
// firmware is, with the generated font files in its Storage, a few fixture frames drawn into a
// 32x8 24-bit Graphics and compared with the same fixtures the host rendering uses. Also checks
// that drawing frames in steady state leaves nothing allocated.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runInEspruino, steadyGrowth } from "../espruino/script";
import { FRAMES_DIR, frameToText, localTime } from "../harness/frame-fixture";
import { fontFiles } from "./text-support";

const bin = process.env.ESPRUINO;
const MARK = "[apps] ";
const MORNING = localTime(2026, 3, 10, 9, 5, 7);

/** Fixture name, app index in the built-in order, settings changes, time, ms on screen. */
const CASES = [
  { name: "time-mode0", app: 0, patch: { timeMode: 0, timeSeparatorMode: "steady" }, local: MORNING, shownMs: 0 },
  { name: "time-mode1", app: 0, patch: { timeMode: 1, timeSeparatorMode: "steady" }, local: MORNING, shownMs: 0 },
  { name: "time-mode4", app: 0, patch: { timeMode: 4, timeSeparatorMode: "steady" }, local: MORNING, shownMs: 0 },
  { name: "time-mode5", app: 0, patch: { timeMode: 5, timeSeparatorMode: "steady" }, local: MORNING, shownMs: 0 },
  { name: "time-mode6", app: 0, patch: { timeMode: 6, timeSeparatorMode: "steady" }, local: MORNING, shownMs: 0 },
  {
    name: "time-12h-pm", app: 0, shownMs: 0, local: localTime(2026, 3, 10, 21, 5, 8),
    patch: { timeMode: 0, timeSeparatorMode: "steady", time24h: false, timeLeadingZero: false, timeShowAmPm: true },
  },
  { name: "time-pulse-half", app: 0, patch: { timeMode: 0 }, local: localTime(2026, 3, 10, 9, 5, 8, 500), shownMs: 0 },
  {
    name: "date-long-2s", app: 1, local: MORNING, shownMs: 2000,
    patch: { dateShowWeekday: true, dateMonthNames: true, dateYearMode: "fourDigit" },
  },
  { name: "temperature-celsius", app: 2, patch: { temperatureColor: 0xffaa00 }, local: MORNING, shownMs: 0 },
  { name: "humidity", app: 3, patch: { humidityColor: 0x00ffff }, local: MORNING, shownMs: 0 },
  { name: "battery", app: 4, patch: {}, local: MORNING, shownMs: 0 },
];

function script(): string {
  const entry = `
    import { TimeApp } from "./firmware/apps/builtin/time";
    import { DateApp } from "./firmware/apps/builtin/date";
    import { BATTERY, HUMIDITY, ReadingApp, TEMPERATURE } from "./firmware/apps/builtin/readings";
    import { drawBattery, drawDroplet, drawThermometer } from "./firmware/apps/builtin/icons";
    import { textKit } from "./firmware/apps/text-kit";
    import { defaultSettings } from "./firmware/settings/schema";
    import { FrameCanvas, Grade } from "./firmware/display/grade";
    const CASES = ${JSON.stringify(CASES)};
    const config = { tempDecimals: 0 };
    // The pages the apps' modules make, in the built-in order.
    const cfg = () => config;
    const kit = textKit();
    const apps = [new TimeApp(kit), new DateApp(kit), new ReadingApp(TEMPERATURE, () => 21.46, drawThermometer, cfg, kit),
      new ReadingApp(HUMIDITY, () => 42.4, drawDroplet, cfg, kit), new ReadingApp(BATTERY, () => 88, drawBattery, cfg, kit)];
    const g = Graphics.createArrayBuffer(32, 8, 24);
    const canvas = new FrameCanvas(g, new Grade());
    // A whole page, as the loop's apps draw it (firmware/apps/page-app.ts).
    function whole(p, f) {
      if (p.draw) p.draw(canvas, f);
      else {
        p.drawStill(canvas, f);
        if (p.drawMoving) p.drawMoving(canvas, f);
      }
    }
    for (let i = 0; i < CASES.length; i++) {
      const c = CASES[i];
      g.clear();
      whole(apps[c.app], { now: 100000, shownMs: c.shownMs, local: c.local, settings: Object.assign(defaultSettings(), c.patch) });
      for (let y = 0; y < 8; y++) {
        let row = "";
        for (let x = 0; x < 32; x++) row += (0x1000000 + g.getPixel(x, y)).toString(16).substr(1);
        print("${MARK}" + c.name + " " + row);
      }
    }
    // Steady state: frames of one minute, the colon pulsing, the date scrolling, readings
    // unchanged. After a first few, 500 frames may leave no more behind than 50 did. The clocks
    // start high: counting up from 0, this loop alone (drawing nothing) leaves two variables
    // behind once, after some 9 to 13 seconds of frames.
    const s = Object.assign(defaultSettings(), { timeMode: 1, dateShowWeekday: true, dateMonthNames: true });
    const local = CASES[0].local;
    const f = { now: 100000, shownMs: 100000, local: local, settings: s };
    function frames(n) {
      for (let k = 0; k < n; k++) {
        f.now += 25;
        f.shownMs += 25;
        local.ms = f.now % 1000;
        local.seconds = Math.floor(f.now / 1000) % 60;
        g.clear();
        for (let a = 0; a < apps.length; a++) whole(apps[a], f);
      }
    }
  ` + steadyGrowth(MARK, "frames");
  return entry;
}

if (!bin) {
  test.skip("built-in apps in the real interpreter (set ESPRUINO=/path/to/espruino)", () => {});
} else {
  test("fixture frames match in the real interpreter; steady-state frames allocate nothing", () => {
    const lines = runInEspruino(bin, script(), fontFiles());
    const rows: { [name: string]: string[] } = {};
    let growth = "";
    for (const l of lines) {
      const at = l.indexOf(MARK);
      if (at < 0) continue;
      const words = l.slice(at + MARK.length).split(" ");
      if (words[0] === "growth") growth = words[1];
      else (rows[words[0]] = rows[words[0]] || []).push(words[1]);
    }
    for (const c of CASES) {
      assert.ok(rows[c.name], c.name + " was not rendered:\n" + lines.slice(-20).join("\n"));
      const pixels = rows[c.name].join("").match(/.{6}/g)!.map((h) => parseInt(h, 16));
      const expected = fs.readFileSync(path.join(FRAMES_DIR, c.name + ".txt"), "utf8");
      assert.is(frameToText({ width: 32, height: 8, pixels }), expected, c.name);
    }
    assert.is(growth, "0", "variables left over after 500 frames");
  });
}

test.run();
